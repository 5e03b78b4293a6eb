import { SIMULCAST_BITRATES } from '@frontdesk/protocol';
import { step, type Generation, type SessionContext, type StepMode } from './context.ts';
import { MediaError, toMediaError } from './errors.ts';
import type { PluginData, TrackOption } from './janus.ts';
import {
  captureConstraints,
  videoConstraints,
  type CameraChoice,
  type VideoOptions,
} from './tracks.ts';

/**
 * Our own stream: captures the camera and microphone, publishes them into the room, and
 * applies mute, hold and device switches to what we send.
 */
export class LocalPublisher {
  constructor(private readonly ctx: SessionContext) {}

  /** spec §5: a camera call needs audio and video; any capture failure is `disabledCamera`. */
  async capture(): Promise<void> {
    const { ctx } = this;
    try {
      ctx.local = await navigator.mediaDevices.getUserMedia(captureConstraints(ctx.options));
    } catch (raw) {
      const error =
        raw instanceof MediaError
          ? raw
          : new MediaError('disabledCamera', toMediaError(raw).message);
      ctx.stage('localStream', false, error);
      throw error;
    }
    ctx.stage('localStream', true);
    ctx.update({ streamsReady: { ...ctx.state().streamsReady, local: true } });
    ctx.emit('localStream', ctx.local);
  }

  /** Stops our camera and microphone once the call ended. */
  release(): void {
    for (const track of this.ctx.local?.getTracks() ?? []) track.stop();
    this.ctx.local = null;
    this.ctx.emit('localStream', null);
  }

  private publishTracks(): TrackOption[] {
    const video = this.ctx.options.video;
    // dontStop: the tracks are ours and outlive a handle (re-publishing after recovery).
    return (this.ctx.local?.getTracks() ?? []).map((track) => ({
      type: track.kind === 'video' ? 'video' : 'audio',
      capture: track,
      recv: false,
      dontStop: true,
      ...(track.kind === 'video' && video?.simulcast
        ? { simulcast: true, simulcastMaxBitrates: { ...SIMULCAST_BITRATES } }
        : {}),
      ...(track.kind === 'video' && video?.bitrate !== undefined ? { bitrate: video.bitrate } : {}),
      ...(track.kind === 'video' && video?.framerate !== undefined
        ? { framerate: video.framerate }
        : {}),
    }));
  }

  /**
   * spec §7: configure with audio and video, then apply Janus's answer. An ICE restart
   * re-offers the same tracks with fresh ICE credentials.
   */
  async publish(generation: Generation, mode: StepMode | 'iceRestart'): Promise<void> {
    const { publisher } = generation;
    const iceRestart = mode === 'iceRestart';
    const offer = await step(
      this.ctx,
      'createOffer',
      () => publisher.createOffer(iceRestart ? [] : this.publishTracks(), iceRestart),
      iceRestart ? 'recover' : mode,
    );
    // Recording is the server's alone (decision 0008): Janus records the room when the company
    // records calls and names the files itself, so configure never carries a file name.
    const body: PluginData = iceRestart
      ? { request: 'configure' }
      : { request: 'configure', audio: true, video: this.ctx.options.callType === 'video' };
    const { jsep } = await publisher.requestAsync(body, (data) => data.configured === 'ok', offer);
    if (!jsep) throw new MediaError('invalidJsep', 'Invalid JSEP');
    await publisher.handleRemoteJsep(jsep);
    // A re-publish (recovery) must keep the user's mute and hold choices.
    const { local } = this.ctx.state();
    if (local.audioMuted || local.videoMuted || local.onHold) {
      await this.applySending(generation);
    }
  }

  /**
   * Janus stopped receiving our video (the path was lost: a network change) and receives it
   * again: the peer's decoder lost its reference frames and, left to itself, asks for a keyframe
   * only at its next periodic request (Chrome: every 3 s while its picture stands still). Janus
   * asks us for one at once instead (`configure` with `keyframe`), so the peer's picture moves
   * with the first frames through.
   */
  onMediaState(generation: Generation, media: { kind: 'audio' | 'video'; receiving: boolean }) {
    if (media.kind !== 'video') return;
    if (!media.receiving) {
      generation.videoLost = true;
      return;
    }
    if (!generation.videoLost) return;
    generation.videoLost = false;
    // Best effort: the peer's own periodic request still comes if this one is lost.
    void generation.publisher
      .requestAsync({ request: 'configure', keyframe: true }, (data) => data.configured === 'ok')
      .catch(() => undefined);
  }

  async setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    const key = kind === 'audio' ? 'audioMuted' : 'videoMuted';
    this.ctx.update({ local: { ...this.ctx.state().local, [key]: muted } });
    if (this.ctx.generation) await this.applySending(this.ctx.generation);
  }

  async setOnHold(onHold: boolean): Promise<void> {
    this.ctx.update({ local: { ...this.ctx.state().local, onHold } });
    const generation = this.ctx.generation;
    if (!generation) return;
    await this.applySending(generation);
    if (generation.subscriber) {
      const handle = await generation.subscriber;
      await handle.requestAsync({ request: onHold ? 'pause' : 'start' }, (data) =>
        onHold ? data.paused === 'ok' : data.started === 'ok',
      );
    }
  }

  /**
   * Applies mute and hold: the track is disabled (silence/black at once, no renegotiation)
   * and Janus stops relaying the stream, so the peer's track goes muted.
   */
  private async applySending(generation: Generation): Promise<void> {
    const { audioMuted, videoMuted, onHold } = this.ctx.state().local;
    const streams: { mid: string; send: boolean }[] = [];
    for (const transceiver of generation.publisher.pc?.getTransceivers() ?? []) {
      const track = transceiver.sender.track;
      if (!track || !transceiver.mid) continue;
      const send = !onHold && !(track.kind === 'audio' ? audioMuted : videoMuted);
      track.enabled = send;
      streams.push({ mid: transceiver.mid, send });
    }
    await generation.publisher.requestAsync(
      { request: 'configure', streams },
      (data) => data.configured === 'ok',
    );
  }

  async switchCamera(choice: CameraChoice, preset?: VideoOptions['preset']): Promise<void> {
    const constraints = videoConstraints({
      ...this.ctx.options.video,
      camera: choice,
      ...(preset ? { preset } : {}),
    });
    await this.replaceLocal('video', { video: constraints });
  }

  async switchMicrophone(deviceId: string): Promise<void> {
    await this.replaceLocal('audio', { audio: { deviceId: { exact: deviceId } } });
  }

  /** A new capture of one kind replaces ours with replaceTrack: no renegotiation. */
  private async replaceLocal(
    kind: 'audio' | 'video',
    constraints: MediaStreamConstraints,
  ): Promise<void> {
    const { ctx } = this;
    const local = ctx.local;
    if (!local) throw new MediaError('invalidArgument', 'no local media to switch');
    let track: MediaStreamTrack | undefined;
    try {
      track = (await navigator.mediaDevices.getUserMedia(constraints)).getTracks()[0];
    } catch (raw) {
      throw new MediaError('disabledCamera', toMediaError(raw).message);
    }
    if (!track) throw new MediaError('disabledCamera', `no ${kind} track`);
    const old = local.getTracks().find((t) => t.kind === kind);
    const state = ctx.state().local;
    const muted = kind === 'audio' ? state.audioMuted : state.videoMuted;
    track.enabled = !muted && !state.onHold;
    const mid = ctx.generation?.publisher.pc
      ?.getTransceivers()
      .find((t) => t.sender.track === old || t.receiver.track.kind === kind)?.mid;
    if (ctx.generation && mid) {
      await ctx.generation.publisher.replaceTracks([
        { type: kind, mid, capture: track, replace: true, dontStop: true },
      ]);
    }
    if (old) {
      local.removeTrack(old);
      old.stop();
    }
    local.addTrack(track);
    ctx.emit('localStream', local);
  }
}
