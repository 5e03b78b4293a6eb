import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessSchema } from '@frontdesk/protocol';
import { waitForOwnConnections } from '../src/lifecycle/drain.ts';
import { GatewayConnections } from '../src/observability/gateway-connections.ts';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { buildTestApp, callApi, loginGuest, newCallId, type TestApp } from './helper.ts';

describe('draining before a stop', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  // Decision 0038: a replica waits for the WebSockets it relays itself, not for the database's
  // calls (which other replicas relay and which outlive this one anyway).
  it('waits for its own relayed WebSockets to close, and no longer than the grace period', async () => {
    const server = createServer();
    const wss = new WebSocketServer({ server });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const relayed = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
      const browser = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const connections = new GatewayConnections();
      connections.track('xmpp', await relayed);
      expect(await waitForOwnConnections(connections, 300, { pollMs: 50 })).toBe('graceOver');

      setTimeout(() => browser.close(), 300);
      expect(await waitForOwnConnections(connections, 60_000, { pollMs: 50 })).toBe('closed');
    } finally {
      wss.close();
      server.close();
    }
  });

  it('takes no new call and leaves the load balancer once draining', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(readinessSchema.parse(ready.json()).status).not.toBe('draining');

    const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
    t.app.drain.begin();
    const refused = await callApi(
      t.app,
      'POST',
      'call-report/add',
      { call_id: newCallId(guest), company: SEEDED_COMPANY.demo, source: 'site', category_id: 1 },
      guest.token,
    );
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: { code: 'draining' } });
    const stored = await t.app.db
      .selectFrom('call_reports')
      .select('id')
      .where('guest_id', 'in', (q) =>
        q.selectFrom('guests').select('id').where('username', '=', guest.username),
      )
      .execute();
    expect(stored).toEqual([]);

    const draining = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(draining.statusCode).toBe(503);
    expect(readinessSchema.parse(draining.json()).status).toBe('draining');
  });
});
