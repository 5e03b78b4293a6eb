import type { RemoteFeed } from '@frontdesk/protocol';
import type { CallMarks } from '../quality-report.ts';
import type { MediaSessionEvents, MediaState } from '../types.ts';
import type { PeerLink } from './link.ts';
import { P2P_FEED_ID } from './types.ts';

/** What the peer's feed reports to its session. */
export interface FeedHost {
  readonly callType: 'video' | 'voice';
  readonly marks: CallMarks;
  state(): MediaState;
  update(patch: Partial<MediaState>): void;
  stage(stage: 'remoteStream', ok: boolean): void;
  emit<K extends keyof MediaSessionEvents>(event: K, payload: MediaSessionEvents[K]): void;
  peer(): string | null;
}

/**
 * The peer's feed: its tracks on the current link as one remote stream, and the plain feed
 * list and spec §3 call status from whether their media flows.
 */
export class PeerFeed {
  private link: PeerLink | null = null;
  /** Receiving mids whose packet count stood still over the last quality sample. */
  private stalled = new Set<string>();
  /** The tracks whose mute, unmute and end we follow (a track comes back on a restored link). */
  private readonly followed = new WeakSet<MediaStreamTrack>();

  constructor(private readonly host: FeedHost) {}

  stream(): MediaStream | undefined {
    return this.link && this.link.stream.getTracks().length > 0 ? this.link.stream : undefined;
  }

  /** A track of the peer arrived on a link (the current one, or one that replaces it). */
  addTrack(link: PeerLink, track: MediaStreamTrack): void {
    if (!this.followed.has(track)) {
      this.followed.add(track);
      const refresh = () => {
        if (this.link !== link) return;
        this.noteFirstMedia(track);
        this.publish();
      };
      track.addEventListener('mute', refresh);
      track.addEventListener('unmute', refresh);
      track.addEventListener('ended', refresh);
    }
    this.noteFirstMedia(track);
    this.show(link);
  }

  /**
   * The link's path is back after ICE failed (which cleared the feed): its tracks are the same,
   * and an ICE restart that changes no direction brings no new `track` event, so the feed is
   * shown again from what the link already has.
   */
  restore(link: PeerLink): void {
    if (this.link === null && link.stream.getTracks().length > 0) this.show(link);
  }

  private show(link: PeerLink): void {
    this.link = link;
    if (this.host.state().stages.remoteStream !== true) this.host.stage('remoteStream', true);
    this.host.emit('remoteStream', {
      janusId: P2P_FEED_ID,
      display: this.host.peer() ?? P2P_FEED_ID,
      stream: link.stream,
    });
    this.publish();
  }

  /** The peer's link is gone (bye, failed ICE, a new link): no feed until its media is back. */
  clear(): void {
    const had = this.link !== null;
    this.link = null;
    this.stalled = new Set();
    if (had) {
      this.host.emit('remoteStream', {
        janusId: P2P_FEED_ID,
        display: this.host.peer() ?? P2P_FEED_ID,
        stream: null,
      });
    }
    this.host.update({
      feeds: [],
      streamsReady: { ...this.host.state().streamsReady, remote: false },
      peerCall: 'Paused',
      peerVideo: 'Paused',
    });
  }

  setStalled(stalled: Set<string>): void {
    const changed =
      stalled.size !== this.stalled.size || [...stalled].some((mid) => !this.stalled.has(mid));
    this.stalled = stalled;
    if (changed) this.publish();
  }

  /**
   * The peer's first frame (its first sound in a voice call) ends the call's set-up, for the
   * quality report: a remote track unmutes when its first packets arrive.
   */
  private noteFirstMedia(track: MediaStreamTrack): void {
    const kind = this.host.callType === 'video' ? 'video' : 'audio';
    if (track.kind === kind && !track.muted)
      this.host.marks.firstRemoteMediaAt ??= performance.now();
  }

  private publish(): void {
    const link = this.link;
    if (!link) return;
    const mids = new Map(
      link.pc.getTransceivers().map((t) => [t.receiver.track, t.mid ?? ''] as const),
    );
    const tracks = link.stream.getTracks().filter((t) => t.readyState === 'live');
    // Chrome does not mute a remote audio track whose packets stopped (a hold): the packet
    // counters say so too.
    const flowing = (kind: string) =>
      tracks.some((t) => t.kind === kind && !t.muted && !this.stalled.has(mids.get(t) ?? ''));
    const feed: RemoteFeed = {
      janusId: P2P_FEED_ID,
      display: this.host.peer() ?? P2P_FEED_ID,
      onlyAudio: !tracks.some((t) => t.kind === 'video'),
      audioMuted: !flowing('audio'),
      videoMuted: !flowing('video'),
    };
    const remoteMedia = !feed.audioMuted || !feed.videoMuted;
    // spec §4: Resumed from the first remote media while the peer stays (a held or muted peer
    // is still in the call); Paused when it left.
    const resumed = remoteMedia || this.host.state().peerCall === 'Resumed';
    this.host.update({
      feeds: [feed],
      streamsReady: { ...this.host.state().streamsReady, remote: remoteMedia },
      peerCall: resumed ? 'Resumed' : 'Paused',
      peerVideo: feed.videoMuted ? 'Paused' : 'Resumed',
    });
  }
}
