// coturn as the stack runs it: TURN REST credentials under the shared secret, relaying only to
// where Janus is (decision 0015), never as root.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { janusAddresses, startCoturn, turnUrls, type RunningCoturn } from '../src/coturn.ts';
import { freePort, isProcessAlive } from '../src/process.ts';
import { processUids, selfSignedCertificate, tempDir } from './helpers.ts';

const secret = randomBytes(18).toString('base64url');
const realm = 'frontdesk.localhost';
/** Stands for Janus's address: private, so only its allowed-peer-ip lets relays reach it. */
const JANUS = '10.200.0.77';
const relayPorts: [number, number] = [49700, 49799];
let dir: Awaited<ReturnType<typeof tempDir>>;
let coturn: RunningCoturn;

beforeAll(async () => {
  dir = await tempDir('frontdesk-coturn-test-');
  coturn = await startCoturn({
    dir: join(dir.path, 'coturn'),
    logFile: join(dir.path, 'coturn.log'),
    secret,
    realm,
    relayPorts,
    allowedPeers: [JANUS],
  });
});

afterAll(async () => {
  await coturn?.stop();
  await dir?.remove();
});

// --- A minimal TURN client over UDP (RFC 5389/5766), enough for Allocate and CreatePermission.

const COOKIE = 0x2112a442;
const ATTR = {
  username: 0x0006,
  integrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  xorPeer: 0x0012,
  xorRelayed: 0x0016,
  transport: 0x0019,
} as const;

type Message = { type: number; attributes: Map<number, Buffer> };

function attribute(type: number, value: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(type, 0);
  header.writeUInt16BE(value.length, 2);
  return Buffer.concat([header, value, Buffer.alloc((4 - (value.length % 4)) % 4)]);
}

function xorAddress(ip: string, port: number): Buffer {
  const value = Buffer.alloc(8);
  value.writeUInt8(1, 1); // IPv4
  value.writeUInt16BE(port ^ (COOKIE >>> 16), 2);
  const address = ip.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
  value.writeUInt32BE((address ^ COOKIE) >>> 0, 4);
  return value;
}

function readXorAddress(value: Buffer): { ip: string; port: number } {
  const port = value.readUInt16BE(2) ^ (COOKIE >>> 16);
  const address = (value.readUInt32BE(4) ^ COOKIE) >>> 0;
  return { ip: [24, 16, 8, 0].map((shift) => (address >>> shift) & 255).join('.'), port };
}

function encode(type: number, attributes: Buffer[], key?: Buffer): Buffer {
  const header = Buffer.alloc(20);
  header.writeUInt16BE(type, 0);
  header.writeUInt32BE(COOKIE, 4);
  randomBytes(12).copy(header, 8);
  let body = Buffer.concat(attributes);
  if (key) {
    // MESSAGE-INTEGRITY covers the message with its length already counting the attribute.
    header.writeUInt16BE(body.length + 24, 2);
    const mac = createHmac('sha1', key)
      .update(Buffer.concat([header, body]))
      .digest();
    body = Buffer.concat([body, attribute(ATTR.integrity, mac)]);
  }
  header.writeUInt16BE(body.length, 2);
  return Buffer.concat([header, body]);
}

function decode(message: Buffer): Message {
  const attributes = new Map<number, Buffer>();
  for (let at = 20; at + 4 <= message.length;) {
    const type = message.readUInt16BE(at);
    const length = message.readUInt16BE(at + 2);
    attributes.set(type, message.subarray(at + 4, at + 4 + length));
    at += 4 + length + ((4 - (length % 4)) % 4);
  }
  return { type: message.readUInt16BE(0), attributes };
}

function errorCode(message: Message): number | undefined {
  const value = message.attributes.get(ATTR.errorCode);
  return value ? (value[2] as number) * 100 + (value[3] as number) : undefined;
}

class TurnClient {
  private constructor(
    private readonly socket: Socket,
    private readonly port: number,
  ) {}

  static async open(port: number): Promise<TurnClient> {
    const socket = createSocket('udp4');
    await new Promise<void>((done) => socket.bind(0, '127.0.0.1', done));
    return new TurnClient(socket, port);
  }

  request(message: Buffer): Promise<Message> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer from coturn')), 2000);
      this.socket.once('message', (answer) => {
        clearTimeout(timer);
        resolve(decode(answer));
      });
      this.socket.send(message, this.port, '127.0.0.1');
    });
  }

  /** Allocate with long-term credentials: the 401 challenge, then the signed request. */
  async allocate(username: string, password: string) {
    const transport = attribute(ATTR.transport, Buffer.from([17, 0, 0, 0]));
    const challenge = await this.request(encode(0x0003, [transport]));
    expect(errorCode(challenge)).toBe(401);
    const nonce = challenge.attributes.get(ATTR.nonce) as Buffer;
    const key = createHash('md5').update(`${username}:${realm}:${password}`).digest();
    const signed = (attributes: Buffer[]) => [
      ...attributes,
      attribute(ATTR.username, Buffer.from(username)),
      attribute(ATTR.realm, Buffer.from(realm)),
      attribute(ATTR.nonce, nonce),
    ];
    const answer = await this.request(encode(0x0003, signed([transport]), key));
    return {
      answer,
      /** CreatePermission for a peer: the error code, or 0 on success. */
      permit: async (ip: string) => {
        const attributes = signed([attribute(ATTR.xorPeer, xorAddress(ip, 9))]);
        const reply = await this.request(encode(0x0008, attributes, key));
        return reply.type === 0x0108 ? 0 : (errorCode(reply) ?? -1);
      },
    };
  }

  close(): void {
    this.socket.close();
  }
}

/** A credential as the API mints it (apps/api/src/calls/ice-servers.ts). */
function credential(key: string, expiresIn = 600) {
  const username = `${Math.floor(Date.now() / 1000) + expiresIn}:call-guest`;
  return { username, password: createHmac('sha1', key).update(username).digest('base64') };
}

describe('startCoturn', () => {
  it('never runs coturn as root, and keeps its secret from others', async () => {
    const uids = await processUids(coturn.pid);
    expect(uids.real).not.toBe(0);
    expect(uids.effective).not.toBe(0);
    const config = join(coturn.dir, 'turnserver.conf');
    expect((await stat(config)).mode & 0o077).toBe(0);
    expect((await stat(coturn.dir)).mode & 0o077).toBe(0);
    const text = await readFile(config, 'utf8');
    expect(text).toContain(`static-auth-secret=${secret}`);
    expect(text).toMatch(/^no-cli$/m);
    expect(text).toMatch(/^no-tls$/m);
  });

  it('allocates a relay in its range for a credential made with the shared secret', async () => {
    const client = await TurnClient.open(coturn.port);
    try {
      const { username, password } = credential(secret);
      const { answer } = await client.allocate(username, password);
      expect(answer.type).toBe(0x0103);
      const relayed = readXorAddress(answer.attributes.get(ATTR.xorRelayed) as Buffer);
      expect(relayed.port).toBeGreaterThanOrEqual(relayPorts[0]);
      expect(relayed.port).toBeLessThanOrEqual(relayPorts[1]);
    } finally {
      client.close();
    }
  });

  it.each([
    ['made with another secret', () => credential(randomBytes(18).toString('base64url'))],
    ['expired', () => credential(secret, -60)],
  ])('refuses a credential %s', async (_, make) => {
    const client = await TurnClient.open(coturn.port);
    try {
      const { username, password } = make();
      const { answer } = await client.allocate(username, password);
      expect(answer.type).toBe(0x0113);
      expect(errorCode(answer)).toBe(401);
    } finally {
      client.close();
    }
  });

  it('relays to Janus and public addresses, never to loopback or private networks', async () => {
    const client = await TurnClient.open(coturn.port);
    try {
      const { username, password } = credential(secret);
      const { answer, permit } = await client.allocate(username, password);
      expect(answer.type).toBe(0x0103);
      expect(await permit(JANUS)).toBe(0);
      expect(await permit('198.51.99.1')).toBe(0);
      for (const ip of ['10.200.0.78', '127.0.0.1', '192.168.1.1', '172.17.0.1', '169.254.169.254'])
        expect(await permit(ip), ip).toBe(403);
    } finally {
      client.close();
    }
  });

  it('names the URLs browsers are given, and finds where Janus is', () => {
    expect(turnUrls('10.200.0.1', { port: 3478, tlsPort: undefined })).toEqual([
      'turn:10.200.0.1:3478?transport=udp',
      'turn:10.200.0.1:3478?transport=tcp',
    ]);
    expect(turnUrls('turn.example.org', { port: 3478, tlsPort: 5349 })).toContain(
      'turns:turn.example.org:5349?transport=tcp',
    );
    expect(janusAddresses('eth0', '203.0.113.9')).toEqual(['203.0.113.9']);
    expect(janusAddresses('lo')).toEqual([]);
  });
});

describe('startCoturn with a certificate', () => {
  it('offers TURN over TLS on its own port, and a turns: URL', async () => {
    // A throwaway certificate, owned by root and unreadable to coturn's user: it gets copies.
    const { certFile, keyFile } = await selfSignedCertificate(
      join(dir.path, 'turn'),
      'turn.frontdesk.test',
      1,
    );
    const secure = await startCoturn({
      dir: join(dir.path, 'coturn-tls'),
      logFile: join(dir.path, 'coturn-tls.log'),
      secret,
      realm,
      relayPorts,
      allowedPeers: [JANUS],
      tls: { certFile, keyFile },
    });
    try {
      expect(secure.tlsPort).toBeDefined();
      expect(turnUrls('turn.frontdesk.test', secure)).toContain(
        `turns:turn.frontdesk.test:${secure.tlsPort}?transport=tcp`,
      );
      expect(await servedName(secure.tlsPort as number)).toBe('turn.frontdesk.test');

      // Renewed in place, as certbot does: coturn takes it without a restart.
      await selfSignedCertificate(join(dir.path, 'turn'), 'renewed.frontdesk.test', 1);
      await secure.reloadCertificate();
      await vi.waitFor(
        async () =>
          expect(await servedName(secure.tlsPort as number)).toBe('renewed.frontdesk.test'),
        { timeout: 5000 },
      );
      expect(isProcessAlive(secure.pid)).toBe(true);
    } finally {
      await secure.stop();
    }
  });
});

/** The name in the certificate a TLS server on 127.0.0.1:`port` presents. */
function servedName(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    socket.once('secureConnect', () => {
      resolve(String(socket.getPeerCertificate().subject.CN));
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

/** The local addresses (hex, as the kernel writes them) listening on TCP `port`. */
async function tcpListeners(port: number): Promise<string[]> {
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8');
    // `sl local_address rem_address st …`; st 0A is LISTEN.
    for (const match of text.matchAll(/^\s*\d+:\s+([0-9A-F]+):([0-9A-F]{4})\s+\S+\s+0A\s/gm)) {
      if (parseInt(match[2] as string, 16) === port) found.push(match[1] as string);
    }
  }
  return found;
}

describe('startCoturn with its CLI', () => {
  it('listens on loopback only, and asks for the password first', async () => {
    const cli = { port: await freePort(), password: randomBytes(18).toString('base64url') };
    const withCli = await startCoturn({
      dir: join(dir.path, 'coturn-cli'),
      logFile: join(dir.path, 'coturn-cli.log'),
      secret,
      realm,
      relayPorts,
      allowedPeers: [JANUS],
      cli,
    });
    try {
      expect(withCli.cliPort).toBe(cli.port);
      const text = await readFile(join(withCli.dir, 'turnserver.conf'), 'utf8');
      expect(text).not.toMatch(/^no-cli$/m);
      expect(text).toContain(`cli-password=${cli.password}`);
      // 127.0.0.1 (0100007F), never a wildcard or another interface.
      expect(await tcpListeners(cli.port)).toEqual(['0100007F']);
      const greeting = await new Promise<string>((resolve, reject) => {
        const socket = createConnection({ host: '127.0.0.1', port: cli.port });
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString();
          if (received.includes('Enter password:')) {
            socket.destroy();
            resolve(received);
          }
        });
        socket.once('error', reject);
      });
      expect(greeting).not.toContain('>');
    } finally {
      await withCli.stop();
    }
  });

  it('refuses a CLI password short enough to guess', async () => {
    await expect(
      startCoturn({
        dir: join(dir.path, 'coturn-weak-cli'),
        logFile: join(dir.path, 'coturn-weak-cli.log'),
        secret,
        realm,
        allowedPeers: [JANUS],
        cli: { port: await freePort(), password: 'turn' },
      }),
    ).rejects.toThrow(/at least 16 characters/);
  });
});
