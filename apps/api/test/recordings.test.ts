import { setTimeout as sleep } from 'node:timers/promises';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mergeCallRecording } from '@frontdesk/media/server';
import { DEFAULT_COMPANY_ID } from '@frontdesk/protocol';
import { signRecordingLink } from '../src/recordings/recording-links.ts';
import type { MergeRecording, RecordingJobSettings } from '../src/recordings/recording-jobs.ts';
import { recordingsOf } from '../src/recordings/recording-list.ts';
import {
  bearer,
  buildReplica,
  buildTestApp,
  callApi,
  guestWithCall,
  loginStaff,
  markAnswered,
  setCompanySettings,
  staffIdOf,
  type TestApp,
} from './helper.ts';

const COMPANY = DEFAULT_COMPANY_ID;
/** Company 12's admin: another company's. */
const OTHER_COMPANY = 12;

/** What the merge wrote for a call: stands in for ffmpeg's film, 1,000 known bytes. */
const FILM = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

/** The merge each test chooses; the apps call it through {@link jobSettings}. */
let merge: MergeRecording;
/** The calls each merge was asked for, by its output file. */
let merged: string[] = [];

const writeFilm: MergeRecording = async ({ output }) => {
  merged.push(output);
  await writeFile(output, FILM);
  return { durationSeconds: 12.3456 };
};

const jobSettings: Partial<RecordingJobSettings> = {
  merge: (options) => merge(options),
  settleSeconds: 1,
  retryLimit: 2,
  retryDelaySeconds: 1,
  pollingIntervalSeconds: 0.5,
};

let t: TestApp;
let ann: string;
let ada: string;
let zoe: string;

beforeAll(async () => {
  t = await buildTestApp({}, { recordingJobs: jobSettings });
  [ann, ada, zoe] = await Promise.all([
    loginStaff(t.app, 'admin@frontdesk.demo'),
    loginStaff(t.app, 'ada@frontdesk.demo'),
    loginStaff(t.app, 'zoe@frontdesk.demo'),
  ]);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  merge = writeFilm;
  merged = [];
});

const recordingsFolder = () => join(t.config.dataDir, 'recordings');

/**
 * An answered call of the demo company (which records its calls) whose room was opened, as the
 * claim leaves it without a Janus, and, with `recorded`, the .mjr files Janus would have written.
 */
async function answeredRecordedCall({ recorded = true } = {}) {
  const guest = await guestWithCall(t.app, COMPANY, 1);
  await markAnswered(t.app, guest.callId);
  const report = await t.app.db
    .updateTable('call_reports')
    .set({ room_pin: 'pin', room_secret: 'secret' })
    .where('call_id', '=', guest.callId)
    .returning('id')
    .executeTakeFirstOrThrow();
  if (recorded) {
    await mkdir(recordingsFolder(), { recursive: true });
    for (const [role, hex] of [
      ['guest', 'a'],
      ['agent', 'b'],
    ] as const) {
      for (const kind of ['audio-0', 'video-1']) {
        const name = `videoroom-${guest.callId}-user-${role}-${hex.repeat(32)}-1700000000000-${kind}.mjr`;
        await writeFile(join(recordingsFolder(), name), 'not a real Janus recording');
      }
    }
  }
  return { ...guest, reportId: report.id };
}

const endCall = (app: TestApp['app'], call: { callId: string; token: string }) =>
  callApi(app, 'POST', `calls/${call.callId}/end`, { reason: 'completed' }, call.token);

const recordingRow = (reportId: number) =>
  t.app.db
    .selectFrom('call_recordings')
    .selectAll()
    .where('call_report_id', '=', reportId)
    .executeTakeFirst();

/** Waits for the merge job to leave `pending`; the row as it ended. */
async function settled(reportId: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await recordingRow(reportId);
    if (row && row.status !== 'pending') return row;
    if (Date.now() > deadline) throw new Error(`recording ${reportId} still ${row?.status}`);
    await sleep(200);
  }
}

describe('the merge job', () => {
  it('merges an ended recorded call into a ready film, with its size and length', async () => {
    const call = await answeredRecordedCall();
    expect((await endCall(t.app, call)).statusCode).toBe(200);
    // Queued with the settle delay: pending, and counted so by /metrics.
    expect(await recordingRow(call.reportId)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await t.app.recordingJobs.pendingCount()).toBe(1);

    const row = await settled(call.reportId);
    expect(row).toMatchObject({
      status: 'ready',
      file_name: `${COMPANY}-${call.callId}.mp4`,
      size_bytes: FILM.length,
      duration_ms: 12346,
      attempts: 1,
      last_error: null,
    });
    expect(merged).toEqual([join(recordingsFolder(), `${COMPANY}-${call.callId}.merging.mp4`)]);
    expect(await t.app.recordingJobs.pendingCount()).toBe(0);

    // Ending again (the other side, a retried request) queues nothing more.
    expect((await endCall(t.app, call)).statusCode).toBe(200);
    await sleep(2500);
    expect(merged).toHaveLength(1);
    expect((await recordingRow(call.reportId))?.attempts).toBe(1);
  });

  it('ends `empty` when Janus recorded nothing, without merging', async () => {
    const call = await answeredRecordedCall({ recorded: false });
    await endCall(t.app, call);
    expect(await settled(call.reportId)).toMatchObject({
      status: 'empty',
      file_name: null,
      attempts: 1,
    });
    expect(merged).toEqual([]);
  });

  it('queues nothing for an abandoned call, one the guest declined recording, or a company that does not record', async () => {
    const abandoned = await guestWithCall(t.app, COMPANY, 1);
    await callApi(
      t.app,
      'POST',
      `calls/${abandoned.callId}/end`,
      { reason: 'abandoned' },
      abandoned.token,
    );
    const declined = await answeredRecordedCall({ recorded: false });
    // The guest chose to call unrecorded (decision 0030), as call-report/add keeps it.
    await t.app.db
      .updateTable('call_reports')
      .set({ recording_declined: true })
      .where('call_id', '=', declined.callId)
      .execute();
    await endCall(t.app, declined);
    const unrecorded = await answeredRecordedCall();
    await setCompanySettings(t.app, COMPANY, { recordCalls: false });
    try {
      await endCall(t.app, unrecorded);
    } finally {
      await setCompanySettings(t.app, COMPANY, { recordCalls: true });
    }
    const rows = await t.app.db
      .selectFrom('call_recordings')
      .innerJoin('call_reports', 'call_reports.id', 'call_recordings.call_report_id')
      .select('call_reports.call_id')
      .where('call_reports.call_id', 'in', [abandoned.callId, declined.callId, unrecorded.callId])
      .execute();
    expect(rows).toEqual([]);
  });

  it('retries a failed merge with back-off, then marks it failed with the last error', async () => {
    merge = async ({ output }) => {
      merged.push(output);
      throw new Error(`ffmpeg gave up (attempt ${merged.length})`);
    };
    const call = await answeredRecordedCall();
    await endCall(t.app, call);
    const row = await settled(call.reportId, 30_000);
    // The first attempt and its two retries.
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: 'ffmpeg gave up (attempt 3)',
    });
    expect(merged).toHaveLength(3);
    const [recording] = await recordingsOf(
      t.app.db,
      t.config.secrets.apiToken,
      { companyId: COMPANY, staffId: await staffIdOf(t.app, 'admin@frontdesk.demo') },
      [call.reportId],
    );
    expect(recording).toMatchObject({
      callId: call.callId,
      status: 'failed',
      attempts: 3,
      error: 'ffmpeg gave up (attempt 3)',
      url: null,
    });
  }, 40_000);

  it('succeeds on a retry after a failure', async () => {
    merge = async (options) => {
      if (merged.length === 0) {
        merged.push(options.output);
        throw new Error('disk full');
      }
      return writeFilm(options);
    };
    const call = await answeredRecordedCall();
    await endCall(t.app, call);
    expect(await settled(call.reportId)).toMatchObject({
      status: 'ready',
      attempts: 2,
      last_error: null,
    });
  });

  it('runs the real merge (janus-pp-rec and ffmpeg), which fails on files Janus did not write', async () => {
    merge = mergeCallRecording;
    const call = await answeredRecordedCall();
    await endCall(t.app, call);
    const row = await settled(call.reportId, 30_000);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(3);
    expect(row.last_error).toMatch(/\S/);
  }, 40_000);

  it('survives a restart: queued by an API that stops, merged by the next one', async () => {
    const first = await buildTestApp({}, { recordingJobs: jobSettings });
    try {
      const call = await (async () => {
        // The call goes through `first`; its rows live in `first`'s schema.
        const guest = await guestWithCall(first.app, COMPANY, 1);
        await markAnswered(first.app, guest.callId);
        const report = await first.app.db
          .updateTable('call_reports')
          .set({ room_pin: 'pin', room_secret: 'secret' })
          .where('call_id', '=', guest.callId)
          .returning('id')
          .executeTakeFirstOrThrow();
        const folder = join(first.config.dataDir, 'recordings');
        await mkdir(folder, { recursive: true });
        await writeFile(
          join(folder, `videoroom-${guest.callId}-user-guest-${'c'.repeat(32)}-1-video-1.mjr`),
          'x',
        );
        return { ...guest, reportId: report.id };
      })();
      expect((await endCall(first.app, call)).statusCode).toBe(200);
      // Stopped within the settle delay: nothing ran the merge.
      await first.app.close();
      await sleep(1500);
      const row = () =>
        first.app.db
          .selectFrom('call_recordings')
          .selectAll()
          .where('call_report_id', '=', call.reportId)
          .executeTakeFirstOrThrow();
      expect(await row()).toMatchObject({ status: 'pending', attempts: 0 });
      expect(merged).toEqual([]);

      const next = await buildReplica(first, {}, jobSettings);
      try {
        const deadline = Date.now() + 20_000;
        while ((await row()).status === 'pending' && Date.now() < deadline) await sleep(200);
        expect(await row()).toMatchObject({ status: 'ready', attempts: 1 });
        expect(merged).toHaveLength(1);
      } finally {
        await next.close();
      }
    } finally {
      await first.close();
    }
  }, 40_000);

  it('merges each call once with two API processes working the queue', async () => {
    const replica = await buildReplica(t, {}, jobSettings);
    try {
      const calls = await Promise.all([1, 2, 3, 4].map(() => answeredRecordedCall()));
      await Promise.all(calls.map((call, i) => endCall(i % 2 ? replica.app : t.app, call)));
      for (const call of calls) {
        expect(await settled(call.reportId)).toMatchObject({ status: 'ready', attempts: 1 });
      }
      expect([...merged].sort()).toEqual(
        calls
          .map((call) => join(recordingsFolder(), `${COMPANY}-${call.callId}.merging.mp4`))
          .sort(),
      );
    } finally {
      await replica.close();
    }
  }, 40_000);
});

describe('GET /api/reports/recordings/:callId', () => {
  let call: { callId: string; reportId: number; token: string };
  let annId: number;
  let adaId: number;
  let zoeId: number;

  beforeAll(async () => {
    [annId, adaId, zoeId] = await Promise.all([
      staffIdOf(t.app, 'admin@frontdesk.demo'),
      staffIdOf(t.app, 'ada@frontdesk.demo'),
      staffIdOf(t.app, 'zoe@frontdesk.demo'),
    ]);
    call = await answeredRecordedCall();
    await endCall(t.app, call);
    await settled(call.reportId);
  });

  const linkFor = async (viewer: { companyId: number; staffId: number }) => {
    const [recording] = await recordingsOf(t.app.db, t.config.secrets.apiToken, viewer, [
      call.reportId,
    ]);
    if (!recording?.url) throw new Error('no link');
    return recording.url;
  };
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const auditEntries = () =>
    t.app.db
      .selectFrom('audit_entries')
      .select(['staff_id', 'actor', 'action', 'target'])
      .where('action', 'like', 'recording.%')
      .orderBy('id')
      .execute();
  const clearAudit = () =>
    t.app.db.deleteFrom('audit_entries').where('action', 'like', 'recording.%').execute();

  const expectError = (response: Awaited<ReturnType<typeof get>>, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ error: { code } });
  };

  it('lists a ready recording with a link that plays it whole, inline, for the admin', async () => {
    await clearAudit();
    const url = await linkFor({ companyId: COMPANY, staffId: annId });
    expect(url).toMatch(
      new RegExp(
        `^/api/reports/recordings/${encodeURIComponent(call.callId)}\\?company=5&admin=${annId}&expires=\\d+&signature=[\\w-]+$`,
      ),
    );
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="${COMPANY}-call-${call.reportId}.mp4"`,
    );
    expect(response.rawPayload).toEqual(FILM);
    expect(await auditEntries()).toEqual([
      {
        staff_id: annId,
        actor: 'admin@frontdesk.demo',
        action: 'recording.played',
        target: `call ${call.callId}`,
      },
    ]);
  });

  it('answers range requests so the video seeks, and logs one play, not each chunk', async () => {
    await clearAudit();
    const url = await linkFor({ companyId: COMPANY, staffId: annId });
    const opening = await get(url, { range: 'bytes=0-' });
    expect(opening.statusCode).toBe(206);
    expect(opening.headers['content-range']).toBe(`bytes 0-999/${FILM.length}`);
    expect(opening.rawPayload).toEqual(FILM);

    const seek = await get(url, { range: 'bytes=500-509' });
    expect(seek.statusCode).toBe(206);
    expect(seek.headers['content-range']).toBe('bytes 500-509/1000');
    expect(seek.headers['content-length']).toBe('10');
    expect(seek.rawPayload).toEqual(FILM.subarray(500, 510));

    const tail = await get(url, { range: 'bytes=-100' });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe('bytes 900-999/1000');
    expect(tail.rawPayload).toEqual(FILM.subarray(900));

    expect((await auditEntries()).map((entry) => entry.action)).toEqual(['recording.played']);
  });

  it('refuses a range the file does not have (416) and says how long it is', async () => {
    const url = await linkFor({ companyId: COMPANY, staffId: annId });
    for (const range of ['bytes=1000-1100', 'bytes=20-10', 'bytes=-0', 'chunks=1-2']) {
      const response = await get(url, { range });
      expect(response.statusCode, range).toBe(416);
      expect(response.headers['content-range']).toBe('bytes */1000');
    }
  });

  it('saves it as a file with download=true, logged as a download', async () => {
    await clearAudit();
    const response = await get(
      `${await linkFor({ companyId: COMPANY, staffId: annId })}&download=true`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${COMPANY}-call-${call.reportId}.mp4"`,
    );
    expect(response.rawPayload).toEqual(FILM);
    expect((await auditEntries()).map((entry) => entry.action)).toEqual(['recording.downloaded']);
  });

  it("plays for an admin's bearer token too", async () => {
    const response = await get(`/api/reports/recordings/${call.callId}`, bearer(ann));
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload).toEqual(FILM);
  });

  it('refuses an expired, forged or altered link, and one for someone no longer an admin', async () => {
    const path = `/api/reports/recordings/${encodeURIComponent(call.callId)}`;
    const expired = signRecordingLink(
      t.config.secrets.apiToken,
      { companyId: COMPANY, callId: call.callId, staffId: annId },
      new Date(Date.now() - 11 * 60 * 1000),
    );
    expectError(await get(expired), 403, 'link_expired');

    const url = await linkFor({ companyId: COMPANY, staffId: annId });
    const forged = url.replace(/signature=[\w-]+/, `signature=${'A'.repeat(43)}`);
    expectError(await get(forged), 403, 'invalid_link');
    // Ann's link handed on with another admin's or member's id, or made to last longer.
    expectError(await get(url.replace(`admin=${annId}`, `admin=${zoeId}`)), 403, 'invalid_link');
    expectError(await get(url.replace(`admin=${annId}`, `admin=${adaId}`)), 403, 'invalid_link');
    expectError(await get(url.replace(/expires=\d+/, 'expires=9999999999')), 403, 'invalid_link');
    // Another leg's link does not open this one.
    const other = await answeredRecordedCall();
    expectError(
      await get(url.replace(path, `/api/reports/recordings/${encodeURIComponent(other.callId)}`)),
      403,
      'invalid_link',
    );
    // A link given to Ann stops when she is no longer an admin.
    await t.app.db.updateTable('staff').set({ role: 'agent' }).where('id', '=', annId).execute();
    try {
      expectError(await get(url), 403, 'invalid_link');
    } finally {
      await t.app.db.updateTable('staff').set({ role: 'admin' }).where('id', '=', annId).execute();
    }
    expectError(await get(`${path}?signature=abc`), 400, 'incomplete_link');
  });

  it("keeps a company's recordings from agents, other companies and strangers", async () => {
    const path = `/api/reports/recordings/${encodeURIComponent(call.callId)}`;
    expectError(await get(path), 401, 'unauthenticated');
    expectError(await get(path, bearer(ada)), 403, 'admins_only');
    expectError(await get(path, bearer(call.token)), 403, 'staff_only');
    // Another company's admin: the leg is not theirs, as if it did not exist.
    expectError(await get(path, bearer(zoe)), 404, 'no_recording');
    // A member of another company is shown none of its recordings…
    expect(
      await recordingsOf(
        t.app.db,
        t.config.secrets.apiToken,
        { companyId: OTHER_COMPANY, staffId: zoeId },
        [call.reportId],
      ),
    ).toEqual([]);
    // …and a link signed for them (as the API never signs) still finds nothing of this company.
    const foreign = signRecordingLink(
      t.config.secrets.apiToken,
      { companyId: OTHER_COMPANY, callId: call.callId, staffId: zoeId },
      new Date(),
    );
    expectError(await get(foreign), 404, 'no_recording');
    // An agent's link (as the API never signs either) is refused: only admins play recordings.
    const agents = signRecordingLink(
      t.config.secrets.apiToken,
      { companyId: COMPANY, callId: call.callId, staffId: adaId },
      new Date(),
    );
    expectError(await get(agents), 403, 'invalid_link');
  });

  it('is 404 until the merge is done', async () => {
    const pending = await answeredRecordedCall();
    await t.app.db
      .insertInto('call_recordings')
      .values({ call_report_id: pending.reportId, company_id: COMPANY, status: 'pending' })
      .execute();
    expectError(
      await get(`/api/reports/recordings/${encodeURIComponent(pending.callId)}`, bearer(ann)),
      404,
      'no_recording',
    );
  });
});
