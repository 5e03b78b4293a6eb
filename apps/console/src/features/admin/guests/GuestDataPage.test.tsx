import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/adminApi.ts';
import { answer, clockCompany, renderRoute, signedIn, zoeLogin } from '../../../test/render.tsx';

afterEach(cleanup);

const ann = {
  id: 41,
  username: 'gabcdefghijklmnopqrstuvwxy',
  registeredAt: '2026-03-02T09:30:00.000Z',
  calls: [{ callId: 'gabcdefghijklmnopqrstuvwxy--k3j2', startedAt: '2026-03-03T10:00:00.000Z' }],
  latestAnswers: { name: 'Ann Example', email: 'ann@example.com' },
};

describe("the guests' data page", () => {
  it('finds a guest by a form answer and erases it only once the word is typed', async () => {
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/guests?answer=ann%40example': answer([ann]),
      'DELETE /company/12/guests/41': answer({ calls: 1, answers: 2, files: 1, recordings: 0 }),
    });
    renderRoute('/console/admin/guests', signedIn(zoeLogin), { api: server.api });
    fireEvent.change(await screen.findByLabelText('The answer contains'), {
      target: { value: 'ann@example' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const row = await screen.findByTestId('guest-row');
    expect(row.textContent).toContain('Ann Example · ann@example.com');
    expect(row.textContent).toContain('1 call(s)');

    fireEvent.click(
      within(row).getByRole('button', { name: `Erase the data of guest ${ann.username}` }),
    );
    const dialog = await screen.findByTestId('guest-erase-dialog');
    expect(dialog.textContent).toContain('the files they sent');
    const confirm = within(dialog).getByRole('button', { name: 'Erase for good' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Type erase to confirm'), {
      target: { value: 'erase' },
    });
    fireEvent.click(confirm);
    expect((await screen.findByTestId('outcome')).textContent).toBe(
      'The guest is erased: 1 call(s) anonymised, 2 answer(s), 1 file(s) and 0 recording(s) deleted.',
    );
    expect(server.writes().map((request) => request.route)).toEqual([
      'DELETE /company/12/guests/41',
    ]);
    expect(screen.queryByTestId('guest-row')).toBeNull();
  });

  it('says when no guest matches, and refuses a search too short without asking the API', async () => {
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/guests?answer=nobody': answer([]),
    });
    renderRoute('/console/admin/guests', signedIn(zoeLogin), { api: server.api });
    const field = await screen.findByLabelText('The answer contains');
    fireEvent.change(field, { target: { value: 'no' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(server.sent.filter((r) => r.route.includes('/guests'))).toEqual([]);
    fireEvent.change(field, { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByTestId('guests-empty')).textContent).toContain('No guest matches');
  });
});
