import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  bearer,
  buildTestApp,
  callApi,
  loginGuest,
  multipart,
  newCallId,
  type TestApp,
  type TestGuest,
} from '../helper.ts';

/** A PNG's signature and header: enough for the sniffer, `size` bytes in all. */
const pngOf = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  return bytes;
};

/**
 * Attack: using the upload route as free storage — sending files without a call, or more than a
 * call may receive. Through the public REST interface only.
 */
describe('attack: uploads outside a call', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A small per-call quota, so the test need not send 100 MB.
    t = await buildTestApp({ UPLOAD_QUOTA_PER_CALL_MB: '0.5' });
  });
  afterAll(() => t.close());

  const upload = (who: TestGuest, size: number) => {
    const { payload, contentType } = multipart([
      { name: 'companyId', value: String(SEEDED_COMPANY.demo) },
      { name: 'image', filename: 'x.png', type: 'image/png', content: pngOf(size) },
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/upload/image',
      payload,
      headers: { 'content-type': contentType, ...bearer(who.token) },
    });
  };
  const storedFiles = async (guestId: string) =>
    t.app.db
      .selectFrom('uploads')
      .innerJoin('guests', 'guests.id', 'uploads.guest_id')
      .select('uploads.id')
      .where('guests.username', '=', guestId)
      .execute();

  it('refuses a guest without a live call, before a call and after it ended', async () => {
    const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
    const before = await upload(guest, 1000);
    expect(before.statusCode).toBe(403);
    expect(before.json().error.code).toBe('no_live_call');

    const callId = newCallId(guest);
    await callApi(
      t.app,
      'POST',
      'call-report/add',
      { call_id: callId, company: 5, source: 'site' },
      guest.token,
    );
    expect((await upload(guest, 1000)).statusCode).toBe(201);

    await callApi(t.app, 'POST', `calls/${callId}/end`, { reason: 'abandoned' }, guest.token);
    const after = await upload(guest, 1000);
    expect(after.statusCode).toBe(403);
    expect(await storedFiles(guest.username)).toHaveLength(1);
  });

  it("refuses what goes past the call's quota, and keeps nothing of it", async () => {
    const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
    await callApi(
      t.app,
      'POST',
      'call-report/add',
      { call_id: newCallId(guest), company: 5, source: 'site' },
      guest.token,
    );
    // 0.5 MB per call: two files of 200 KB fit, the third does not.
    expect((await upload(guest, 200 * 1024)).statusCode).toBe(201);
    expect((await upload(guest, 200 * 1024)).statusCode).toBe(201);
    const third = await upload(guest, 200 * 1024);
    expect(third.statusCode).toBe(413);
    expect(third.json().error.code).toBe('call_quota_exceeded');
    expect(await storedFiles(guest.username)).toHaveLength(2);
  });

  it('throws away a file past its size limit without keeping any of it', async () => {
    const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
    await callApi(
      t.app,
      'POST',
      'call-report/add',
      { call_id: newCallId(guest), company: 5, source: 'site' },
      guest.token,
    );
    // Images may be 10 MB.
    const response = await upload(guest, 10 * 1024 * 1024 + 1);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('file_too_large');
    expect(await storedFiles(guest.username)).toHaveLength(0);
  });
});
