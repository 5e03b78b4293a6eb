import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { createServer } from 'vite';
// infra's package entry exports only the whole stack; these two modules are what we need.
import { mintJanusToken, startJanus, type JanusOptions, type RunningJanus } from '@frontdesk/infra';
import { JanusRooms } from '../src/server/rooms.ts';
import type { HarnessConfig } from './harness/main.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');
const secret = () => randomBytes(12).toString('hex');

/** A Janus of the test's own, locked down like production, and what the API would hold. */
export interface TestJanus {
  readonly running: RunningJanus;
  readonly rooms: JanusRooms;
  readonly recordingsDir: string;
  token(): string;
  /** Stops Janus (SIGTERM: every session, room and PeerConnection is gone). */
  stop(): Promise<void>;
  /** Starts it again on the same ports, with no rooms, as after a crash and restart. */
  start(): Promise<void>;
}

async function launchJanus(dir: string, rtpPortRange: [number, number]): Promise<TestJanus> {
  // Janus runs as its own user when we are root: it must enter the folder.
  await chmod(dir, 0o711);
  const tokenSecret = secret();
  const adminKey = secret();
  const recordingsDir = join(dir, 'recordings');
  const options: JanusOptions = {
    dir: join(dir, 'janus'),
    rtpPortRange,
    tokenSecret,
    adminKey,
    adminSecret: secret(),
    recordingsDir,
    // Inside scripts/isolated the veth pair is the only interface Janus may gather ICE on.
    iceEnforceList: 'veth0',
  };
  let running = await startJanus(options);
  const token = () => mintJanusToken(tokenSecret, 3600);
  const janus: TestJanus = {
    get running() {
      return running;
    },
    rooms: new JanusRooms({ httpUrl: running.httpUrl, adminKey, token }),
    recordingsDir,
    token,
    stop: () => running.stop(),
    async start() {
      running = await startJanus({
        ...options,
        httpPort: running.httpPort,
        wsPort: running.wsPort,
      });
    },
  };
  return janus;
}

/** One participant's page, driven through the harness API. */
export class Participant {
  constructor(
    readonly page: Page,
    readonly display: string,
  ) {}

  start(config: Omit<HarnessConfig, 'display'>): Promise<void> {
    return this.page.evaluate((c) => window.harness.start(c), { ...config, display: this.display });
  }

  state() {
    return this.page.evaluate(() => window.harness.state());
  }

  inbound() {
    return this.page.evaluate(() => window.harness.inbound());
  }

  remoteVideos() {
    return this.page.evaluate(() => window.harness.remoteVideos());
  }

  firstFrameMs() {
    return this.page.evaluate(() => window.harness.firstFrameMs());
  }

  log() {
    return this.page.evaluate(() => window.harness.log());
  }

  qualityReport() {
    return this.page.evaluate(() => window.harness.qualityReport());
  }

  /** Inbound video counters grow between two reads: frames are arriving now, not just once. */
  async framesGrow(): Promise<{ bytes: number; frames: number }> {
    const first = (await this.inbound()).video;
    await expect
      .poll(async () => {
        const next = (await this.inbound()).video;
        return (
          next !== null && next.bytes > (first?.bytes ?? 0) && next.frames > (first?.frames ?? 0)
        );
      })
      .toBe(true);
    const last = (await this.inbound()).video;
    return { bytes: last?.bytes ?? 0, frames: last?.frames ?? 0 };
  }

  /**
   * After one recovery (`reconnects` 1): connected again, showing `peer`'s video at full size,
   * its frames arriving.
   */
  async backInCall(peer: 'guest' | 'agent'): Promise<void> {
    await this.waitForState(
      (s) => s.status === 'connected' && s.reconnects === 1 && s.peerVideo === 'Resumed',
      30_000,
    );
    await expect
      .poll(async () =>
        (await this.remoteVideos()).find((v) => v.display === `remote-video-${peer}`),
      )
      .toMatchObject({ width: 640, height: 480 });
    await this.framesGrow();
  }

  /** Waits until the state matches, polling the page (no fixed sleeps). */
  async waitForState(
    predicate: (state: NonNullable<Awaited<ReturnType<Participant['state']>>>) => boolean,
    timeout = 15_000,
  ): Promise<void> {
    await expect
      .poll(
        async () => {
          const state = await this.state();
          return state !== null && predicate(state);
        },
        { timeout },
      )
      .toBe(true);
  }
}

type CallConfig = Omit<HarnessConfig, 'display' | 'server'>;

interface Call {
  readonly room: string;
  readonly guest: Participant;
  readonly agent: Participant;
  /**
   * The guest joins, then the agent; resolves once each has the other's media. `perSide`
   * adds one participant's own settings.
   */
  start(config: CallConfig, perSide?: (who: Participant) => Partial<CallConfig>): Promise<void>;
  /**
   * The API destroys the call's room: as it ends the call (`ended`: the room is refused from
   * then on, 409), or as it moves the call off a server taken for lost (decision 0039: asked
   * again, the room is made anew).
   */
  destroyRoom(how: { ended: boolean }): Promise<void>;
}

/** What the API keeps of a call's room: the pin, the secret and each participant's token. */
interface RoomKeys {
  readonly room: string;
  readonly pin: string;
  readonly secret: string;
  readonly tokens: Record<'guest' | 'agent', string>;
  /** Janus records the room (the company records calls). */
  readonly recorded: boolean;
  /** The call has ended: the API refuses its room. */
  ended: boolean;
}

async function participant(
  browser: Browser,
  harnessUrl: string,
  display: 'guest' | 'agent',
  janus: () => TestJanus,
  access: RoomKeys,
): Promise<Participant> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${display}] page error:`, error));
  // What the API does for the app: tokens and the idempotent room creation.
  await page.exposeFunction('janusToken', () => janus().token());
  await page.exposeFunction('callRoom', async () => {
    if (access.ended) return null;
    await janus().rooms.create({
      room: access.room,
      pin: access.pin,
      secret: access.secret,
      allowed: Object.values(access.tokens),
      ...(access.recorded ? { recordingsDir: janus().recordingsDir } : {}),
    });
    // The pin as the API hands it out, in mixed case: the adapter lowercases it (spec §5).
    return {
      room: access.room,
      pin: access.pin.toUpperCase(),
      // One Janus, reached directly: it ignores the `?server=` the adapter adds.
      server: 'local',
      token: access.tokens[display],
      recorded: access.recorded,
      // Host candidates only: the test's namespace needs neither STUN nor a relay.
      iceServers: [],
    };
  });
  await page.goto(harnessUrl);
  // The module script has run (a broken build shows here, not as an odd failure later).
  await page.waitForFunction(() => window.harness !== undefined);
  return new Participant(page, display);
}

export const test = base.extend<
  { ownJanus: boolean; recorded: boolean; janus: TestJanus; call: Call },
  { sharedJanus: TestJanus; harnessUrl: string }
>({
  sharedJanus: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dir = await mkdtemp(join(tmpdir(), 'frontdesk-media-e2e-'));
      // A port range apart from the e2e stack's Janus (20000-20200) in the same namespace.
      const janus = await launchJanus(dir, [20300, 20500]);
      await use(janus);
      await janus.stop();
      if (process.env.FRONTDESK_KEEP_MEDIA_DATA !== '1')
        await rm(dir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  harnessUrl: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({
        configFile: false,
        root: resolve(import.meta.dirname, 'harness'),
        logLevel: 'warn',
        // No HMR and no watching: an edit or an npm install elsewhere in the tree must not
        // reload a page in the middle of a call.
        server: { host: '127.0.0.1', port: 0, fs: { allow: [repoRoot] }, hmr: false, watch: null },
        // Bundle the CommonJS-era and large dependencies up front, so the first page load does
        // not trigger Vite's re-optimisation reload in the middle of a test.
        optimizeDeps: { include: ['janus-gateway', 'webrtc-adapter', 'zod'] },
      });
      await server.listen();
      const address = server.httpServer?.address();
      if (!address || typeof address === 'string') throw new Error('vite did not listen');
      await use(`http://127.0.0.1:${address.port}/`);
      await server.close();
    },
    { scope: 'worker' },
  ],
  /** `test.use({ ownJanus: true })`: a Janus for each test, for tests that kill it. */
  ownJanus: [false, { option: true }],
  /** `test.use({ recorded: true })`: Janus records the call's room, as for a recording company. */
  recorded: [false, { option: true }],
  janus: async ({ ownJanus, sharedJanus }, use) => {
    if (!ownJanus) {
      await use(sharedJanus);
      return;
    }
    const dir = await mkdtemp(join(tmpdir(), 'frontdesk-media-own-'));
    const janus = await launchJanus(dir, [20600, 20800]);
    await use(janus);
    await janus.stop();
    await rm(dir, { recursive: true, force: true });
  },
  call: async ({ browser, harnessUrl, janus, recorded }, use) => {
    const token = (role: string) => `${role}.${randomBytes(32).toString('base64url')}`;
    const access: RoomKeys = {
      room: `call-${secret()}`,
      pin: `Pin${secret()}`,
      secret: secret(),
      tokens: { guest: token('guest'), agent: token('agent') },
      recorded,
      ended: false,
    };
    const guest = await participant(browser, harnessUrl, 'guest', () => janus, access);
    const agent = await participant(browser, harnessUrl, 'agent', () => janus, access);
    const server = janus.running.wsUrl;
    await use({
      room: access.room,
      guest,
      agent,
      async start(config, perSide) {
        for (const who of [guest, agent]) {
          await who.start({ ...config, ...perSide?.(who), server });
        }
        for (const who of [guest, agent]) {
          await who.waitForState((s) => s.feeds.length === 1 && s.peerCall === 'Resumed');
        }
      },
      async destroyRoom({ ended }) {
        access.ended = ended;
        await janus.rooms.destroy({ room: access.room, secret: access.secret });
      },
    });
    for (const p of [guest, agent]) {
      await p.page.evaluate(() => window.harness.close()).catch(() => undefined);
      await p.page.context().close();
    }
  },
});

export { expect };
