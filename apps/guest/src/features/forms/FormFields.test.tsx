import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormField } from '@frontdesk/protocol';
import { company, renderWithState } from '../../test/render.tsx';
import { FormFields } from './FormFields.tsx';
import type { FieldProblem } from './validate.ts';

afterEach(cleanup);

const fields: FormField[] = [
  {
    type: 'tel',
    name: 'phone',
    label: 'Phone',
    required: true,
    maxLength: 30,
    help: 'We call back only if the line drops.',
  },
  { type: 'checkbox', name: 'consent', label: 'I agree', required: false, help: 'See our terms.' },
  { type: 'rating', name: 'score', label: 'Your score', required: false, help: '5 is best.' },
  { type: 'text', name: 'name', label: 'Your name', required: false, maxLength: 100 },
];

function renderFields(problems: Record<string, FieldProblem> = {}) {
  renderWithState(
    <FormFields
      idPrefix="welcome"
      fields={fields}
      answers={{}}
      problems={problems}
      ratingStyle="stars"
      onChange={() => undefined}
    />,
    { company: { details: company() } },
  );
}

/** What a screen reader reads after the control's name: its described-by texts, in order. */
const descriptionOf = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);

describe('form fields', () => {
  it("shows each field's help under it, tied to the control", () => {
    renderFields();
    expect(descriptionOf(screen.getByLabelText(/Phone/))).toEqual([
      'We call back only if the line drops.',
    ]);
    expect(descriptionOf(screen.getByLabelText(/I agree/))).toEqual(['See our terms.']);
    expect(descriptionOf(screen.getByRole('group', { name: 'Your score' }))).toEqual([
      '5 is best.',
    ]);
    // A field without help is described by nothing.
    expect(screen.getByLabelText(/Your name/).hasAttribute('aria-describedby')).toBe(false);
  });

  it('keeps the help beside an error, help first', () => {
    renderFields({ phone: 'invalid', name: 'required' });
    const phone = screen.getByLabelText(/Phone/);
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(phone)).toEqual([
      'We call back only if the line drops.',
      'Enter a phone number, digits only, with an optional + in front.',
    ]);
    expect(descriptionOf(screen.getByLabelText(/Your name/))).toEqual(['Please fill this in.']);
  });

  it('shows a limit as a counter, not a silent cut', () => {
    const limited: FormField[] = [
      { type: 'textarea', name: 'issue', label: 'Your question', required: false, maxLength: 200 },
      { type: 'text', name: 'city', label: 'City', required: false, maxLength: 10 },
    ];
    const show = (answers: Record<string, string>) =>
      renderWithState(
        <FormFields
          idPrefix="welcome"
          fields={limited}
          answers={answers}
          problems={{}}
          ratingStyle="stars"
          onChange={() => undefined}
        />,
        { company: { details: company() } },
      );
    show({ issue: 'Hello', city: 'Ox' });
    // A long text always shows its count; a one-line answer only as it nears the limit.
    expect(screen.getByTestId('welcome-issue-count').textContent).toContain('5 / 200');
    expect(descriptionOf(screen.getByLabelText(/Your question/))).toEqual([
      '5 / 200Characters used: 5 of 200',
    ]);
    expect(screen.queryByTestId('welcome-city-count')).toBeNull();
    cleanup();

    show({ issue: '', city: 'Chelmsford' });
    expect(screen.getByTestId('welcome-city-count').textContent).toContain('10 / 10');
    expect(
      screen.getByText('You have reached the limit of 10 characters.').getAttribute('role'),
    ).toBe('status');
  });
});
