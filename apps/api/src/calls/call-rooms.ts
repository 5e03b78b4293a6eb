import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { JanusRooms, type CallRoomOptions } from '@frontdesk/media/server';
import {
  companySettingsSchema,
  recordingRoleSchema,
  roomTokenSchema,
  type RecordingRole,
  type RoomAccess,
  type RoomToken,
} from '@frontdesk/protocol';
import { mintJanusToken } from '../auth/service-tokens.ts';
import type { Config } from '../config.ts';
import { isRecorded } from './call-reports.ts';
import { callIceServers, type IceConfig } from './ice-servers.ts';
import type { CallReportRow, Database } from '../db/schema.ts';
import { ConflictError, UpstreamError } from '../domain-errors.ts';
import type { MediaServer, MediaServerPool } from '../media-servers/media-server-pool.ts';

const mediaUnavailable = () =>
  new UpstreamError('media_unavailable', 'The media server could not open the call: try again.');

/** Who enters the room: the guest who owns the call or the agent who claimed it. */
export type RoomParticipant = { username: string; role: RecordingRole };

/** The API's own Janus sessions make one request each: a minute is plenty. */
const ADMIN_TOKEN_TTL_MS = 60_000;

const randomKey = () => randomBytes(16).toString('hex');

/**
 * A participant's room token (decision 0008): `<role>.` and an HMAC of the call id and role
 * under a key of the API's own. Derived, not stored, so a room re-created after a Janus restart
 * lists the very tokens its participants already hold. SECURITY: one per call and role — a token
 * opens no other call's room, and only the call's guest and its agent are ever handed theirs.
 */
export function roomToken(key: string, callId: string, role: RecordingRole): RoomToken {
  const mac = createHmac('sha256', key)
    .update(`frontdesk room token\n${callId}\n${role}`)
    .digest('base64url');
  return roomTokenSchema.parse(`${role}.${mac}`);
}

/**
 * Each call's Janus videoroom (docs/protocol.md "Janus room"): created on demand with the
 * videoroom admin key, a pin for the participants and a secret that stays here, and destroyed
 * when the call ends. SECURITY: the admin key and the room secret never leave the API.
 */
export class CallRooms {
  /** One Janus client per server address, made at its first use (any server of the registry). */
  private readonly janus = new Map<string, JanusRooms>();
  private readonly janusAdminKey: string;
  private readonly janusToken: string;
  private readonly recordingsDir: string;
  private readonly tokenKey: string;
  private readonly ice: IceConfig;

  constructor(
    config: Config,
    private readonly db: Kysely<Database>,
    private readonly servers: MediaServerPool,
    private readonly log: FastifyBaseLogger,
  ) {
    this.janusAdminKey = config.secrets.janusAdminKey;
    this.janusToken = config.secrets.janusToken;
    // The folder `npm start` gives Janus for recordings, too (infra data-dir). With several
    // Janus servers it is one folder they all share at this very path (decision 0039).
    this.recordingsDir = join(config.dataDir, 'recordings');
    this.ice = config.ice;
    // A key of its own, derived from a secret that never leaves the API.
    this.tokenKey = createHmac('sha256', config.secrets.janusAdminKey)
      .update('frontdesk room tokens')
      .digest('base64url');
  }

  private clientOf(server: MediaServer): JanusRooms {
    let client = this.janus.get(server.httpUrl);
    if (!client) {
      client = new JanusRooms({
        httpUrl: server.httpUrl,
        adminKey: this.janusAdminKey,
        token: () => mintJanusToken(this.janusToken, new Date(Date.now() + ADMIN_TOKEN_TTL_MS)),
      });
      this.janus.set(server.httpUrl, client);
    }
    return client;
  }

  /**
   * Creates the call's room unless Janus has it already (idempotent: both participants ask, and
   * a restarted Janus has lost its rooms) on the call's server — placed at the first open, moved
   * when that server is lost (decision 0039) — and answers how this participant enters it: the
   * server, the pin and its own token. Janus records the room when the company records calls and the guest did not decline. 409 for a call that was
   * refused or has ended, and for a p2p call, which has no room (decision 0045); 502 when Janus
   * cannot be reached.
   */
  async open(
    call: CallReportRow,
    participant: RoomParticipant,
    options: { webview: boolean },
  ): Promise<RoomAccess> {
    if (call.status !== 'ok') {
      throw new ConflictError('call_refused', `Call ${call.call_id} was not let through.`);
    }
    if (call.call_method === 'p2p') {
      throw new ConflictError(
        'p2p_call',
        `Call ${call.call_id} is a p2p call: it has no media-server room (ask for its ICE servers).`,
      );
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
    if (!keys) throw new ConflictError('call_ended', `Call ${call.call_id} has ended.`);
    const company = await this.db
      .selectFrom('companies')
      .select('settings')
      .where('id', '=', call.company_id)
      .executeTakeFirstOrThrow();
    // The guest may have chosen to call unrecorded where the company allows it (decision 0030).
    const recorded = isRecorded(companySettingsSchema.parse(company.settings), call);
    const room: CallRoomOptions = {
      room: call.call_id,
      pin: keys.room_pin,
      secret: keys.room_secret,
      description: `Call ${call.call_id}`,
      // Both participants' tokens, also when Janus lost the room and the other asks first.
      allowed: recordingRoleSchema.options.map((role) =>
        roomToken(this.tokenKey, call.call_id, role),
      ),
      ...(recorded ? { recordingsDir: this.recordingsDir } : {}),
      webview: options.webview,
    };
    let { server, previous } = await this.servers.serverFor(call.id);
    try {
      await this.clientOf(server).create(room);
    } catch (error) {
      this.log.error(
        { err: error, callId: call.call_id, server: server.name },
        'Janus could not create the call room',
      );
      // Lost since its last check: the call moves now rather than at the app's next try.
      if (await this.servers.check(server)) throw mediaUnavailable();
      previous = server;
      server = await this.servers.place(call.id, server.id);
      await this.clientOf(server)
        .create(room)
        .catch((again: unknown) => {
          this.log.error(
            { err: again, callId: call.call_id, server: server.name },
            'Janus could not create the call room',
          );
          throw mediaUnavailable();
        });
    }
    // A server taken for lost may be alive but slow, with the other participant still in the
    // room there (and its recorder writing under the same room id): its `destroyed` starts that
    // participant's recovery, which asks for the room again and follows the move. Not awaited:
    // a slow server must not hold up this participant's way into the new room.
    if (previous && previous.id !== server.id) void this.destroy(call.call_id, keys, previous);
    return {
      room: call.call_id,
      server: server.name,
      pin: keys.room_pin,
      token: roomToken(this.tokenKey, call.call_id, participant.role),
      recorded,
      iceServers: callIceServers(this.ice, call.call_id, participant.role),
    };
  }

  /**
   * How a participant who takes the call up (a claim, a rejoin) enters its media: the room, as
   * {@link open} makes it, or `null` for a p2p call, which has none.
   */
  async accessOf(
    call: CallReportRow,
    participant: RoomParticipant,
    options: { webview: boolean },
  ): Promise<RoomAccess | null> {
    return call.call_method === 'p2p' ? null : this.open(call, participant, options);
  }

  /**
   * Destroys the call's room on its server, which tells whoever is still in it (spec §4 `destroyed`). Best
   * effort: the call has ended either way, and Janus forgets its rooms when it restarts.
   */
  async close(call: CallReportRow): Promise<void> {
    // A p2p call never had a room: nothing of Janus to ask.
    if (call.call_method === 'p2p') return;
    const server = await this.servers.ofCall(call);
    if (!call.room_secret || !server) return;
    await this.destroy(call.call_id, { room_secret: call.room_secret }, server);
  }

  /** Destroys the call's room on one server, best effort: failures are logged, not thrown. */
  private async destroy(
    callId: string,
    keys: { room_secret: string },
    server: MediaServer,
  ): Promise<void> {
    try {
      await this.clientOf(server).destroy({ room: callId, secret: keys.room_secret });
    } catch (error) {
      this.log.warn(
        { err: error, callId, server: server.name },
        'Janus could not destroy the call room',
      );
    }
  }
}
