import { isVideoroom, type Generation, type SessionContext } from './context.ts';
import type { LocalPublisher } from './publisher.ts';
import { ICE_DISCONNECTED_GRACE_MS } from './retry.ts';
import { requestKeyframes } from './subscribers.ts';
import type { MediaDirection } from './types.ts';

/** The ICE health of our two PeerConnections, and ICE restarts when a path is lost. */
export class IceWatch {
  constructor(
    private readonly ctx: SessionContext,
    private readonly publisher: LocalPublisher,
  ) {}

  /**
   * ICE `failed`: report it and restart ICE. `disconnected` often heals by itself (a lost
   * packet burst); if it lasts, the network changed under us and an ICE restart finds the
   * new path.
   */
  onIceState(
    generation: Generation,
    direction: MediaDirection,
    state: RTCIceConnectionState,
  ): void {
    clearTimeout(generation.iceTimers[direction]);
    const wasDown = generation.iceDown[direction] === true;
    generation.iceDown[direction] = state === 'disconnected' || state === 'failed';
    // Our publisher's video is handled when Janus says it receives it again (publisher.ts).
    if (wasDown && direction === 'subscribe' && (state === 'connected' || state === 'completed')) {
      requestKeyframes(generation);
    }
    this.showIceHealth(generation);
    if (state === 'failed') void this.iceFailed(generation, direction);
    if (state === 'disconnected') {
      generation.iceTimers[direction] = setTimeout(() => {
        if (generation !== this.ctx.generation) return;
        void this.restart(direction).catch((error: unknown) => this.ctx.fail(error));
      }, ICE_DISCONNECTED_GRACE_MS);
    }
  }

  /**
   * While a PeerConnection has lost its path the call is `reconnecting` (the picture is
   * frozen, the UI must say so); `connected` again once ICE is back on every path.
   */
  private showIceHealth(generation: Generation): void {
    const { ctx } = this;
    if (generation !== ctx.generation || ctx.recovering) return;
    const down = generation.iceDown.publish === true || generation.iceDown.subscribe === true;
    if (down && ctx.state().status === 'connected') ctx.update({ status: 'reconnecting' });
    if (!down && ctx.state().status === 'reconnecting') ctx.update({ status: 'connected' });
  }

  /** spec §8: report the failed ICE with the SDPs, then try an ICE restart. */
  private async iceFailed(generation: Generation, direction: MediaDirection): Promise<void> {
    if (generation !== this.ctx.generation) return;
    this.ctx.marks.iceFailed = true;
    const handle = direction === 'publish' ? generation.publisher : await generation.subscriber;
    const sdp = handle?.sdp() ?? { local: null, remote: null };
    this.ctx.emit('iceFailed', { direction, localSdp: sdp.local, remoteSdp: sdp.remote });
    await this.restart(direction).catch((error: unknown) => this.ctx.fail(error));
  }

  /**
   * ICE restart: the publisher makes a new offer with fresh credentials; a subscriber asks
   * Janus for one (`configure` with `restart`), which the offer handler answers.
   */
  async restart(direction: MediaDirection | 'both'): Promise<void> {
    const generation = this.ctx.generation;
    if (!generation) return;
    if (direction !== 'subscribe') await this.publisher.publish(generation, 'iceRestart');
    if (direction !== 'publish' && generation.subscriber) {
      const handle = await generation.subscriber;
      await handle.requestAsync(
        { request: 'configure', restart: true },
        (data) => isVideoroom(data, 'updated') || isVideoroom(data, 'event'),
      );
    }
  }
}
