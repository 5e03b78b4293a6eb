import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, guestFoundSchema } from '@frontdesk/protocol';
import { removeGuestIdentities } from '../src/privacy/deletion.ts';
import { buildTestAppWithChat, type TestAppWithChat } from './chat-server.ts';
import { COMPANY } from './guest-data-fixture.ts';
import { bearer, loginGuest, loginStaff, newCallId } from './helper.ts';

/**
 * decision 0032's edges: a guest whose only call was refused at its start (no end, never live)
 * and one whose identity aged out (decision 0031) with answers still held are both the admin's
 * to find, export and erase.
 */
describe('a guest’s rights at the edges (decision 0032)', () => {
  let t: TestAppWithChat;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestAppWithChat('privacy-edges');
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
  }, 60_000);
  afterAll(() => t.close());

  const guestRow = (username: string) =>
    t.app.db
      .selectFrom('guests')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
  /** As call-report/add records a refused call: kept for the reports, with no end. */
  async function recordRefusedCall(who: { username: string }, guestId: number) {
    const callId = newCallId(who);
    await t.app.db
      .insertInto('call_reports')
      .values({
        company_id: COMPANY,
        guest_id: guestId,
        call_id: callId,
        origin_call_id: callId,
        source: 'site',
        status: 'blocked',
      })
      .execute();
  }
  const erase = (guestId: number) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/company/${COMPANY}/guests/${guestId}`,
      headers: bearer(admin),
    });

  it('erases a guest whose only call was refused at its start and so never ended', async () => {
    const refused = await loginGuest(t.app, COMPANY);
    const guest = await guestRow(refused.username);
    await recordRefusedCall(refused, guest.id);
    const response = await erase(guest.id);
    expect(response.statusCode).toBe(200);
    const left = await t.app.db
      .selectFrom('guests')
      .select('id')
      .where('id', '=', guest.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('finds, exports and erases a guest whose identity aged out while its answers are held', async () => {
    const aged = await loginGuest(t.app, COMPANY);
    const guest = await guestRow(aged.username);
    const form = await t.app.db
      .selectFrom('forms')
      .select('id')
      .where('company_id', '=', COMPANY)
      .where('kind', '=', 'welcome')
      .where('retired_at', 'is', null)
      .executeTakeFirstOrThrow();
    const marker = `aged${guest.id}@example.com`;
    await t.app.db
      .insertInto('form_submissions')
      .values({
        company_id: COMPANY,
        guest_id: guest.id,
        form_id: form.id,
        service_type: 'Talk',
        answers: JSON.stringify({ email: marker }),
      })
      .execute();
    // An inactive guest who called (here refused) keeps a row without its identity (decision 0031).
    await recordRefusedCall(aged, guest.id);
    await removeGuestIdentities(t.app.db, [guest.id], new Date());
    expect((await guestRow(aged.username)).identity_removed_at).not.toBeNull();

    const found = await t.app.inject({
      method: 'GET',
      url: `/api/company/${COMPANY}/guests?answer=${encodeURIComponent(marker)}`,
      headers: bearer(admin),
    });
    expect(found.statusCode).toBe(200);
    expect(
      envelope(guestFoundSchema.array())
        .parse(found.json())
        .data.map((g) => g.id),
    ).toEqual([guest.id]);
    const exported = await t.app.inject({
      method: 'GET',
      url: `/api/company/${COMPANY}/guests/${guest.id}/export`,
      headers: bearer(admin),
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('application/zip');
    expect((await erase(guest.id)).statusCode).toBe(200);
    const answers = await t.app.db
      .selectFrom('form_submissions')
      .select('id')
      .where('guest_id', '=', guest.id)
      .execute();
    expect(answers).toEqual([]);
  });
});
