import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, fakeApi } from '@frontdesk/protocol/testing';
import { callReport, company, offlineServices, renderWithState } from '../../test/render.tsx';
import { RatingPage } from './RatingPage.tsx';

afterEach(cleanup);

const GUEST = `g${'b'.repeat(25)}`;
const report = callReport(GUEST, `${GUEST}--k9Z1`);
const reportState = {
  reportId: null,
  callID: null,
  InitialCallID: null,
  reportInit: { isInitialized: true, isOutOfQuota: false, isGuestBlocked: false },
};

describe('rating stage', () => {
  it('asks for stars, and without one sends nothing and thanks the guest', () => {
    // Services fail loudly here: a rating sent would throw.
    renderWithState(<RatingPage />, {
      company: { details: company({ ratingPageMsg: 'Rate us', ratingSubmitMsg: 'Send' }) },
    });
    expect(screen.getByRole('heading', { name: 'Rate us' })).toBeTruthy();
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    expect(screen.getByText(/Optional/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByTestId('stage-thanks')).toBeTruthy();
  });

  it('sends the score chosen', async () => {
    const { api, requests } = fakeApi({
      'PUT /call-report/update': answer(report),
    });
    renderWithState(
      <RatingPage />,
      {
        company: { details: company() },
        report: { ...reportState, callID: report.call_id, reportId: report.id },
      },
      offlineServices({ api }),
    );
    fireEvent.click(screen.getByRole('radio', { name: '4 / 5' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    await screen.findByTestId('stage-thanks');
    expect(requests.map((r) => r.body)).toEqual([{ call_id: report.call_id, rating: 4 }]);
  });

  it('can be skipped, even where the company requires answers in its form', () => {
    renderWithState(<RatingPage />, {
      company: {
        details: company({
          advanceRating: true,
          ratingForm: {
            id: 3,
            title: 'Tell us more',
            fields: [{ type: 'rating', name: 'score', label: 'Score', required: true }],
          },
        }),
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));
    expect(screen.getByTestId('stage-thanks')).toBeTruthy();
  });

  it('thanks the guest and offers what comes next: the company site and a new call', () => {
    renderWithState(<RatingPage />, {
      company: {
        details: company({
          showRatingPage: false,
          websiteUrl: 'https://acme.example',
          websiteTitle: 'Acme',
        }),
      },
    });
    const next = screen.getByRole('navigation', { name: 'What would you like to do next?' });
    expect(next.querySelector('a')?.getAttribute('href')).toBe('https://acme.example');
    expect(screen.getByRole('link', { name: 'Back to Acme' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start a new call' })).toBeTruthy();
  });

  it('offers emojis when the company rates with them', () => {
    renderWithState(<RatingPage />, { company: { details: company({ ratingStyle: 'emojies' }) } });
    expect(screen.getByRole('radio', { name: '5 / 5' }).closest('.rating')?.className).toContain(
      'rating-emojies',
    );
  });

  it('goes straight to thanks when the company shows no rating page', () => {
    renderWithState(<RatingPage />, {
      company: { details: company({ showRatingPage: false, thanksMsg: 'Bye!' }) },
    });
    expect(screen.getByText('Bye!')).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
  });
});
