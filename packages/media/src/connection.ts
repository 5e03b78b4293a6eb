import { ApiRequestError, JOIN_DELAY_MS, type RoomAccess } from '@frontdesk/protocol';
import {
  isVideoroom,
  step,
  stepPolicy,
  stopTimers,
  type Generation,
  type SessionContext,
  type StepMode,
} from './context.ts';
import { fromApp, MediaError, toMediaError } from './errors.ts';
import type { IceWatch } from './ice.ts';
import { Gateway } from './janus.ts';
import type { LocalPublisher } from './publisher.ts';
import { DEFAULT_RETRY_POLICY, sleep, withRetry } from './retry.ts';
import { onServer } from './server-url.ts';
import type { RemoteFeeds } from './subscribers.ts';

/** The call's room from the app; the API's 409 (the call ended, or was refused) is final. */
function askRoom(ctx: SessionContext): Promise<RoomAccess> {
  return fromApp(async () => {
    try {
      return await ctx.options.room();
    } catch (raw) {
      if (raw instanceof ApiRequestError && raw.status === 409) {
        throw new MediaError('callEnded', raw.message);
      }
      throw raw;
    }
  });
}

/**
 * The connection to Janus, one generation at a time: room, session, publisher handle, join and
 * publish; re-created as a whole when the session is lost; left and torn down at the end.
 */
export class Connection {
  constructor(
    private readonly ctx: SessionContext,
    private readonly publisher: LocalPublisher,
    private readonly feeds: RemoteFeeds,
    private readonly ice: IceWatch,
  ) {}

  /**
   * Session → publisher handle → join → publish: everything that a lost session takes away.
   * spec §9's join delay counts from the start of set-up (`joinAt`; a recovery's attempts share
   * its first one's): the room, the gateway and the handle are made ready while it runs, so only
   * the join itself waits for it.
   */
  async start(mode: StepMode, joinAt = this.joinAt()): Promise<Generation> {
    const { ctx } = this;
    // The gateway needs the room's server and a Janus token: the token is asked for beside the
    // room, and afresh only if the first gateway fails.
    let early: Promise<string> | null = fromApp(ctx.options.token);
    early.catch(() => undefined);
    const token = () => {
      const next = early ?? fromApp(ctx.options.token);
      early = null;
      return next;
    };
    const access = await step(ctx, 'createRoom', () => askRoom(ctx), mode);
    let gateway = await step(ctx, null, () => this.openGateway(access, token()), mode);
    try {
      return await this.enterRoom(
        gateway,
        access,
        mode,
        joinAt,
        () => token(),
        (next) => (gateway = next),
      );
    } catch (error) {
      await gateway.destroy();
      throw error;
    }
  }

  /** When a set-up starting now may join the room (spec §9 join delay). */
  private joinAt(): number {
    return performance.now() + (this.ctx.options.joinDelayMs ?? JOIN_DELAY_MS);
  }

  private async enterRoom(
    first: Gateway,
    access: RoomAccess,
    mode: StepMode,
    joinAt: number,
    token: () => Promise<string>,
    replaced: (gateway: Gateway) => void,
  ): Promise<Generation> {
    const { ctx } = this;
    let gateway = first;
    // spec §8: attach failure marks the session not connected and re-initialises it.
    const publisher = await withRetry(() => gateway.attach(), {
      policy: stepPolicy(ctx, mode),
      signal: ctx.signal,
      beforeRetry: async () => {
        await gateway.destroy();
        gateway = await this.openGateway(access, token());
        replaced(gateway);
      },
    });
    // spec §9: join delay.
    await sleep(Math.max(0, joinAt - performance.now()), ctx.signal);
    const joined = await step(
      ctx,
      'joinRoom',
      async () => {
        const { data } = await publisher.requestAsync(
          {
            request: 'join',
            ptype: 'publisher',
            room: access.room,
            // spec §5: the room join password is sent lowercased.
            pin: access.pin.toLowerCase(),
            // SECURITY: the room admits only the tokens the API listed, one per participant.
            token: access.token,
            display: ctx.options.display,
          },
          (reply) => isVideoroom(reply, 'joined'),
        );
        return data;
      },
      mode,
    );
    const generation: Generation = {
      gateway,
      publisher,
      access,
      privateId: Number(joined.private_id),
      subscriber: null,
      subscribed: new Map(),
      midToFeed: new Map(),
      publishers: new Map(),
      subscriberQueue: Promise.resolve(),
      feedTimer: undefined,
      iceTimers: {},
      iceDown: {},
      videoLost: false,
    };
    gateway.events.on('lost', (error) => void this.recover(generation, error));
    publisher.events.on('message', ({ data }) => {
      if (isVideoroom(data, 'destroyed')) void this.roomDestroyed(generation);
      else this.feeds.onPublisherEvent(generation, data);
    });
    publisher.events.on('ice', (state) => this.ice.onIceState(generation, 'publish', state));
    publisher.events.on('media', (media) => this.publisher.onMediaState(generation, media));
    // Janus hung up our publisher (its ICE or DTLS gave up): only a fresh start brings it back.
    publisher.events.on('webrtc', (up) => {
      if (!up)
        void this.recover(generation, new MediaError('webrtc', 'Janus hung up the publisher'));
    });
    await this.publisher.publish(generation, mode);
    this.feeds.addPublishers(generation, joined.publishers);
    return generation;
  }

  /** Makes a new generation current, unless the call ended while it was being set up. */
  adopt(generation: Generation): void {
    if (this.ctx.signal.aborted) {
      this.teardown(generation);
      throw new MediaError('invalidHandle', 'media session ended during set-up');
    }
    this.ctx.generation = generation;
  }

  /**
   * A Janus session on the room's server, whose peer connections use the ICE servers the room's
   * access carries. The access is the one just asked for: after a recovery it may name another
   * server than the lost session's (decision 0039).
   */
  private async openGateway(access: RoomAccess, token: Promise<string>): Promise<Gateway> {
    const { options } = this.ctx;
    return Gateway.open({
      server: Array.isArray(options.server)
        ? options.server.map((url) => onServer(url, access.server))
        : onServer(options.server, access.server),
      token: await token,
      iceServers: [...access.iceServers],
      debug: options.debug === true,
    });
  }

  /**
   * The Janus session was lost (server restarted, network gone): show `reconnecting`, drop
   * the remote streams so no frozen frame stays on screen, then re-create the session and
   * re-publish into the same room; end the call if that keeps failing.
   */
  private async recover(generation: Generation, error: MediaError): Promise<void> {
    const { ctx } = this;
    if (generation !== ctx.generation || ctx.recovering || ctx.state().status === 'closed') return;
    ctx.recovering = true;
    ctx.generation = null;
    this.teardown(generation);
    ctx.update({ status: 'reconnecting', error: { code: error.code, message: error.message } });
    // One set-up, however many attempts it takes: the join delay counts from its start.
    const joinAt = this.joinAt();
    try {
      this.adopt(
        await withRetry(() => this.start('recover', joinAt), {
          policy: ctx.options.reconnect ?? DEFAULT_RETRY_POLICY,
          signal: ctx.signal,
        }),
      );
      ctx.update({ status: 'connected', error: null, reconnects: ctx.state().reconnects + 1 });
    } catch (raw) {
      const error = toMediaError(raw);
      // The call ended while this side reconnected: ended, as its room's destruction says.
      if (!ctx.signal.aborted)
        ctx.end(error.code === 'callEnded' ? 'roomDestroyed' : 'failed', error);
    } finally {
      ctx.recovering = false;
    }
  }

  /**
   * spec §4: a room destroyed because its call ended ends the session. The API also destroys a
   * call's room on a server it moved the call away from (decision 0039: one taken for lost may
   * be alive, with this participant still in it): asking for the room again tells the two apart
   * — the API refuses an ended call's room — and a moved call is entered again where it now is.
   */
  private async roomDestroyed(generation: Generation): Promise<void> {
    try {
      await askRoom(this.ctx);
    } catch (raw) {
      // Also while the session is still being set up: that set-up has no call to join.
      if (toMediaError(raw).code === 'callEnded') return this.ctx.end('roomDestroyed');
    }
    await this.recover(generation, new MediaError('connectionLost', 'the call room was destroyed'));
  }

  /** Forgets a generation locally; the server side is gone or goes with the session. */
  teardown(generation: Generation): void {
    stopTimers(generation);
    this.feeds.clear();
    generation.publisher.hangup();
    void generation.subscriber?.then((handle) => handle.hangup()).catch(() => undefined);
    void generation.gateway.destroy();
  }

  /** spec §4: ending the call leaves the room, detaches and destroys the session. */
  async leave(generation: Generation): Promise<void> {
    await generation.publisher
      .requestAsync({ request: 'leave' }, (data) => data.leaving === 'ok' || data.left === 'ok')
      .catch(() => undefined);
    await generation.gateway.destroy();
  }
}
