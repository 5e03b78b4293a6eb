// Server side only (the API): creating and destroying a call's videoroom over Janus's HTTP API.
// SECURITY: the videoroom admin_key and each room's secret live here and never reach a browser.
import { ROOM_PUBLISHERS } from '@frontdesk/protocol';
import { JanusError, VIDEOROOM_PLUGIN, withPluginHandle } from './janus-http.ts';

export interface JanusAdminOptions {
  /** Janus REST endpoint, e.g. `http://127.0.0.1:8088/janus` (loopback, never a browser URL). */
  readonly httpUrl: string;
  /** Videoroom `admin_key`: required to create rooms. */
  readonly adminKey: string;
  /** A Janus token for the videoroom plugin (token_auth), minted per use. */
  readonly token: () => string;
  /** Per-request deadline. Default 5000 ms. */
  readonly timeoutMs?: number;
}

export interface CallRoomOptions {
  /** String room id (the videoroom runs with string_ids). */
  readonly room: string;
  /** Join password handed to the call's participants; spec §5: sent lowercased. */
  readonly pin: string;
  /** Needed to edit, kick or destroy; stays in the API. */
  readonly secret: string;
  readonly description?: string;
  /**
   * SECURITY: the only tokens a publisher `join` is admitted with (the room's `allowed` ACL):
   * one per participant of the call, made by the API (decision 0008).
   */
  readonly allowed: readonly string[];
  /**
   * When set, Janus records every publisher of the room into this folder (`record`, `rec_dir`)
   * and names the files itself; without it nothing is recorded. Either way `lock_record` keeps
   * recording the room secret's business.
   */
  readonly recordingsDir?: string;
  /** spec §7: H.264 profile 42e01f when the page was opened with `webview=true`. */
  readonly webview?: boolean;
}

const ROOM_EXISTS = 427;
const NO_SUCH_ROOM = 426;

/** Creates, checks and destroys call rooms; one short Janus session per operation. */
export class JanusRooms {
  constructor(private readonly options: JanusAdminOptions) {}

  /**
   * Creates the call's room (spec §7 create: publishers 10, pin, secret; private, and
   * subscribers must prove a publisher handle with `require_pvtid`). Idempotent: an existing
   * room counts as created, so every participant's "give me the room" may call it, also after
   * a Janus restart lost the rooms.
   */
  async create(room: CallRoomOptions): Promise<{ room: string; created: boolean }> {
    const body: Record<string, unknown> = {
      request: 'create',
      admin_key: this.options.adminKey,
      room: room.room,
      description: room.description ?? room.room,
      pin: room.pin.toLowerCase(),
      secret: room.secret,
      publishers: ROOM_PUBLISHERS,
      is_private: true,
      require_pvtid: true,
      // SECURITY: the pin is shared by the call; only a token of the ACL admits a publisher, and a
      // subscriber needs a publisher's private id (require_pvtid).
      allowed: [...room.allowed],
      // SECURITY: recording is decided here, at creation, and changed only with the secret.
      lock_record: true,
      record: room.recordingsDir !== undefined,
    };
    if (room.recordingsDir) body.rec_dir = room.recordingsDir;
    if (room.webview) {
      body.videocodec = 'h264';
      body.h264_profile = '42e01f';
    }
    try {
      await this.videoroom(body);
      return { room: room.room, created: true };
    } catch (error) {
      if (error instanceof JanusError && error.code === ROOM_EXISTS) {
        return { room: room.room, created: false };
      }
      throw error;
    }
  }

  /**
   * Adds tokens to an existing room's ACL (`allowed` add, with the secret): a room made before
   * a participant's token was known, or by an older version, admits it from now on.
   */
  async allow(room: { room: string; secret: string }, tokens: readonly string[]): Promise<void> {
    await this.videoroom({
      request: 'allowed',
      room: room.room,
      secret: room.secret,
      action: 'add',
      allowed: [...tokens],
    });
  }

  async exists(room: string): Promise<boolean> {
    const data = await this.videoroom({ request: 'exists', room });
    return data.exists === true;
  }

  /** Destroys the room (participants get `destroyed`, spec §4); a missing room is fine. */
  async destroy(room: { room: string; secret: string }): Promise<void> {
    try {
      await this.videoroom({ request: 'destroy', room: room.room, secret: room.secret });
    } catch (error) {
      if (!(error instanceof JanusError && error.code === NO_SUCH_ROOM)) throw error;
    }
  }

  /** One synchronous videoroom request through a throw-away session. */
  private async videoroom(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const session = {
      httpUrl: this.options.httpUrl,
      token: this.options.token(),
      timeoutMs: this.options.timeoutMs ?? 5000,
    };
    const reply = await withPluginHandle(session, VIDEOROOM_PLUGIN, (handle) =>
      handle.message(body),
    );
    return reply.data;
  }
}
