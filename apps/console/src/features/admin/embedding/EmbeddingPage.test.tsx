import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/adminApi.ts';
import { answer, clockCompany, renderRoute, signedIn, zoeLogin } from '../../../test/render.tsx';

afterEach(cleanup);

describe('the embedding page', () => {
  it('gives the queueing snippet, keeps the secret hidden until asked, and makes a new one', async () => {
    const secret = (value: string | null) => ({
      secret: value,
      rotatedAt: value ? '2026-03-01T10:00:00.000Z' : null,
    });
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/allowed-origins': answer({ allowedOrigins: ['https://shop.example'] }),
      'GET /company/12/embed-secret': answer(secret(null)),
      'POST /company/12/embed-secret': answer(secret('fdes_new')),
    });
    renderRoute('/console/admin/embedding', signedIn(zoeLogin), { api: server.api });

    const snippet = (await screen.findByTestId('embed-snippet')).textContent ?? '';
    expect(snippet).toContain('(f.q = f.q || []).push(arguments)');
    expect(snippet).toContain(`/embed.js');`);
    expect(snippet).toContain("Frontdesk('boot', { company: 12, label: 'Talk to us' });");
    expect(screen.getByText('https://shop.example')).toBeTruthy();
    expect(
      screen.getByText('No secret yet: answers your site fills in are shown as the visitor’s own.'),
    ).toBeTruthy();

    server.answers['GET /company/12/embed-secret'] = answer(secret('fdes_new'));
    fireEvent.click(screen.getByRole('button', { name: 'Make a secret' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe('A new secret is ready.');
    expect(server.writes()).toEqual([
      { route: 'POST /company/12/embed-secret', body: undefined, ifMatch: 1 },
    ]);
    // Hidden until the admin asks, so a shared screen does not show it.
    expect(screen.getByTestId('embed-secret').textContent).not.toContain('fdes_new');
    fireEvent.click(screen.getByRole('button', { name: 'Show the secret' }));
    expect(screen.getByTestId('embed-secret').textContent).toBe('fdes_new');
    expect(screen.getByRole('button', { name: 'Make a new secret' })).toBeTruthy();
  });
});
