import { startDisposableStack } from '@frontdesk/infra';

/** The whole stack on a fresh schema and a temporary data folder, as the e2e suite runs it. */
export type BenchStack = {
  url: string;
  apiPid: number;
  /** Stops one server and starts it again in place (the recovery figure's Janus session loss). */
  restart: (server: 'xmpp' | 'janus') => Promise<void>;
  stop: () => Promise<void>;
};

export async function startBenchStack(log: (line: string) => void): Promise<BenchStack> {
  // Per-request logging would be part of what the throughput figures measure.
  const stack = await startDisposableStack({ name: 'bench', logLevel: 'warn', log });
  return { url: stack.url, apiPid: stack.pids.api, restart: stack.restart, stop: stack.stop };
}
