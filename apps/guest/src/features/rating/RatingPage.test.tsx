import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { company, renderWithState } from '../../test/render.tsx';
import { RatingPage } from './RatingPage.tsx';

afterEach(cleanup);

describe('rating stage', () => {
  it('asks for stars and will not send without one', () => {
    renderWithState(<RatingPage />, {
      company: { details: company({ ratingPageMsg: 'Rate us', ratingSubmitMsg: 'Send' }) },
    });
    expect(screen.getByRole('heading', { name: 'Rate us' })).toBeTruthy();
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Please choose a rating.')).toBeTruthy();
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
