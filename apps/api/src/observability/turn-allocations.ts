import { createConnection } from 'node:net';

/** Where coturn's CLI listens (`cli-ip`, `cli-port`) and its `cli-password`. */
export type TurnCli = { host: string; port: number; password: string };

/**
 * The TURN allocations coturn holds now, asked of its CLI at scrape time: Debian's coturn is
 * built without its Prometheus exporter. Each session the CLI lists is one allocation (a party
 * of a call, per TURN URL and peer connection); `pu` prints one line per user and the total,
 * where `ps` would print every session in full. Rejects when coturn does not answer within
 * `timeoutMs`, refuses the password, or prints no total.
 *
 * The CLI is telnet, but coturn negotiates no option unless asked to, so the dialogue is plain
 * text: the password after `Enter password: `, then commands after the `> ` prompt. (The npm
 * telnet clients bring more than this needs; the best known depends on packages named `net`
 * and `stream`.)
 */
export function countTurnAllocations(cli: TurnCli, timeoutMs = 2000): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: cli.host, port: cli.port });
    const fail = (reason: string) => {
      socket.destroy();
      reject(new Error(`coturn's CLI at ${cli.host}:${cli.port}: ${reason}`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs} ms`));
    socket.once('error', (error) => fail(error.message));
    socket.once('close', () => fail('closed the connection'));
    let step: 'password' | 'command' | 'total' = 'password';
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (step === 'password' && /Enter password: \s*$/.test(text)) {
        socket.write(`${cli.password}\r\n`);
        step = 'command';
        text = '';
      } else if (step === 'command' && /Enter password:/.test(text)) {
        fail('the password was refused');
      } else if (step === 'command' && /> $/.test(text)) {
        socket.write('pu\r\n');
        step = 'total';
        text = '';
      } else if (step === 'total' && /> $/.test(text)) {
        const total = /Total sessions: (\d+)/.exec(text)?.[1];
        socket.removeAllListeners('close');
        socket.setTimeout(0);
        socket.end('quit\r\n');
        if (total === undefined) fail(`no total in its answer: ${text.trim()}`);
        else resolve(Number(total));
      }
    });
  });
}
