import {
  REMOTE_FEED_BASE_DELAY_MS,
  REMOTE_FEED_DELAY_PER_PUBLISHER_MS,
  type RemoteFeed,
} from '@frontdesk/protocol';
import { isVideoroom, step, type Generation, type SessionContext } from './context.ts';
import { chooseFeeds, parsePublishers, wantedStreams } from './feeds.ts';
import type { IceWatch } from './ice.ts';
import { browserSupport, type Jsep, type PluginData, type VideoroomHandle } from './janus.ts';

/**
 * Asks Janus for a keyframe of every video we receive, once our path to it is back after a loss
 * (a network change): the decoder lost its reference frames and, left to itself, Chrome asks
 * again only every 3 s while the picture stands still. A subscriber's `configure` that sends a
 * stream makes Janus request a keyframe from its publisher (Janus 1.1 "Restoring video for
 * subscriber"); the streams were being sent already, so nothing else changes. Best effort: the
 * browser's own periodic request still comes if this one is lost.
 */
export function requestKeyframes(generation: Generation): void {
  void generation.subscriber
    ?.then((handle) => {
      const streams = (handle.pc?.getTransceivers() ?? [])
        .filter((t) => t.mid !== null && t.receiver.track.kind === 'video')
        .map((t) => ({ mid: String(t.mid), send: true }));
      if (streams.length === 0) return;
      return handle.requestAsync(
        { request: 'configure', streams },
        (data) => isVideoroom(data, 'event') || isVideoroom(data, 'updated'),
      );
    })
    .catch(() => undefined);
}

/**
 * The other participants: follows the room's publishers, subscribes to the feeds we want on
 * one subscriber handle, and turns their tracks into remote streams and the plain feed list.
 */
export class RemoteFeeds {
  private readonly remote = new Map<string, MediaStream>();
  /** Remote track → its subscriber mid; tracks listed here have our mute listeners. */
  private readonly trackMids = new WeakMap<MediaStreamTrack, string>();
  /** Subscriber mids whose packet count stood still over the last quality sample. */
  private stalledMids = new Set<string>();
  /** Remote video tracks the browser muted (no packets came) since they last had media. */
  private readonly silentVideo = new WeakSet<MediaStreamTrack>();

  constructor(
    private readonly ctx: SessionContext,
    private readonly ice: IceWatch,
  ) {}

  stream(janusId: string): MediaStream | undefined {
    return this.remote.get(janusId);
  }

  onPublisherEvent(generation: Generation, data: PluginData): void {
    if (!isVideoroom(data, 'event')) return;
    if (data.leaving === 'ok' && data.reason === 'kicked') {
      this.ctx.end('kicked');
      return;
    }
    if (data.publishers !== undefined) this.addPublishers(generation, data.publishers);
    // spec §4: a publisher leaving or unpublishing removes its stream.
    const gone = data.leaving ?? data.unpublished;
    if (typeof gone === 'string' && gone !== 'ok' && generation.publishers.delete(gone)) {
      this.scheduleFeedSync(generation, 0);
    }
  }

  addPublishers(generation: Generation, raw: unknown): void {
    const added = parsePublishers(raw);
    if (added.length === 0) return;
    for (const publisher of added) generation.publishers.set(publisher.id, publisher);
    // spec §9: remote feed set-up waits 200 ms plus 200 ms per publisher.
    const delay = this.ctx.options.feedDelayMs ?? {
      base: REMOTE_FEED_BASE_DELAY_MS,
      perPublisher: REMOTE_FEED_DELAY_PER_PUBLISHER_MS,
    };
    this.scheduleFeedSync(generation, delay.base + delay.perPublisher * generation.publishers.size);
  }

  private scheduleFeedSync(generation: Generation, delayMs: number): void {
    clearTimeout(generation.feedTimer);
    generation.feedTimer = setTimeout(() => {
      generation.subscriberQueue = generation.subscriberQueue
        .then(() => this.syncFeeds(generation))
        .catch((error: unknown) => this.ctx.fail(error));
    }, delayMs);
  }

  /** Subscribes to the feeds we want and drops the ones that left (spec §5 rules in feeds.ts). */
  private async syncFeeds(generation: Generation): Promise<void> {
    if (generation !== this.ctx.generation) return;
    const support = browserSupport();
    const live = new Set(
      [...this.remote].filter(([, s]) => s.getTracks().length > 0).map(([id]) => id),
    );
    const wanted = new Map(
      chooseFeeds(generation.publishers.values(), this.ctx.options.display, live).map(
        (publisher) => [publisher.id, publisher],
      ),
    );
    for (const feed of [...generation.subscribed.keys()]) {
      if (wanted.has(feed)) continue;
      generation.subscribed.delete(feed);
      this.dropRemote(feed);
      // A feed that left the room is already gone from the subscription; one we replaced is not.
      if (generation.publishers.has(feed) && generation.subscriber) {
        const handle = await generation.subscriber;
        await handle.requestAsync(
          { request: 'unsubscribe', streams: [{ feed }] },
          (data) => isVideoroom(data, 'updated') || isVideoroom(data, 'event'),
        );
      }
    }
    const streams = [...wanted.values()]
      .filter((publisher) => !generation.subscribed.has(publisher.id))
      .flatMap((publisher) => {
        const mids = wantedStreams(publisher, support).map((stream) => stream.mid);
        if (mids.length > 0) generation.subscribed.set(publisher.id, new Set(mids));
        return mids.map((mid) => ({ feed: publisher.id, mid }));
      });
    this.publishFeedList(generation);
    if (streams.length === 0) return;
    if (generation.subscriber) {
      const handle = await generation.subscriber;
      await step(this.ctx, null, () =>
        handle.requestAsync({ request: 'subscribe', streams }, (data) =>
          isVideoroom(data, 'updated'),
        ),
      );
      return;
    }
    generation.subscriber = this.startSubscriber(generation, streams);
    await generation.subscriber;
  }

  /** spec §7: join as subscriber with the streams (feed, mid) and our publisher's private_id. */
  private async startSubscriber(
    generation: Generation,
    streams: { feed: string; mid: string }[],
  ): Promise<VideoroomHandle> {
    const handle = await step(this.ctx, null, () => generation.gateway.attach());
    handle.events.on('remoteTrack', (event) => this.onRemoteTrack(generation, event));
    handle.events.on('ice', (state) => this.ice.onIceState(generation, 'subscribe', state));
    handle.events.on('message', ({ data, jsep }) => {
      this.mapStreams(generation, data.streams);
      if (jsep?.type === 'offer') {
        generation.subscriberQueue = generation.subscriberQueue
          .then(() => this.answer(handle, jsep))
          .catch((error: unknown) => this.ctx.fail(error));
      }
    });
    await step(this.ctx, null, () =>
      handle.requestAsync(
        {
          request: 'join',
          ptype: 'subscriber',
          room: generation.access.room,
          pin: generation.access.pin.toLowerCase(),
          private_id: generation.privateId,
          streams,
        },
        (data) => isVideoroom(data, 'attached'),
      ),
    );
    return handle;
  }

  /**
   * Answers a subscriber offer (first, renegotiation or ICE restart) and starts the media — held
   * again at once while this side holds the call (a console reloaded mid-hold, decision 0027):
   * on hold, nothing of the peer is relayed to us, as `setOnHold` asked.
   */
  private async answer(handle: VideoroomHandle, offer: Jsep): Promise<void> {
    // Receive only: the answer adds no tracks of ours.
    const answer = await step(this.ctx, 'createAnswer', () => handle.createAnswer(offer, []));
    await handle.requestAsync({ request: 'start' }, (data) => data.started === 'ok', answer);
    if (this.ctx.state().local.onHold) {
      await handle.requestAsync({ request: 'pause' }, (data) => data.paused === 'ok');
    }
  }

  private mapStreams(generation: Generation, raw: unknown): void {
    if (!Array.isArray(raw)) return;
    for (const stream of raw as PluginData[]) {
      if (typeof stream.mid === 'string' && typeof stream.feed_id === 'string') {
        generation.midToFeed.set(stream.mid, stream.feed_id);
      }
    }
  }

  private onRemoteTrack(
    generation: Generation,
    event: { track: MediaStreamTrack; mid: string; on: boolean },
  ): void {
    const feed = generation.midToFeed.get(event.mid);
    if (!feed || generation !== this.ctx.generation) return;
    let stream = this.remote.get(feed);
    if (event.on) {
      if (!stream) {
        stream = new MediaStream();
        this.remote.set(feed, stream);
      }
      if (!stream.getTracks().includes(event.track)) stream.addTrack(event.track);
      if (!this.trackMids.has(event.track)) {
        // Mute state for the UI as soon as the browser sees it, before janus.js removes the
        // track (its own `onmute` handler, which we leave alone).
        this.trackMids.set(event.track, event.mid);
        const { track, mid } = event;
        track.addEventListener('mute', () => {
          if (track.kind === 'video') this.silentVideo.add(track);
          this.publishFeedList(generation);
        });
        track.addEventListener('unmute', () => {
          this.noteFirstMedia(track);
          // Packets again: the stream is live now, not only from the next quality sample on.
          this.stalledMids.delete(mid);
          if (this.silentVideo.delete(track)) requestKeyframes(generation);
          this.publishFeedList(generation);
        });
      }
      this.noteFirstMedia(event.track);
      if (this.ctx.state().stages.remoteStream !== true) this.ctx.stage('remoteStream', true);
    } else if (stream) {
      // spec §9: janus.js reports a track gone after REMOTE_TRACK_MUTED_REMOVAL_MS muted, or ended.
      stream.removeTrack(event.track);
    }
    this.publishFeedList(generation);
    const publisher = generation.publishers.get(feed);
    this.ctx.emit('remoteStream', {
      janusId: feed,
      display: publisher?.display ?? feed,
      stream: stream && stream.getTracks().length > 0 ? stream : null,
    });
  }

  private dropRemote(feed: string): void {
    const stream = this.remote.get(feed);
    if (!stream) return;
    this.remote.delete(feed);
    const display = this.ctx.state().feeds.find((f) => f.janusId === feed)?.display ?? feed;
    this.ctx.emit('remoteStream', { janusId: feed, display, stream: null });
  }

  /**
   * The peer's first frame (its first sound in a voice call) ends the call's set-up, for the
   * quality report: a remote track unmutes when its first packets arrive.
   */
  private noteFirstMedia(track: MediaStreamTrack): void {
    const kind = this.ctx.options.callType === 'video' ? 'video' : 'audio';
    if (track.kind === kind && !track.muted)
      this.ctx.marks.firstRemoteMediaAt ??= performance.now();
  }

  /** Drops every remote stream and feed: the generation they came from is gone. */
  clear(): void {
    for (const feed of [...this.remote.keys()]) this.dropRemote(feed);
    this.ctx.update({
      feeds: [],
      streamsReady: { ...this.ctx.state().streamsReady, remote: false },
      peerCall: 'Paused',
      peerVideo: 'Paused',
    });
  }

  /** From the quality samples: the mids with no new packets; their streams read muted. */
  setStalled(stalled: Set<string>): void {
    const changed =
      stalled.size !== this.stalledMids.size ||
      [...stalled].some((mid) => !this.stalledMids.has(mid));
    this.stalledMids = stalled;
    if (changed && this.ctx.generation) this.publishFeedList(this.ctx.generation);
  }

  /** Recomputes the plain feed list and the call status of spec §3 from the live tracks. */
  private publishFeedList(generation: Generation): void {
    if (generation !== this.ctx.generation) return;
    const feeds: RemoteFeed[] = [...generation.subscribed.keys()].flatMap((id) => {
      const publisher = generation.publishers.get(id);
      if (!publisher) return [];
      const tracks = this.remote.get(id)?.getTracks() ?? [];
      // Chrome does not mute a remote audio track whose packets stopped, so a stream counts
      // as muted when either the browser or our packet counters say so.
      const flowing = (kind: string) =>
        tracks.some(
          (t) => t.kind === kind && !t.muted && !this.stalledMids.has(this.trackMids.get(t) ?? ''),
        );
      return [
        {
          janusId: id,
          display: publisher.display,
          onlyAudio: !publisher.streams.some((s) => s.type === 'video' && !s.disabled),
          audioMuted: !flowing('audio'),
          videoMuted: !flowing('video'),
        },
      ];
    });
    const remoteMedia = feeds.some((f) => !f.audioMuted || !f.videoMuted);
    // spec §4: Resumed from the first remote media while the peer stays in the room (a
    // muted peer is still in the call); Paused when it left or unpublished.
    const resumed = feeds.length > 0 && (remoteMedia || this.ctx.state().peerCall === 'Resumed');
    this.ctx.update({
      feeds,
      streamsReady: { ...this.ctx.state().streamsReady, remote: remoteMedia },
      peerCall: resumed ? 'Resumed' : 'Paused',
      peerVideo: feeds.some((f) => !f.videoMuted) ? 'Resumed' : 'Paused',
    });
  }
}
