import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/adminApi.ts';
import { staffEntry } from '../../../test/staffEntry.ts';
import { answer, clockCompany, renderRoute, signedIn, zoeLogin } from '../../../test/render.tsx';

afterEach(cleanup);

const entry = (id: number, changes: object) => ({
  id,
  at: '2026-03-02T09:30:00.000Z',
  staffId: 9,
  actor: 'zoe@frontdesk.demo',
  ...changes,
});

describe('the change history page', () => {
  it('shows who changed what and when, each field before → after, and loads older pages', async () => {
    const server = adminApi({
      'GET /company/12': answer({ ...clockCompany, schedule: null }),
      'GET /company/12/staff': answer([staffEntry({ active: false, categoryIds: [] })]),
      'GET /company/12/categories': answer([
        {
          id: 44,
          name: 'Sales',
          roomName: 'clock-sales',
          position: 0,
          textColor: null,
          backgroundColor: null,
          agentIds: [],
        },
      ]),
      'GET /company/12/audit': answer({
        entries: [
          entry(31, {
            action: 'staff.deactivate',
            target: 'staff 1',
            before: { active: true },
            after: { active: false },
          }),
          entry(30, {
            action: 'company.update',
            target: 'company 12',
            before: { ratingStyle: 'stars' },
            after: { ratingStyle: 'emojies' },
          }),
        ],
        nextBefore: 30,
      }),
      'GET /company/12/audit?before=30': answer({
        entries: [
          entry(12, {
            action: 'staff.update',
            target: 'staff 1',
            before: { categoryIds: [] },
            after: { categoryIds: [44] },
          }),
        ],
        nextBefore: null,
      }),
    });
    renderRoute('/console/admin/audit', signedIn(zoeLogin), { api: server.api });
    const entries = await screen.findAllByTestId('audit-entry');
    expect(entries).toHaveLength(2);
    const [deactivation, settings] = entries;
    if (!deactivation || !settings) throw new Error('two entries expected');
    expect(deactivation.textContent).toContain('Deactivated a member');
    expect(deactivation.textContent).toContain('Ada Agent (staff 1)');
    // The company's own entries need no target.
    expect(settings.textContent).not.toContain('company 12');
    expect(deactivation.textContent).toContain('zoe@frontdesk.demo');
    expect(within(deactivation).getByText('on → off')).toBeTruthy();
    expect(settings.textContent).toContain('Rating style');
    expect(within(settings).getByText('Stars → Emojis')).toBeTruthy();
    expect(within(deactivation).getByText(/2026/).getAttribute('dateTime')).toBe(
      '2026-03-02T09:30:00.000Z',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Show older changes' }));
    expect(await screen.findByText('That is every change.')).toBeTruthy();
    const all = screen.getAllByTestId('audit-entry');
    expect(all).toHaveLength(3);
    expect(all[2]?.textContent).toContain('Changed a member');
    // Ids are shown by name.
    expect(all[2]?.textContent).toContain('Categories (none) → Sales');
    expect(screen.queryByRole('button', { name: 'Show older changes' })).toBeNull();
  });
});
