import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { company, renderWithState } from '../../test/render.tsx';
import { WelcomePage } from './WelcomePage.tsx';

const welcomeForm = {
  id: 3,
  title: 'Before we start',
  fields: [
    { type: 'text' as const, name: 'name', label: 'Your name', required: true, maxLength: 100 },
    { type: 'email' as const, name: 'email', label: 'E-mail', required: true, maxLength: 200 },
    { type: 'checkbox' as const, name: 'consent', label: 'I agree', required: false },
  ],
};

afterEach(cleanup);

describe('welcome form stage', () => {
  it('refuses to send until required fields are filled, naming each and focusing the first', () => {
    renderWithState(<WelcomePage />, {
      company: {
        details: company({
          welcomeForm,
          welcomeFormTitle: 'Tell us about you',
          welcomeButtonText: 'Go',
        }),
      },
    });
    expect(screen.getByRole('heading', { name: 'Tell us about you' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/E-mail/), { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));

    expect(screen.getByRole('alert').textContent).toBe('Please check the fields marked below.');
    const name = screen.getByLabelText(/Your name/);
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    expect(screen.getByText('Please fill this in.')).toBeTruthy();
    expect(screen.getByText(/Enter an e-mail address/)).toBeTruthy();
    expect(screen.getByLabelText(/I agree/).getAttribute('aria-invalid')).toBeNull();
  });

  it("isolates the company's own words, so they keep their direction on a page in another language", () => {
    renderWithState(<WelcomePage />, {
      company: { details: company({ welcomeForm, welcomeMsg: 'Talk to us face to face.' }) },
    });
    for (const words of ['Before we start', 'Talk to us face to face.', 'Your name', 'I agree']) {
      expect(screen.getByText(words).tagName).toBe('BDI');
    }
  });
});
