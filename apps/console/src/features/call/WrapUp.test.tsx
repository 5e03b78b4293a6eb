import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, refusal, renderWithState, signedIn } from '../../test/render.tsx';
import { WrapUp } from './WrapUp.tsx';

afterEach(cleanup);

const CALL = `g${'a'.repeat(25)}--call1`;
const CODES = [
  { code: 'solved', label: 'Solved' },
  { code: 'sale', label: 'Sale made' },
];

describe('WrapUp', () => {
  it('saves the outcome chosen from the company’s list, with the follow-up', async () => {
    const { api, requests } = fakeApi({
      'GET /company/12/outcome-codes': { body: { data: CODES } },
      [`PUT /calls/${CALL}/wrap-up`]: {
        body: {
          data: {
            outcomeCode: 'sale',
            followUp: true,
            followUpNote: 'Send the invoice',
            wrappedUpAt: '2026-11-26T12:00:00.000Z',
          },
        },
      },
    });
    renderWithState(<WrapUp callId={CALL} />, signedIn(), { api });
    const outcome = await screen.findByRole('combobox', { name: 'Outcome' });
    // No outcome chosen: said, nothing sent.
    fireEvent.click(screen.getByRole('button', { name: 'Save wrap-up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose an outcome first.');
    fireEvent.change(outcome, { target: { value: 'sale' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Needs a follow-up' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Follow-up note' }), {
      target: { value: 'Send the invoice' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save wrap-up' }));
    expect(await screen.findByText('Wrap-up saved')).toBeTruthy();
    expect(requests.at(-1)?.body).toEqual({
      outcomeCode: 'sale',
      followUp: true,
      followUpNote: 'Send the invoice',
    });
  });

  it('says why a wrap-up was refused and keeps what was chosen', async () => {
    const { api } = fakeApi({
      'GET /company/12/outcome-codes': { body: { data: [] } },
      [`PUT /calls/${CALL}/wrap-up`]: refusal(403, 'not_your_call', 'This call is not yours.'),
    });
    renderWithState(<WrapUp callId={CALL} />, signedIn(), { api });
    const save = await screen.findByRole('button', { name: 'Save wrap-up' });
    await screen.findByRole('checkbox', { name: 'Needs a follow-up' });
    expect(screen.queryByRole('combobox')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Needs a follow-up' }));
    fireEvent.click(save);
    expect((await screen.findByRole('alert')).textContent).toContain('This call is not yours.');
    expect(screen.getByRole('checkbox', { name: 'Needs a follow-up' })).toHaveProperty(
      'checked',
      true,
    );
  });
});
