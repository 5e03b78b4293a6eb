import type { ChildProcess } from 'node:child_process';

/**
 * Resolves with the next message of `type` from a forked child; rejects if the child exits
 * first, so a crashed generator ends its step instead of hanging the run.
 */
export function nextMessage<M extends { type: string }, T extends M['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<M, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: M) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<M, { type: T }>);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`child ${child.pid} exited with ${code} before sending ${type}`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
