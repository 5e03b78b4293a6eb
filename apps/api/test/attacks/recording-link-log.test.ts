import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_ID } from '@frontdesk/protocol';
import { signRecordingLink } from '../../src/recordings/recording-links.ts';
import { buildTestApp, guestWithCall, markAnswered, staffIdOf, type TestApp } from '../helper.ts';

const FILM = Buffer.from('a merged call, as far as this test is concerned');

/**
 * Attack: playing a call's recording with a link read from the API's request log (decision
 * 0020). A `<video>` sends no Authorization header, so a recording link carries its credential,
 * an HMAC signature, in its query; a log that kept whole URLs would hand a playable link to
 * whoever reads the logs, for as long as it lasts.
 */
describe("attack: replaying a recording link from the API's request log", () => {
  const lines: string[] = [];
  let t: TestApp;

  beforeAll(async () => {
    // The log at its most detailed (decision 0033): query values are shown, the signature never.
    t = await buildTestApp(
      { LOG_LEVEL: 'info', LOG_PERSONAL_DATA: 'true' },
      { logStream: { write: (line) => lines.push(line) } },
    );
  });
  afterAll(() => t?.close());

  /** An answered call of the demo company with its merged film ready to play. */
  async function recordedCall(): Promise<string> {
    const { callId } = await guestWithCall(t.app, DEFAULT_COMPANY_ID, 1);
    await markAnswered(t.app, callId);
    const report = await t.app.db
      .selectFrom('call_reports')
      .select('id')
      .where('call_id', '=', callId)
      .executeTakeFirstOrThrow();
    const folder = join(t.config.dataDir, 'recordings');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, `${report.id}.mp4`), FILM);
    await t.app.db
      .insertInto('call_recordings')
      .values({
        call_report_id: report.id,
        company_id: DEFAULT_COMPANY_ID,
        status: 'ready',
        file_name: `${report.id}.mp4`,
        size_bytes: FILM.length,
        duration_ms: 1000,
      })
      .execute();
    return callId;
  }

  it('logs the link with its signature redacted, and the logged link does not play', async () => {
    const callId = await recordedCall();
    const staffId = await staffIdOf(t.app, 'admin@frontdesk.demo');
    const link = signRecordingLink(
      t.config.secrets.apiToken,
      { companyId: DEFAULT_COMPANY_ID, callId, staffId },
      new Date(),
    );
    const signature = new URL(link, 'http://api.test').searchParams.get('signature');
    if (!signature) throw new Error('the link has no signature');

    lines.length = 0;
    const played = await t.app.inject({ method: 'GET', url: link });
    expect(played.statusCode).toBe(200);
    expect(played.rawPayload).toEqual(FILM);

    const logged = lines.map((line) => JSON.parse(line) as { msg: string; req?: { url: string } });
    const incoming = logged.filter((entry) => entry.msg === 'incoming request');
    expect(incoming.map((entry) => entry.req?.url)).toEqual([
      link.replace(`signature=${signature}`, 'signature=[redacted]'),
    ]);
    expect(lines.join('\n')).not.toContain(signature);

    // Whoever reads the log finds a link that the API refuses: no signature is one.
    const replayed = await t.app.inject({ method: 'GET', url: incoming[0]?.req?.url ?? '' });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().error.fields).toHaveProperty('signature');
  });
});
