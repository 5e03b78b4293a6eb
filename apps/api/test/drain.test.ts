import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessSchema } from '@frontdesk/protocol';
import { waitForLiveCalls } from '../src/lifecycle/drain.ts';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  guestWithCall,
  loginGuest,
  markAnswered,
  newCallId,
  type TestApp,
} from './helper.ts';

describe('draining before a stop', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('waits for the live calls to end, and no longer than the grace period', async () => {
    const { callId } = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
    await markAnswered(t.app, callId);
    expect(await waitForLiveCalls(t.app.db, 300, { pollMs: 50 })).toBe('graceOver');

    const ending = setTimeout(() => {
      void t.app.db
        .updateTable('call_reports')
        .set({ ended_at: new Date(), end_reason: 'completed' })
        .where('call_id', '=', callId)
        .execute();
    }, 300);
    const began = Date.now();
    expect(await waitForLiveCalls(t.app.db, 10_000, { pollMs: 50 })).toBe('ended');
    clearTimeout(ending);
    expect(Date.now() - began).toBeLessThan(5000);
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
