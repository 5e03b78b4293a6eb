import { SIMULCAST_BITRATES } from '@frontdesk/protocol';
import { step, type Generation, type SessionContext, type StepMode } from './context.ts';
import { MediaError } from './errors.ts';
import type { PluginData, TrackOption } from './janus.ts';
import { cameraConstraints, microphoneConstraints, replaceLocalTrack } from './local-media.ts';
import type { CameraChoice, VideoOptions } from './tracks.ts';

/**
 * Our own stream in the room: publishes the captured camera and microphone (local-media.ts)
 * and applies mute, hold and device switches to what we send.
 */
export class LocalPublisher {
  constructor(private readonly ctx: SessionContext) {}

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
    await this.replaceLocal('video', cameraConstraints(this.ctx, choice, preset));
  }

  async switchMicrophone(deviceId: string): Promise<void> {
    await this.replaceLocal('audio', microphoneConstraints(deviceId));
  }

  private async replaceLocal(
    kind: 'audio' | 'video',
    constraints: MediaStreamConstraints,
  ): Promise<void> {
    const { ctx } = this;
    await replaceLocalTrack(ctx, kind, constraints, async (old, track) => {
      const mid = ctx.generation?.publisher.pc
        ?.getTransceivers()
        .find((t) => t.sender.track === old || t.receiver.track.kind === kind)?.mid;
      if (ctx.generation && mid) {
        await ctx.generation.publisher.replaceTracks([
          { type: kind, mid, capture: track, replace: true, dontStop: true },
        ]);
      }
    });
  }
}
