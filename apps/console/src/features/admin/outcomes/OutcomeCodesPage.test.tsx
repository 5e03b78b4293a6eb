import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/adminApi.ts';
import { answer, clockCompany, renderRoute, signedIn, zoeLogin } from '../../../test/render.tsx';

afterEach(cleanup);

const CODES = [
  { code: 'solved', label: 'Solved' },
  { code: 'sale', label: 'Sale made' },
];

describe('the call outcomes page', () => {
  it('adds outcomes, checks them as the API does, and saves the list with If-Match', async () => {
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/outcome-codes': answer([]),
      'PUT /company/12/outcome-codes': answer(CODES),
    });
    renderRoute('/console/admin/outcomes', signedIn(zoeLogin), { api: server.api });
    expect(await screen.findByText(/No outcomes yet/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add an outcome' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add an outcome' }));
    const [first, second] = screen.getAllByTestId('outcome-row') as [HTMLElement, HTMLElement];
    fireEvent.change(within(first).getByLabelText('Label'), { target: { value: 'Solved' } });
    fireEvent.change(within(first).getByLabelText(/^Code/), { target: { value: 'solved' } });
    fireEvent.change(within(second).getByLabelText('Label'), { target: { value: 'Sale made' } });
    fireEvent.change(within(second).getByLabelText(/^Code/), { target: { value: 'Sale!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save outcomes' }));
    // Refused before it travels, the error at its field.
    expect(within(second).getByLabelText(/^Code/).getAttribute('aria-invalid')).toBe('true');
    expect(server.writes()).toEqual([]);

    fireEvent.change(within(second).getByLabelText(/^Code/), { target: { value: 'sale' } });
    server.answers['GET /company/12/outcome-codes'] = answer(CODES);
    server.answers['GET /company/12'] = answer({ ...clockCompany, version: 2 });
    fireEvent.click(screen.getByRole('button', { name: 'Save outcomes' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe('Outcomes saved (2 outcomes)');
    expect(server.writes()).toEqual([
      { route: 'PUT /company/12/outcome-codes', body: { codes: CODES }, ifMatch: 1 },
    ]);
    expect(screen.getAllByTestId('outcome-row')).toHaveLength(2);
  });
});
