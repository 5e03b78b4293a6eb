import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminCategory } from '@frontdesk/protocol';
import { adminApi } from '../../../test/adminApi.ts';
import { staffEntry } from '../../../test/staffEntry.ts';
import {
  answer,
  clockCompany,
  refusal,
  renderRoute,
  signedIn,
  zoeLogin,
  type FakeAnswer,
} from '../../../test/render.tsx';
import { moved } from './CategoriesPage.tsx';

afterEach(cleanup);

const category = (id: number, name: string, position: number): AdminCategory => ({
  id,
  name,
  roomName: `clock-${name.toLowerCase()}`,
  position,
  textColor: null,
  backgroundColor: null,
  agentIds: [],
});
const general = category(40, 'General', 0);
const billing = category(41, 'Billing', 1);
const returns = category(42, 'Returns', 2);
const cy = staffEntry({ id: 3, email: 'cy@frontdesk.demo', name: 'Cy Agent', categoryIds: [] });

async function openCategories(answers: Record<string, FakeAnswer> = {}) {
  const server = adminApi({
    'GET /company/12': answer(clockCompany),
    'GET /company/12/categories': answer([general, billing, returns]),
    'GET /company/12/staff': answer([cy]),
    ...answers,
  });
  renderRoute('/console/admin/categories', signedIn(zoeLogin), { api: server.api });
  await screen.findAllByTestId('category-row');
  return server;
}

const names = () =>
  screen
    .getAllByTestId('category-row')
    .map((row) => row.querySelector('.category-sample')?.textContent);

describe('moved', () => {
  it('moves one id a step, and leaves the ends where they are', () => {
    expect(moved([1, 2, 3], 3, -1)).toEqual([1, 3, 2]);
    expect(moved([1, 2, 3], 1, 1)).toEqual([2, 1, 3]);
    expect(moved([1, 2, 3], 1, -1)).toEqual([1, 2, 3]);
    expect(moved([1, 2, 3], 3, 1)).toEqual([1, 2, 3]);
  });
});

describe('the categories page', () => {
  it('shows the categories in order; the first cannot move up nor the last down', async () => {
    await openCategories();
    expect(names()).toEqual(['General', 'Billing', 'Returns']);
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Move General up' }).disabled,
    ).toBe(true);
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Move Returns down' }).disabled,
    ).toBe(true);
    expect(screen.getAllByText('Every available agent')).toHaveLength(3);
  });

  it('sends the whole new order with If-Match, and keeps the focus on the moved category', async () => {
    const server = await openCategories({
      'PUT /company/12/categories/order': answer([general, returns, billing]),
    });
    server.answers['GET /company/12/categories'] = answer([
      general,
      { ...returns, position: 1 },
      { ...billing, position: 2 },
    ]);
    server.answers['GET /company/12'] = answer({ ...clockCompany, version: 2 });
    const up = screen.getByRole('button', { name: 'Move Returns up' });
    up.focus();
    fireEvent.click(up);

    expect((await screen.findByTestId('outcome')).textContent).toBe('Returns is now 2 of 3.');
    expect(server.writes()).toEqual([
      {
        route: 'PUT /company/12/categories/order',
        body: { categoryIds: [40, 42, 41] },
        ifMatch: 1,
      },
    ]);
    expect(names()).toEqual(['General', 'Returns', 'Billing']);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Returns up' })),
    );
  });

  it('adds a category at the end, checking its name first', async () => {
    const server = await openCategories({
      'POST /company/12/categories': answer(category(43, 'Sales', 3)),
    });
    const form = screen.getByRole('form', { name: 'Add a category' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add a category' }));
    expect(within(form).getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(server.writes()).toEqual([]);

    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Sales' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add a category' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe('Sales is added at the end.');
    expect(server.writes()).toEqual([
      { route: 'POST /company/12/categories', body: { name: 'Sales' }, ifMatch: 1 },
    ]);
  });

  it('edits the colours and the agents, sending only what changed', async () => {
    const server = await openCategories({
      'PATCH /company/12/categories/41': answer({
        ...billing,
        backgroundColor: '#aa3300',
        agentIds: [3],
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Billing' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Billing' });
    fireEvent.change(within(dialog).getByLabelText('Background colour'), {
      target: { value: '#aa3300' },
    });
    fireEvent.click(within(dialog).getByLabelText(/Cy Agent/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe('Billing is saved.');
    expect(server.writes()).toEqual([
      {
        route: 'PATCH /company/12/categories/41',
        body: { backgroundColor: '#aa3300', agentIds: [3] },
        ifMatch: 1,
      },
    ]);
  });

  it('asks before deleting, and explains a 409 (a call still in the category)', async () => {
    await openCategories({
      'DELETE /company/12/categories/41': refusal(
        409,
        'category_has_live_calls',
        'Category 41 has calls waiting or under way: delete it once they have ended.',
      ),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Billing' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Billing?' });
    expect(dialog.textContent).toContain('past calls keep it in the reports');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'has calls waiting or under way: delete it once they have ended',
    );
    expect(names()).toEqual(['General', 'Billing', 'Returns']);
  });
});
