import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { JanusRooms } from '@frontdesk/media/server';
import {
  companySettingsSchema,
  recordingFilename,
  type RecordingRole,
  type RoomAccess,
} from '@frontdesk/protocol';
import { mintJanusToken } from '../auth/service-tokens.ts';
import type { Config } from '../config.ts';
import type { CallReportRow, Database } from '../db/schema.ts';
import { HttpError } from '../plugins/errors.ts';

/** Who enters the room: the name their recording carries (spec §7). */
export type RoomParticipant = { username: string; role: RecordingRole };

/** The API's own Janus sessions make one request each: a minute is plenty. */
const ADMIN_TOKEN_TTL_MS = 60_000;

const randomKey = () => randomBytes(16).toString('hex');

/**
 * Each call's Janus videoroom (docs/protocol.md "Janus room"): created on demand with the
 * videoroom admin key, a pin for the participants and a secret that stays here, and destroyed
 * when the call ends. SECURITY: the admin key and the room secret never leave the API.
 */
export class CallRooms {
  private readonly janus: JanusRooms;
  private readonly recordingsDir: string;

  constructor(
    config: Config,
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.janus = new JanusRooms({
      httpUrl: config.janus.httpUrl,
      adminKey: config.secrets.janusAdminKey,
      token: () =>
        mintJanusToken(config.secrets.janusToken, new Date(Date.now() + ADMIN_TOKEN_TTL_MS)),
    });
    // The folder `npm start` gives Janus for recordings, too (infra data-dir).
    this.recordingsDir = join(config.dataDir, 'recordings');
  }

  /**
   * Creates the call's room unless Janus has it already (idempotent: both participants ask, and
   * a restarted Janus has lost its rooms) and answers how to enter it. 409 for a call that was
   * refused or has ended; 502 when Janus cannot be reached.
   */
  async open(
    call: CallReportRow,
    participant: RoomParticipant,
    options: { webview: boolean },
  ): Promise<RoomAccess> {
    if (call.status !== 'ok') {
      throw new HttpError(409, 'call_refused', `Call ${call.call_id} was not let through.`);
    }
    // The first to ask makes the keys; coalesce keeps them when two ask at once.
    const keys = await this.db
      .updateTable('call_reports')
      .set((eb) => ({
        room_pin: eb.fn.coalesce('room_pin', eb.val(randomKey())),
        room_secret: eb.fn.coalesce('room_secret', eb.val(randomKey())),
      }))
      .where('id', '=', call.id)
      .where('ended_at', 'is', null)
      .returning(['room_pin', 'room_secret'])
      .$narrowType<{ room_pin: string; room_secret: string }>()
      .executeTakeFirst();
    if (!keys) throw new HttpError(409, 'call_ended', `Call ${call.call_id} has ended.`);
    const company = await this.db
      .selectFrom('companies')
      .select('settings')
      .where('id', '=', call.company_id)
      .executeTakeFirstOrThrow();
    const { recordCalls } = companySettingsSchema.parse(company.settings);
    try {
      await this.janus.create({
        room: call.call_id,
        pin: keys.room_pin,
        secret: keys.room_secret,
        description: `Call ${call.call_id}`,
        ...(recordCalls ? { recordingsDir: this.recordingsDir } : {}),
        webview: options.webview,
      });
    } catch (error) {
      this.log.error({ err: error, callId: call.call_id }, 'Janus could not create the call room');
      throw new HttpError(
        502,
        'media_unavailable',
        'The media server could not open the call: try again.',
      );
    }
    return {
      room: call.call_id,
      pin: keys.room_pin,
      recordingFilename: recordCalls
        ? recordingFilename({
            companyId: call.company_id,
            callId: call.call_id,
            ...participant,
            timestamp: Date.now(),
          })
        : null,
    };
  }

  /**
   * Destroys the call's room, which tells whoever is still in it (spec §4 `destroyed`). Best
   * effort: the call has ended either way, and Janus forgets its rooms when it restarts.
   */
  async close(call: CallReportRow): Promise<void> {
    if (!call.room_secret) return;
    try {
      await this.janus.destroy({ room: call.call_id, secret: call.room_secret });
    } catch (error) {
      this.log.warn({ err: error, callId: call.call_id }, 'Janus could not destroy the call room');
    }
  }
}
