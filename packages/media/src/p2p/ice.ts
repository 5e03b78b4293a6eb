import { MediaError, toMediaError } from '../errors.ts';
import { ICE_DISCONNECTED_GRACE_MS, withRetry, type RetryPolicy } from '../retry.ts';
import type { PeerLink } from './link.ts';

/** How long one ICE restart may take to bring the path back before the next is tried. */
const ICE_RESTART_WAIT_MS = 5000;

export interface IceHost {
  readonly policy: RetryPolicy;
  readonly signal: AbortSignal;
  link(): PeerLink | null;
  /** One ICE restart: the offerer offers, the answerer asks for an offer. */
  restart(): Promise<void>;
  /** The path is lost; `failed` when ICE gave it up (not only `disconnected`). */
  down(failed: boolean): void;
  /** The link's path is up (again). */
  up(link: PeerLink): void;
  /** No restart brought the path back within the policy. */
  gaveUp(link: PeerLink, error: MediaError): void;
}

/**
 * The health of the link's path. `disconnected` often heals by itself (a lost packet burst);
 * if it lasts, or ICE `failed`, the network changed under us: ICE restarts with backoff until
 * the path is back or the reconnect policy is spent.
 */
export class IceRecovery {
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private recovering: PeerLink | null = null;

  constructor(private readonly host: IceHost) {}

  onState(link: PeerLink, state: RTCPeerConnectionState): void {
    clearTimeout(this.graceTimer);
    if (state === 'connected') {
      this.host.up(link);
    } else if (state === 'disconnected') {
      this.host.down(false);
      this.graceTimer = setTimeout(() => void this.recover(link), ICE_DISCONNECTED_GRACE_MS);
    } else if (state === 'failed') {
      this.host.down(true);
      void this.recover(link);
    }
  }

  private async recover(link: PeerLink): Promise<void> {
    if (this.recovering === link) return;
    this.recovering = link;
    try {
      await withRetry(
        async () => {
          if (link !== this.host.link() || link.pc.connectionState === 'connected') return;
          await this.host.restart();
          await this.reconnected(link);
        },
        { policy: this.host.policy, signal: this.host.signal },
      );
    } catch (raw) {
      if (!this.host.signal.aborted && link === this.host.link()) {
        this.host.gaveUp(link, toMediaError(raw));
      }
    } finally {
      if (this.recovering === link) this.recovering = null;
    }
  }

  /** Resolves when the link is connected again (or replaced); rejects if it stays down. */
  private reconnected(link: PeerLink): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        link.pc.removeEventListener('connectionstatechange', check);
      };
      const check = () => {
        if (link.pc.connectionState === 'connected' || link !== this.host.link()) {
          done();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new MediaError('webrtc', 'ICE restart did not bring the path back'));
      }, ICE_RESTART_WAIT_MS);
      link.pc.addEventListener('connectionstatechange', check);
      check();
    });
  }

  stop(): void {
    clearTimeout(this.graceTimer);
  }
}
