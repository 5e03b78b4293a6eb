import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startJanus, type RunningJanus } from '@frontdesk/infra';

const secret = () => randomBytes(18).toString('base64url');

export type TestJanus = {
  janus: RunningJanus;
  tokenSecret: string;
  adminKey: string;
  /** What `buildTestApp` needs to reach it (its HTTP and WebSocket addresses, its secrets). */
  env: Record<string, string>;
  /** Stops it and removes its folder. */
  stop: () => Promise<void>;
};

/**
 * A Janus of the suite's own, in a temporary folder (recordings included). `rtpPortRange` is the
 * suite's own, clear of other suites' Janus instances; no media flows in API tests.
 */
export async function startTestJanus(
  name: string,
  rtpPortRange: [number, number],
): Promise<TestJanus> {
  const dir = await mkdtemp(join(tmpdir(), `frontdesk-${name}-`));
  // Janus runs as its own user when we are root: it must enter the folder.
  await chmod(dir, 0o711);
  const tokenSecret = secret();
  const adminKey = secret();
  const janus = await startJanus({
    dir: join(dir, 'janus'),
    rtpPortRange,
    tokenSecret,
    adminKey,
    adminSecret: secret(),
    recordingsDir: join(dir, 'recordings'),
  });
  return {
    janus,
    tokenSecret,
    adminKey,
    env: {
      JANUS_HTTP_URL: janus.httpUrl,
      JANUS_WEBSOCKET_UPSTREAM: janus.wsUrl,
      JANUS_TOKEN_SECRET: tokenSecret,
      JANUS_ADMIN_KEY: adminKey,
    },
    stop: async () => {
      await janus.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
