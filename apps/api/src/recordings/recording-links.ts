import { createHmac, timingSafeEqual } from 'node:crypto';
import { REPORT_FILE_PATHS } from '@frontdesk/protocol';

/**
 * How long a recording link plays. A `<video>` asks again with a range request on every seek,
 * so the link must outlast a viewing, not only its start; the call page asks for a fresh link
 * when it loads.
 */
export const RECORDING_LINK_TTL_MS = 10 * 60 * 1000;

/** What a link is bound to: one call leg of one company, for one admin, until a moment. */
export type RecordingGrant = {
  companyId: number;
  callId: string;
  staffId: number;
  /** Unix seconds. */
  expires: number;
};

/**
 * A key of its own for recording links, derived from the API's token secret so no new secret
 * has to be deployed, and so a link's signature can never pass as anything else's.
 */
const linkKey = (apiTokenSecret: string) =>
  createHmac('sha256', apiTokenSecret).update('frontdesk recording links').digest();

const signatureOf = (apiTokenSecret: string, grant: RecordingGrant) =>
  createHmac('sha256', linkKey(apiTokenSecret))
    .update(`${grant.companyId}\n${grant.callId}\n${grant.staffId}\n${grant.expires}`)
    .digest('base64url');

/**
 * The path (from the site's root, as a `<video src>` wants it) that plays a call leg's film for
 * one admin for {@link RECORDING_LINK_TTL_MS}. SECURITY: a `<video>` sends no Authorization
 * header, so the link itself is the credential: it names the company, the leg and the admin,
 * and an HMAC over them and its expiry; the route still checks the admin is an active admin of
 * that company when it is used.
 */
export function signRecordingLink(
  apiTokenSecret: string,
  grant: Omit<RecordingGrant, 'expires'>,
  now: Date,
): string {
  const expires = Math.floor((now.getTime() + RECORDING_LINK_TTL_MS) / 1000);
  const signature = signatureOf(apiTokenSecret, { ...grant, expires });
  const path = REPORT_FILE_PATHS.recording.replace(':callId', encodeURIComponent(grant.callId));
  const query = new URLSearchParams({
    company: String(grant.companyId),
    admin: String(grant.staffId),
    expires: String(expires),
    signature,
  });
  return `/api${path}?${query}`;
}

/** Whether `signature` is the API's for `grant`; in constant time. */
export function recordingSignatureMatches(
  apiTokenSecret: string,
  grant: RecordingGrant,
  signature: string,
): boolean {
  const expected = Buffer.from(signatureOf(apiTokenSecret, grant));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
