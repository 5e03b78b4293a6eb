import {
  formatPresenceStatus,
  isOpenCall,
  parsePresenceStatus,
  type PresenceStatus,
} from '@frontdesk/protocol';
import { JID, JXT } from 'stanza';
import type { Presence, ReceivedMUCPresence } from 'stanza/protocol';
import type { SessionContext } from './context.ts';
import { ChatError } from './errors.ts';
import type { StateNodes } from './state-nodes.ts';
import type { Occupant, PresenceShow, RoomAuth, RoomSnapshot } from './types.ts';

/** Our presence extension: when the occupant entered the open-call set (see {@link waitingSince}). */
const NS_QUEUE = 'urn:frontdesk:queue:0';

declare module 'stanza/protocol' {
  interface Presence {
    frontdeskQueue?: { since?: Date };
  }
}

/** MUC status codes (XEP-0045) after which the server will not let us back in by itself. */
const REMOVED_FROM_ROOM = new Set(['301', '307', '321', '322']);
/** Join errors that mean "not let in" (spec §8): wrong password, not a member, banned. */
const ROOM_AUTH_ERRORS = new Set(['not-authorized', 'registration-required', 'forbidden']);
/** How long a leave waits for the room's answer. */
const LEAVE_ROOM_TIMEOUT_MS = 3000;
/**
 * How often each joined room is asked whether this user is still in it (XEP-0410 self-ping), and
 * rooms left by the server without a removal are joined again. A room's process lives on one
 * node of an ejabberd cluster: when that node dies, the occupants connected to the other nodes
 * are told nothing (decision 0040).
 */
export const ROOM_CHECK_INTERVAL_MS = 5000;
/**
 * How long a join waits for the room's answer. A join sent to a room whose node froze or died
 * unseen is never answered: it fails, and the room check tries it again. Twice the check's
 * period: when a node's clients all rejoin at once, a slow answer must not be taken for none
 * (each such miss is one more join sent into the storm).
 */
const JOIN_ROOM_TIMEOUT_MS = 2 * ROOM_CHECK_INTERVAL_MS;

/** `request`, or `late()` as its failure once it has gone unanswered for `ms`. */
function answeredWithin<T>(request: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unanswered = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  return Promise.race([request, unanswered]).finally(() => clearTimeout(timer));
}

export interface JoinRoomOptions {
  /** Required (spec §8 'Room nick required'): the user's jabber username, so peers can name it. */
  nick: string;
  /** Sent lowercased (spec §5). */
  password?: string;
  /** The presence to enter with. */
  status?: PresenceStatus;
}

interface RoomEntry {
  jid: string;
  nick: string;
  password: string | undefined;
  status: PresenceStatus | undefined;
  waitingSince: string | undefined;
  /** Rejoin after a reconnect (false once left, kicked or refused). */
  wanted: boolean;
  joined: boolean;
  /** A join is under way. */
  joining: boolean;
  auth: RoomAuth;
  occupants: Map<string, Occupant>;
  leading: { at: number; join: Promise<RoomSnapshot> } | undefined;
}

/**
 * The rooms of a session: joins (throttled, rejoined after a reconnect), leaves, this user's
 * presence in them, and their occupants as their presences show them.
 */
export class Rooms {
  readonly #ctx: SessionContext;
  readonly #stateNodes: StateNodes;
  readonly #joinThrottleMs: number;
  readonly #now: () => number;
  readonly #rooms = new Map<string, RoomEntry>();
  /** The `show` of every room presence (see {@link setAvailability}). */
  #show: PresenceShow | undefined;
  /** The room check while connected (see {@link watch}). */
  #watch: ReturnType<typeof setInterval> | undefined;
  #checking = false;

  constructor(
    ctx: SessionContext,
    stateNodes: StateNodes,
    options: { joinThrottleMs: number; now: () => number },
  ) {
    this.#ctx = ctx;
    this.#stateNodes = stateNodes;
    this.#joinThrottleMs = options.joinThrottleMs;
    this.#now = options.now;
    ctx.client.stanzas.define({
      element: 'queue',
      namespace: NS_QUEUE,
      path: 'presence.frontdeskQueue',
      fields: { since: JXT.dateAttribute('since') },
    });
    ctx.client.on('muc:available', (presence) => this.#onOccupant(presence));
    ctx.client.on('muc:unavailable', (presence) => this.#onOccupantLeft(presence));
  }

  join(room: string, options: JoinRoomOptions): Promise<RoomSnapshot> {
    if (!options.nick) return Promise.reject(new ChatError('nick-required'));
    if (this.#ctx.status() !== 'connected') return Promise.reject(new ChatError('not-connected'));
    const jid = JID.toBare(room);
    const now = Date.now();
    const known = this.#rooms.get(jid);
    if (known?.leading && now - known.leading.at < this.#joinThrottleMs) {
      return known.leading.join;
    }
    const entry: RoomEntry = known ?? {
      jid,
      nick: options.nick,
      password: undefined,
      status: undefined,
      waitingSince: undefined,
      wanted: false,
      joined: false,
      joining: false,
      auth: { status: false, tries: 0 },
      occupants: new Map(),
      leading: undefined,
    };
    entry.nick = options.nick;
    // spec §5: the password is sent lowercased.
    entry.password = options.password?.toLowerCase();
    if (options.status) this.#recordStatus(entry, options.status);
    entry.wanted = true;
    this.#rooms.set(jid, entry);
    const join = this.#join(entry);
    entry.leading = { at: now, join };
    return join;
  }

  async leave(room: string): Promise<void> {
    const entry = this.#rooms.get(JID.toBare(room));
    if (!entry) return;
    entry.wanted = false;
    this.#rooms.delete(entry.jid);
    if (entry.joined && this.#ctx.status() === 'connected') {
      // A room the API removed as the call ended never answers the leave: wait only so long.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answered = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, LEAVE_ROOM_TIMEOUT_MS);
      });
      await this.#ctx.sessionLost
        .until(Promise.race([this.#ctx.client.leaveRoom(entry.jid, entry.nick), answered]))
        .catch((error: unknown) => this.#ctx.log(`leaving ${entry.jid} failed`, error))
        .finally(() => clearTimeout(timer));
    }
    entry.joined = false;
    entry.occupants.clear();
    this.#ctx.emit('room', snapshotOf(entry));
  }

  setPresence(room: string, status: PresenceStatus): void {
    const entry = this.#rooms.get(JID.toBare(room));
    if (!entry) throw new Error(`setPresence: not in room ${room}`);
    this.#recordStatus(entry, status);
    if (entry.joined && this.#ctx.status() === 'connected') {
      this.#sendPresence(entry);
      this.#stateNodes.publish(status);
    }
  }

  setAvailability(show: PresenceShow | undefined): void {
    if (show === this.#show) return;
    this.#show = show;
    if (this.#ctx.status() !== 'connected') return;
    for (const entry of this.#rooms.values()) {
      if (entry.joined) this.#sendPresence(entry);
    }
  }

  snapshot(room: string): RoomSnapshot | undefined {
    const entry = this.#rooms.get(JID.toBare(room));
    return entry && snapshotOf(entry);
  }

  /** After every session start: the rooms still wanted, joined again. */
  async rejoin(): Promise<void> {
    // StanzaJS would rejoin by itself, but without the password and the presence: we do it.
    await Promise.all(
      [...this.#rooms.values()]
        .filter((entry) => entry.wanted && !entry.joined)
        .map((entry) =>
          this.#join(entry).catch((error: unknown) =>
            this.#ctx.log(`rejoining ${entry.jid}`, error),
          ),
        ),
    );
  }

  /**
   * While the session lasts, every {@link ROOM_CHECK_INTERVAL_MS}: each joined room is pinged as
   * its occupant (XEP-0410), and a room the server says this user is not in, or left it without
   * removing it (a node shutting down, status 332), is joined again.
   */
  watch(): void {
    clearInterval(this.#watch);
    this.#watch = setInterval(() => void this.#check(), ROOM_CHECK_INTERVAL_MS);
  }

  async #check(): Promise<void> {
    if (this.#checking || this.#ctx.status() !== 'connected') return;
    this.#checking = true;
    try {
      await Promise.all([...this.#rooms.values()].map((entry) => this.#checkRoom(entry)));
    } finally {
      this.#checking = false;
    }
  }

  async #checkRoom(entry: RoomEntry): Promise<void> {
    if (!entry.wanted || entry.joining) return;
    if (entry.joined) {
      try {
        // Not StanzaJS's 15 s: a room whose node froze holds the answer until that node is seen
        // down, and the next check, sent then, finds the room started again elsewhere.
        await this.#ctx.sessionLost.until(
          answeredWithin(
            this.#ctx.client.ping(JID.createFull(entry.jid, entry.nick)),
            ROOM_CHECK_INTERVAL_MS,
            () => new Error('room check unanswered'),
          ),
        );
        return;
      } catch (error) {
        // XEP-0410: only not-acceptable says "not an occupant"; a timeout or a dropped session
        // says nothing about the room.
        if ((error as Presence).error?.condition !== 'not-acceptable' || !entry.joined) return;
      }
      entry.joined = false;
      entry.occupants.clear();
      this.#ctx.emit('room', snapshotOf(entry));
    }
    await this.#join(entry).catch((error: unknown) =>
      this.#ctx.log(`joining ${entry.jid} again`, error),
    );
  }

  /** The connection dropped: the joined rooms are no longer joined, and say so. */
  dropped(): void {
    clearInterval(this.#watch);
    // Keep StanzaJS from rejoining without password and presence; rejoin() does it.
    this.#ctx.client.joinedRooms.clear();
    this.#ctx.client.joiningRooms.clear();
    for (const entry of this.#rooms.values()) {
      if (!entry.joined) continue;
      entry.joined = false;
      entry.occupants.clear();
      this.#ctx.emit('room', snapshotOf(entry));
    }
  }

  /** The session closed: every room is left, silently. */
  closed(): void {
    clearInterval(this.#watch);
    for (const entry of this.#rooms.values()) {
      entry.joined = false;
      entry.occupants.clear();
    }
  }

  async #join(entry: RoomEntry): Promise<RoomSnapshot> {
    const { client } = this.#ctx;
    if (!client.sessionStarted) throw new ChatError('not-connected');
    entry.joining = true;
    try {
      await this.#ctx.sessionLost.until(
        answeredWithin(
          client.joinRoom(entry.jid, entry.nick, {
            ...this.#roomPresence(entry),
            muc: { type: 'join', password: entry.password },
          }),
          JOIN_ROOM_TIMEOUT_MS,
          () => new ChatError('room-join-failed', 'no answer'),
        ),
      );
    } catch (error) {
      entry.joined = false;
      // Dropped mid-join, or no answer: the next session start or room check tries again.
      if (error instanceof ChatError) throw error;
      entry.wanted = false;
      const condition = (error as Presence).error?.condition;
      if (condition && ROOM_AUTH_ERRORS.has(condition)) {
        entry.auth = { status: false, tries: entry.auth.tries + 1 };
      }
      this.#ctx.emit('room', snapshotOf(entry));
      throw new ChatError(
        condition && ROOM_AUTH_ERRORS.has(condition) ? 'room-auth-failed' : 'room-join-failed',
        condition,
      );
    } finally {
      entry.joining = false;
    }
    entry.joined = true;
    entry.auth = { status: true, tries: entry.auth.tries };
    if (entry.status) this.#stateNodes.publish(entry.status);
    const snapshot = snapshotOf(entry);
    this.#ctx.emit('room', snapshot);
    return snapshot;
  }

  #recordStatus(entry: RoomEntry, status: PresenceStatus): void {
    entry.status = status;
    // The queue is ordered by when each guest began waiting. A guest that steps Away (its
    // page hidden, spec §4) leaves the open-call set but keeps its time, so it returns to
    // its place, not to the back; any other state ends the wait.
    if (isOpenCall(status)) entry.waitingSince ??= new Date(this.#now()).toISOString();
    else if (status.state !== 'Away') entry.waitingSince = undefined;
  }

  #sendPresence(entry: RoomEntry): void {
    this.#ctx.client.sendPresence({
      to: JID.createFull(entry.jid, entry.nick),
      ...this.#roomPresence(entry),
    });
  }

  #roomPresence(entry: RoomEntry): Presence {
    const show = this.#show ? { show: this.#show } : {};
    if (!entry.status) return show;
    return {
      ...show,
      status: formatPresenceStatus(entry.status),
      ...(isOpenCall(entry.status) && entry.waitingSince
        ? { frontdeskQueue: { since: new Date(entry.waitingSince) } }
        : {}),
    };
  }

  #onOccupant(presence: ReceivedMUCPresence): void {
    const entry = this.#rooms.get(JID.toBare(presence.from));
    const nick = JID.getResource(presence.from);
    if (!entry || !nick) return;
    const status = parsePresenceStatus(presence.status);
    entry.occupants.set(nick, {
      nick,
      status,
      waitingSince: isOpenCall(status) ? validTime(presence.frontdeskQueue?.since) : undefined,
      show: presence.show,
      self: presence.muc.statusCodes?.includes('110') ?? false,
    });
    if (entry.joined) this.#ctx.emit('room', snapshotOf(entry));
  }

  #onOccupantLeft(presence: ReceivedMUCPresence): void {
    const entry = this.#rooms.get(JID.toBare(presence.from));
    const nick = JID.getResource(presence.from);
    if (!entry || !nick) return;
    entry.occupants.delete(nick);
    const codes = presence.muc.statusCodes ?? [];
    if (codes.includes('110')) {
      // Our own occupant went: kicked, banned, room closed, or the server shutting down.
      entry.joined = false;
      entry.occupants.clear();
      if (codes.some((code) => REMOVED_FROM_ROOM.has(code)) || presence.muc.destroy) {
        entry.wanted = false;
      }
    }
    this.#ctx.emit('room', snapshotOf(entry));
  }
}

function snapshotOf(entry: RoomEntry): RoomSnapshot {
  return {
    jid: entry.jid,
    nick: entry.nick,
    joined: entry.joined,
    auth: { ...entry.auth },
    occupants: [...entry.occupants.values()].map((occupant) => ({ ...occupant })),
  };
}

function validTime(date: Date | undefined): string | undefined {
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}
