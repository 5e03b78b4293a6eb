import { readFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { fail, ok, warn, worst, type Check, type Outcome } from '@frontdesk/api/doctor';
import { DEFAULT_TURN_PORT, DEFAULT_TURNS_PORT, stunAnswers } from '../coturn.ts';
import type { DoctorSettings } from './settings.ts';

/** Whether something accepts TCP connections on `host:port`; the refusal's code when not. */
export function tcpListening(
  host: string,
  port: number,
  timeoutMs = 2000,
): Promise<{ listening: boolean; error?: string }> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve({ listening: true });
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve({ listening: false, error: 'no answer' });
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ listening: false, error: error.code ?? error.message }),
    );
  });
}

/** The local UDP ports bound right now, from the kernel's tables (IPv4 and IPv6). */
export async function boundUdpPorts(): Promise<Set<number>> {
  const ports = new Set<number>();
  for (const table of ['/proc/net/udp', '/proc/net/udp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    // `sl local_address rem_address …`, the local address as HEXADDR:HEXPORT.
    for (const match of text.matchAll(/^\s*\d+:\s+[0-9A-F]+:([0-9A-F]{4})\s/gm)) {
      ports.add(parseInt(match[1] as string, 16));
    }
  }
  return ports;
}

const startHint =
  'Start it with npm start; its output and the data folder’s logs/ say why a server is down.';

async function listening(label: string, host: string, port: number): Promise<Outcome> {
  const answer = await tcpListening(host, port);
  return answer.listening
    ? ok(`${label} listens on ${host}:${port}`)
    : fail(`nothing listens on ${host}:${port} for ${label} (${answer.error})`, startHint);
}

async function checkApiPorts(settings: DoctorSettings): Promise<Outcome> {
  const looks = [await listening('the API', settings.api.host, settings.api.port)];
  if (settings.publicUrl) {
    // Caddy takes the public ports and passes requests on to the API.
    looks.push(await listening('HTTPS (Caddy)', '127.0.0.1', settings.web.httpsPort));
    looks.push(await listening('HTTP (Caddy)', '127.0.0.1', settings.web.httpPort));
  }
  return worst(looks);
}

async function checkTurnPorts(settings: DoctorSettings): Promise<Outcome> {
  const { port, tlsPort } = settings.turn;
  const looks: Outcome[] = [
    (await stunAnswers('127.0.0.1', port, 2000))
      ? ok(`STUN answers on UDP ${port}`)
      : fail(`no STUN answer on UDP ${port}`, startHint),
    await listening('TURN over TCP', '127.0.0.1', port),
  ];
  if (tlsPort !== undefined) looks.push(await listening('TURN over TLS', '127.0.0.1', tlsPort));
  const moved = [
    port !== DEFAULT_TURN_PORT ? `${port} instead of ${DEFAULT_TURN_PORT}` : '',
    tlsPort !== undefined && tlsPort !== DEFAULT_TURNS_PORT
      ? `${tlsPort} instead of ${DEFAULT_TURNS_PORT}`
      : '',
  ].filter(Boolean);
  if (moved.length > 0) {
    looks.push(
      warn(
        `coturn runs on ${moved.join(' and ')}: the standard port was taken when it started`,
        `Stop what holds the port (ss -lntup 'sport = :${DEFAULT_TURN_PORT}') and restart npm start: networks that filter traffic often let only the standard TURN ports through.`,
      ),
    );
  }
  return worst(looks);
}

async function checkJanusPorts(settings: DoctorSettings): Promise<Outcome> {
  const [min, max] = settings.janus.rtpPorts;
  const [relayMin, relayMax] = settings.turn.relayPorts;
  if (min <= relayMax && relayMin <= max) {
    return fail(
      `Janus's RTP ports ${min}-${max} overlap coturn's relay ports ${relayMin}-${relayMax}`,
      `Give Janus a range of its own: JANUS_RTP_PORTS=20000-20200 (the default), and restart npm start.`,
    );
  }
  const bound = await boundUdpPorts();
  let inUse = 0;
  for (let p = min; p <= max; p++) if (bound.has(p)) inUse++;
  const size = max - min + 1;
  // Janus opens one port per peer connection, so nothing listens on the range between calls.
  const detail = `UDP ${min}-${max} (${size} ports, ${settings.janus.source}): ${inUse} bound now (calls in progress, or another program)`;
  if (inUse > size / 2) {
    return warn(
      detail,
      `Check what holds them (ss -lnup) or widen JANUS_RTP_PORTS: each call takes a port per peer connection.`,
    );
  }
  return ok(detail);
}

/** What listens where, as far as this machine itself can tell. */
export function portChecks(settings: DoctorSettings): Check[] {
  return [
    {
      id: 'ports.api',
      title: 'API and web ports',
      run: () => checkApiPorts(settings),
      fixOnError: startHint,
    },
    {
      id: 'ports.turn',
      title: 'TURN ports',
      run: () => checkTurnPorts(settings),
      fixOnError: startHint,
    },
    {
      id: 'ports.janus-rtp',
      title: 'Janus RTP port range',
      run: () => checkJanusPorts(settings),
      fixOnError: 'Set JANUS_RTP_PORTS to a free range such as 20000-20200.',
    },
  ];
}

/** What no check on this machine can see, printed after the results. */
export function notCheckedFromHere(settings: DoctorSettings): string[] {
  const [min, max] = settings.janus.rtpPorts;
  const [relayMin, relayMax] = settings.turn.relayPorts;
  const tcp = [
    ...(settings.publicUrl ? [settings.web.httpPort, settings.web.httpsPort].map(String) : []),
    String(settings.turn.port),
    ...(settings.turn.tlsPort === undefined ? [] : [String(settings.turn.tlsPort)]),
  ];
  return [
    `Whether firewalls and the cloud's security group let these in from the internet: TCP ${tcp.join(', ')}; UDP ${settings.turn.port}, ${min}-${max} (Janus) and ${relayMin}-${relayMax} (TURN relays). The console's health view (admins) gathers relay candidates from a browser outside; a call from outside shows Janus.`,
  ];
}
