// The floor of the Janus capacity figure: Janus as Debian ships it, started beside ours so that
// the same generators carry the same calls through both in one run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Debian's configuration folder for Janus, as the package installs it. */
const STOCK_CONFIGS = '/etc/janus';
/** The REST transport's port in Debian's `janus.transport.http.jcfg`. */
const STOCK_HTTP_PORT = 8088;

export type StockJanus = { httpUrl: string; pid: number; stop: () => Promise<void> };

/**
 * Janus with Debian's configuration files copied unchanged into `dir` (no token auth, a thread
 * per handle, every packaged plugin and transport), save one line: `string_ids = true` in the
 * videoroom's, since the generators name their rooms with strings. Runs as the caller, in the
 * caller's network namespace, on Debian's ports.
 */
export async function startStockJanus(dir: string): Promise<StockJanus> {
  for (const file of readdirSync(STOCK_CONFIGS).filter((name) => name.endsWith('.jcfg'))) {
    copyFileSync(join(STOCK_CONFIGS, file), join(dir, file));
  }
  const videoroom = join(dir, 'janus.plugin.videoroom.jcfg');
  writeFileSync(
    videoroom,
    readFileSync(videoroom, 'utf8').replace(/^\s*#string_ids = true/m, '\tstring_ids = true'),
  );
  const log = openSync(join(dir, 'janus.log'), 'a');
  const child = spawn('janus', ['-F', dir, '-o'], { stdio: ['ignore', log, log] });
  const exited = once(child, 'exit');
  const httpUrl = `http://127.0.0.1:${STOCK_HTTP_PORT}/janus`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5000).then(() => child.kill('SIGKILL'))]);
  };
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
    if (child.exitCode !== null) break;
    const answer = await fetch(`${httpUrl}/info`, { signal: AbortSignal.timeout(2000) })
      .then((response) => response.json() as Promise<{ janus?: unknown }>)
      .catch(() => undefined);
    if (answer?.janus === 'server_info' && child.pid !== undefined) {
      return { httpUrl, pid: child.pid, stop };
    }
  }
  await stop();
  throw new Error(`stock Janus did not answer on ${httpUrl}: see ${join(dir, 'janus.log')}`);
}
