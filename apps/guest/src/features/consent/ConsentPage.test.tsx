import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { company, renderWithState } from '../../test/render.tsx';
import { ConsentDeclinedPage, ConsentPage } from './ConsentPage.tsx';

afterEach(cleanup);

describe('the consent step (decision 0030)', () => {
  it("reads the company's words as the step's description, with its privacy notice", () => {
    const details = company({
      consentText: 'We keep your answers for 30 days.',
      privacyNoticeUrl: 'https://shop.example/privacy',
      recordCalls: true,
      recordAlertText: 'Calls are recorded for training.',
    });
    renderWithState(
      <ConsentPage company={details} onAccept={async () => undefined} onDecline={vi.fn()} />,
      { company: { details } },
    );
    const step = screen.getByRole('region', { name: 'Before we start' });
    const description = document.getElementById(step.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe(
      'We keep your answers for 30 days.Calls are recorded for training.',
    );
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Before we start' }));
    expect(screen.getByRole('link', { name: /privacy notice/ }).getAttribute('href')).toBe(
      'https://shop.example/privacy',
    );
  });

  it('says its own sentence without a company text, and mentions the choice of recording', () => {
    const details = company({ name: 'Shop', recordCalls: true, recordingOptional: true });
    renderWithState(
      <ConsentPage company={details} onAccept={async () => undefined} onDecline={vi.fn()} />,
      { company: { details } },
    );
    screen.getByText(/To connect you with Shop/);
    screen.getByText(/choose to call without recording/);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('goes on once accepted (the button waits meanwhile) and tells a decline', async () => {
    let accepted: () => void = () => undefined;
    const onAccept = vi.fn(() => new Promise<void>((resolve) => (accepted = resolve)));
    const onDecline = vi.fn();
    const details = company();
    renderWithState(<ConsentPage company={details} onAccept={onAccept} onDecline={onDecline} />, {
      company: { details },
    });
    fireEvent.click(screen.getByRole('button', { name: 'I agree, continue' }));
    expect(onAccept).toHaveBeenCalledOnce();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Continuing…' }).disabled).toBe(
      true,
    );
    accepted();
    const again = await screen.findByRole<HTMLButtonElement>('button', {
      name: 'I agree, continue',
    });
    expect(again.disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'No, thanks' }));
    expect(onDecline).toHaveBeenCalledOnce();
  });
});

describe('after a decline', () => {
  it("says nothing was stored, leads to the company's site, and back to the step", () => {
    const onReconsider = vi.fn();
    const details = company({ name: 'Shop', websiteUrl: 'https://shop.example/' });
    renderWithState(<ConsentDeclinedPage company={details} onReconsider={onReconsider} />, {
      company: { details },
    });
    expect(document.activeElement).toBe(
      screen.getByRole('heading', { name: 'Nothing was stored' }),
    );
    expect(screen.getByRole('link', { name: 'Back to Shop' }).getAttribute('href')).toBe(
      'https://shop.example/',
    );
    fireEvent.click(screen.getByRole('button', { name: 'I changed my mind' }));
    expect(onReconsider).toHaveBeenCalledOnce();
  });

  it('names other ways to reach a company without a website', () => {
    const details = company({ name: 'Shop', websiteUrl: null });
    renderWithState(<ConsentDeclinedPage company={details} onReconsider={vi.fn()} />, {
      company: { details },
    });
    screen.getByText(/reach Shop in other ways/);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
