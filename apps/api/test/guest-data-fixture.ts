import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { envelope, uploadedFileSchema } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { fromBuffer, type ZipFile } from 'yauzl';
import { bearer, guestWithCall, loginStaff, markAnswered, multipart, staffIdOf } from './helper.ts';
import type { TestApp } from './helper.ts';
import { backdate } from './report-fixture.ts';

export const COMPANY = SEEDED_COMPANY.demo;

/**
 * A PDF sent through `POST /upload/document` by `token`'s holder (in `callId`, an agent's call);
 * answers the upload's id.
 */
export async function sendDocument(
  t: TestApp,
  token: string,
  name: string,
  content: Uint8Array,
  callId?: string,
): Promise<string> {
  const { payload, contentType } = multipart([
    { name: 'companyId', value: String(COMPANY) },
    ...(callId === undefined ? [] : [{ name: 'callId', value: callId }]),
    { name: 'document', filename: name, type: 'application/pdf', content },
  ]);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/upload/document',
    payload,
    headers: { 'content-type': contentType, ...bearer(token) },
  });
  if (uploaded.statusCode !== 201) throw new Error(`upload: ${uploaded.body}`);
  const upload = envelope(uploadedFileSchema).parse(uploaded.json()).data;
  return upload.fileUrl.split('/').at(-1) ?? '';
}

/** The entries of a ZIP, by name, with their bytes; a broken archive rejects. */
export async function unzip(archive: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(archive, { lazyEntries: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: { fileName: string }) => {
      zip.openReadStream(entry as never, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** What a seeded guest left, in every table and folder a guest can reach (decision 0032). */
export type SeededGuest = Awaited<ReturnType<typeof seedGuestEverywhere>>;

/**
 * A guest of the demo company with something in every table and folder that can hold a guest's
 * data: registration and location, two call legs (the second a hold of the first) answered by
 * Ada with SDPs, user agent, notes and a star rating, a hold event, a quality report, a ready
 * recording with its Janus parts, welcome and rating answers naming `email`, an uploaded file
 * and one Ada sent in the call,
 * a bug report with its browser log, a block by call (and its audit entry), an error report on
 * disk. Everything the guest said carries `marker` (its SDPs `address`), so a search for it
 * finds what is left.
 */
export async function seedGuestEverywhere(
  t: TestApp,
  admin: string,
  marker: string,
  address: string,
) {
  const { app, config } = t;
  const { db } = app;
  const category = await db
    .selectFrom('categories')
    .select('id')
    .where('company_id', '=', COMPANY)
    .orderBy('position')
    .executeTakeFirstOrThrow();
  const call = await guestWithCall(app, COMPANY, category.id);
  await markAnswered(app, call.callId);
  const guest = await db
    .selectFrom('guests')
    .selectAll()
    .where('username', '=', call.username)
    .executeTakeFirstOrThrow();
  const email = `${marker}@example.com`;
  const userAgent = `Mozilla/5.0 (${marker})`;

  const document = new TextEncoder().encode(`%PDF-1.7\n% ${marker}\n%%EOF\n`);
  const uploadId = await sendDocument(t, call.token, `${marker}.pdf`, document);
  // The agent's file in the call (migration 0033): the guest's to export and erase too.
  const agentDocument = new TextEncoder().encode(`%PDF-1.7\n% for ${marker}\n%%EOF\n`);
  const agentUploadId = await sendDocument(
    t,
    await loginStaff(app, 'ada@frontdesk.demo'),
    `price list for ${marker}.pdf`,
    agentDocument,
    call.callId,
  );

  const first = await db
    .selectFrom('call_reports')
    .selectAll()
    .where('call_id', '=', call.callId)
    .executeTakeFirstOrThrow();
  const agentId = await staffIdOf(app, 'ada@frontdesk.demo');
  const ended = new Date();
  const legCallId = `${call.username}--leg${randomBytes(4).toString('hex')}`;
  const leg = await db
    .insertInto('call_reports')
    .values({
      company_id: COMPANY,
      guest_id: guest.id,
      call_id: legCallId,
      origin_call_id: call.callId,
      previous_call_id: call.callId,
      category_id: category.id,
      source: 'site',
      status: 'ok',
      call_type: 'video',
      agent_id: agentId,
      answered_at: new Date(ended.getTime() - 60_000),
      ended_at: ended,
      end_reason: 'completed',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The leg began before it was answered (the company's average wait counts it).
  await backdate(db, 'call_reports', leg.id, new Date(ended.getTime() - 120_000));
  await db
    .updateTable('call_reports')
    .set({
      call_type: 'video',
      rating: 4,
      ended_at: ended,
      end_reason: 'completed',
      guest_local_sdp: `v=0\r\no=${marker} 1 1 IN IP4 ${address}\r\n`,
      guest_remote_sdp: `v=0\r\nc=IN IP4 ${address} ${marker}\r\n`,
      guest_user_agent: userAgent,
      notes: `${marker} asked about an order`,
      follow_up: true,
      follow_up_note: `ring ${marker} back`,
    })
    .where('id', '=', first.id)
    .execute();
  await db
    .insertInto('call_events')
    .values({ company_id: COMPANY, call_report_id: first.id, kind: 'held', staff_id: agentId })
    .execute();
  await db
    .insertInto('call_quality')
    .values({
      company_id: COMPANY,
      call_report_id: first.id,
      role: 'guest',
      setup_ms: 900,
      round_trip_ms: 40,
      local_candidate_type: 'host',
      remote_candidate_type: 'host',
    })
    .execute();

  const recordings = join(config.dataDir, 'recordings');
  await mkdir(recordings, { recursive: true });
  const film = `${call.callId}-${marker}.mp4`;
  const part = `videoroom-${call.callId}-user-guest-${randomBytes(16).toString('hex')}-1700000000-audio-0.mjr`;
  await writeFile(join(recordings, film), `film of ${marker}`);
  await writeFile(join(recordings, part), `voice of ${marker}`);
  await db
    .insertInto('call_recordings')
    .values({
      company_id: COMPANY,
      call_report_id: first.id,
      status: 'ready',
      file_name: film,
      size_bytes: 20,
      duration_ms: 1000,
    })
    .execute();

  const forms = await db
    .selectFrom('forms')
    .select(['id', 'kind'])
    .where('company_id', '=', COMPANY)
    .where('retired_at', 'is', null)
    .execute();
  const formOf = (kind: string) => forms.find((form) => form.kind === kind)?.id ?? 0;
  const welcome = await db
    .insertInto('form_submissions')
    .values({
      company_id: COMPANY,
      guest_id: guest.id,
      form_id: formOf('welcome'),
      service_type: 'Talk',
      answers: JSON.stringify({ name: `Ann ${marker}`, email }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rating = await db
    .insertInto('rating_submissions')
    .values({
      call_report_id: first.id,
      form_id: formOf('rating'),
      guest_id: guest.id,
      answers: JSON.stringify({ comment: `${marker} was pleased` }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const bug = await db
    .insertInto('call_bugs')
    .values({
      company_id: COMPANY,
      guest_id: guest.id,
      call_id: call.callId,
      call_report_id: first.id,
      guest_log: JSON.stringify([`${marker} could not hear`]),
      guest_state: JSON.stringify({ user: call.username }),
      guest_client_info: JSON.stringify({ userAgent }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const blocked = await app.inject({
    method: 'POST',
    url: `/api/company/${COMPANY}/blocks`,
    headers: bearer(admin),
    body: { callId: call.callId, reason: 'abusive' },
  });
  if (blocked.statusCode !== 201) throw new Error(`block: ${blocked.body}`);

  const monitoring = join(config.dataDir, 'monitoring', ended.toISOString().slice(0, 10));
  await mkdir(monitoring, { recursive: true });
  await writeFile(
    join(monitoring, `${randomBytes(4).toString('hex')}.envelope`),
    `{"event_id":"1"}\n{"type":"event"}\n{"tags":{"callId":"${call.callId}"}}\n`,
  );

  return {
    guest,
    call,
    legCallId,
    callReportIds: [first.id, leg.id],
    email,
    address,
    userAgent,
    uploadId,
    document,
    agentUploadId,
    agentDocument,
    film,
    part,
    welcomeId: welcome.id,
    ratingId: rating.id,
    bugId: bug.id,
  };
}
