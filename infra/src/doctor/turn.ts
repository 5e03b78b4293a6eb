import { isIP } from 'node:net';
import {
  classes,
  parseMessage,
  TcpTransport,
  TlsTransport,
  TurnProtocol,
  UdpTransport,
  type Message,
} from 'werift';
import { z } from 'zod';
import { callIceServers, fail, ok, type Check, type Outcome } from '@frontdesk/api/doctor';
import { parseTurnUrl, type TurnUrl } from '@frontdesk/protocol';
import { turnUrls } from '../coturn.ts';
import type { DoctorSettings } from './settings.ts';

/** An Allocate the TURN server answered with an error (RFC 5389 ERROR-CODE). */
export class TurnRefusal extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`${code} ${reason}`);
  }
}

const errorCodeSchema = z.tuple([z.number(), z.string()]);
const errorCodeOf = (message: Message | undefined) => {
  const parsed = errorCodeSchema.safeParse(message?.getAttributeValue('ERROR-CODE'));
  return parsed.success ? new TurnRefusal(parsed.data[0], parsed.data[1]) : undefined;
};

/** The relayed address coturn allocated: the relay candidate a browser would gather. */
export type Allocation = { relayed: string };

/** How long an allocation we make is kept by coturn: we only want to see that one is granted. */
const LIFETIME_SECONDS = 60;

/**
 * Asks the TURN server at `target` for a relay (an Allocate with the long-term credential), the
 * way a browser does when it gathers relay candidates, and releases the socket. `servername`
 * and `ca` are for TLS: the name the certificate must be valid for, and a CA to trust besides
 * the system's (tests). Rejects with a {@link TurnRefusal} when the server refuses.
 */
export async function allocateRelay(
  target: TurnUrl,
  credential: { username: string; password: string },
  options: { servername?: string; ca?: string; timeoutMs?: number } = {},
): Promise<Allocation> {
  const address: [string, number] = [target.host, target.port];
  const timeoutMs = options.timeoutMs ?? 8000;
  let close: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let refuse: (error: Error) => void = () => undefined;
  // The deadline, or a refusal werift cannot report (below), whichever comes first.
  const stopped = new Promise<never>((_, reject) => {
    refuse = reject;
    timer = setTimeout(() => reject(new Error(`no relay within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  const attempt = (async (): Promise<Allocation> => {
    const transport =
      target.via === 'udp'
        ? await UdpTransport.init(isIP(target.host) === 6 ? 'udp6' : 'udp4')
        : target.via === 'tcp'
          ? await TcpTransport.init(address)
          : await TlsTransport.init(address, {
              ...(options.servername ? { servername: options.servername } : {}),
              ...(options.ca ? { ca: options.ca } : {}),
            });
    close = () => transport.close();
    const turn = new TurnProtocol(
      address,
      credential.username,
      credential.password,
      LIFETIME_SECONDS,
      transport,
    );
    close = () => turn.close();
    const allocating = turn.connectionMade();
    // werift drops an error answer it cannot verify with our key, so coturn's 401 to the request
    // that carried the credentials would look like silence. The first 401 is the challenge
    // (repeated as often as a lost datagram makes werift resend it, with the same transaction
    // id); a 401 to another transaction is the refusal. 438 (stale nonce) werift retries itself.
    const deliver = transport.onData;
    let challenge: string | undefined;
    transport.onData = (data, from) => {
      const message = parseMessage(data);
      const refusal = message?.messageClass === classes.ERROR ? errorCodeOf(message) : undefined;
      if (message && refusal?.code === 401) {
        challenge ??= message.transactionIdHex;
        if (message.transactionIdHex !== challenge) refuse(refusal);
      } else if (refusal && refusal.code !== 438) {
        refuse(refusal);
      }
      deliver(data, from);
    };
    await allocating;
    const [ip, port] = turn.relayedAddress;
    return { relayed: `${ip}:${port}` };
  })();
  try {
    return await Promise.race([attempt, stopped]);
  } finally {
    clearTimeout(timer);
    // Whichever lost the race settles unheard.
    attempt.catch(() => undefined);
    stopped.catch(() => undefined);
    await close?.().catch(() => undefined);
  }
}

/** One transport's relay check: the Allocate, and what a refusal means for the operator. */
async function relayOutcome(
  target: TurnUrl,
  credential: { username: string; password: string },
  options: { servername?: string; ca?: string; timeoutMs?: number },
): Promise<Outcome> {
  try {
    const { relayed } = await allocateRelay(target, credential, options);
    return ok(`${target.url}: relay ${relayed} allocated`);
  } catch (error) {
    const refused = error instanceof TurnRefusal ? error : undefined;
    if (refused?.code === 401) {
      return fail(
        `${target.url}: 401 ${refused.reason}: coturn refuses the credentials`,
        'The TURN secret differs between secrets.json and coturn (static-auth-secret), or the clock is wrong: restart npm start so both take secrets.json.',
      );
    }
    const message = refused
      ? `${refused.code} ${refused.reason}`
      : error instanceof Error
        ? error.message
        : String(error);
    return fail(
      `${target.url}: ${message}`,
      target.via === 'tls'
        ? 'TURN over TLS needs coturn running with a certificate valid for the public name (npm start with FRONTDESK_PUBLIC_URL); see logs/coturn.log.'
        : 'coturn did not grant a relay: see the data folder’s logs/coturn.log.',
    );
  }
}

/** The TURN check's inputs: the running coturn's ports, its secret, and whom TLS is for. */
export type TurnCheckOptions = {
  host: string;
  port: number;
  tlsPort: number | undefined;
  secret: string;
  servername?: string;
  ca?: string;
  timeoutMs?: number;
};

/**
 * One check per transport: a relay allocated over UDP, TCP and (with a certificate) TLS with
 * credentials minted the way the API mints a call's (decision 0015, `callIceServers`), so a
 * wrong secret shows here as it would in calls.
 */
export function turnAllocationChecks(options: TurnCheckOptions): Check[] {
  const [server] = callIceServers(
    {
      stunUrl: null,
      turnUrls: turnUrls(options.host, { port: options.port, tlsPort: options.tlsPort }),
      turnSecret: options.secret,
      turnTtlSeconds: 300,
    },
    'doctor',
    'agent',
  );
  const urls = server === undefined ? [] : [server.urls].flat();
  const credential = { username: server?.username ?? '', password: server?.credential ?? '' };
  return urls.flatMap((url) => {
    const target = parseTurnUrl(url);
    if (!target) return [];
    return {
      id: `turn.${target.via}`,
      title: `TURN relay over ${target.via.toUpperCase()}`,
      run: () => relayOutcome(target, credential, options),
      fixOnError: 'See the data folder’s logs/coturn.log.',
    };
  });
}

/** The TURN checks of `npm run doctor`: against this machine's coturn, as set up by npm start. */
export function turnChecks(settings: DoctorSettings): Check[] {
  const { secret, port, tlsPort } = settings.turn;
  if (secret === undefined) {
    return [
      {
        id: 'turn.secret',
        title: 'TURN secret',
        fixOnError: 'Run npm start once: it writes secrets.json.',
        run: async () =>
          fail(
            `no turnSecret in ${settings.dataDir}/secrets.json`,
            'Run npm start once: it writes secrets.json, or set FRONTDESK_DATA_DIR to the data folder in use.',
          ),
      },
    ];
  }
  // Straight to this machine's coturn: from here its public address may not loop back (NAT).
  // TLS is verified for the name browsers are given (TURN_HOST, else the public URL's).
  const name = [settings.turn.host, settings.publicUrl?.hostname].find(
    (candidate) => candidate !== undefined && isIP(candidate) === 0,
  );
  return turnAllocationChecks({
    host: '127.0.0.1',
    port,
    tlsPort,
    secret,
    ...(name ? { servername: name } : {}),
  });
}
