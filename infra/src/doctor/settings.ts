import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_RELAY_PORTS, DEFAULT_TURN_PORT, DEFAULT_TURNS_PORT } from '../coturn.ts';
import { defaultDataDir } from '../data-dir.ts';

const portRange = z
  .string()
  .regex(/^\d+-\d+$/, 'must look like 20000-20200')
  .transform((range) => range.split('-').map(Number) as [number, number]);

/**
 * The settings of `npm start` that the self-test needs, read from the same environment
 * (infra/src/cli/start.ts): run `npm run doctor` with the variables `npm start` runs with.
 */
export const doctorEnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  FRONTDESK_DATA_DIR: z.string().optional(),
  FRONTDESK_PUBLIC_URL: z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).optional(),
  JANUS_ICE_INTERFACES: z.string().optional(),
  JANUS_PUBLIC_IP: z.string().optional(),
  JANUS_RTP_PORTS: portRange.default([20000, 20200]),
  TURN_HOST: z.string().optional(),
  TURN_RELAY_PORTS: portRange.optional(),
  TURN_TLS_CERT: z.string().optional(),
});

/** Where each setting came from: the files the last `npm start` wrote, or the environment. */
export type Source = 'running config' | 'environment';

/** Everything the checks of `npm run doctor` look at. */
export type DoctorSettings = {
  dataDir: string;
  /** Where the API listens (`HOST`, `PORT`). */
  api: { host: string; port: number };
  publicUrl: URL | undefined;
  /** Caddy's ports (public mode): from the Caddyfile the last start rendered, else 443 and 80. */
  web: { httpsPort: number; httpPort: number };
  janus: {
    iceEnforceList: string | undefined;
    /** `nat_1_1_mapping`: the addresses Janus announces instead of its interfaces'. */
    natPublicIp: string | undefined;
    rtpPorts: readonly [number, number];
    source: Source;
  };
  turn: {
    port: number;
    tlsPort: number | undefined;
    relayPorts: readonly [number, number];
    /** From `secrets.json`; undefined when the data folder has none yet. */
    secret: string | undefined;
    /** The name browsers are given for coturn (`TURN_HOST`): what its certificate must be for. */
    host: string | undefined;
    source: Source;
  };
};

/** `name = "value"` settings of a Janus `.jcfg` file, comments left out. */
function jcfgValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const match of text.matchAll(/^\s*([a-z_0-9]+)\s*=\s*"([^"]*)"/gm)) {
    values.set(match[1] as string, match[2] as string);
  }
  return values;
}

/** `name=value` lines of coturn's `turnserver.conf`, comments left out. */
function confValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const match of text.matchAll(/^([a-z0-9-]+)=(.*)$/gm)) {
    values.set(match[1] as string, (match[2] as string).trim());
  }
  return values;
}

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

const readOptional = (path: string) => readFile(path, 'utf8').catch(() => undefined);

const port = z.coerce.number().int().min(1).max(65535);
/** What the self-test reads of the rendered configurations: checked, never trusted blindly. */
const janusFileSchema = z.object({
  rtp_port_range: portRange.optional(),
  nat_1_1_mapping: z
    .string()
    .refine((text) => text.split(',').every((ip) => isIP(ip.trim()) !== 0))
    .optional(),
  ice_enforce_list: z.string().optional(),
});
const coturnFileSchema = z.object({
  'listening-port': port,
  'tls-listening-port': port.optional(),
  'min-port': port,
  'max-port': port,
  cert: z.string().optional(),
});
const secretsFileSchema = z.object({ turnSecret: z.string().min(16) });

/**
 * The settings from the environment, then corrected by what the last `npm start` rendered into
 * the data folder: coturn moves to a free port when 3478 is taken, and the running servers go by
 * their files rather than by today's environment.
 */
export async function loadDoctorSettings(
  env: NodeJS.ProcessEnv,
  repoRoot: string,
): Promise<DoctorSettings> {
  const parsed = doctorEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  }
  const e = parsed.data;
  const dataDir = e.FRONTDESK_DATA_DIR ?? defaultDataDir(repoRoot).path;

  const janusText = await readOptional(join(dataDir, 'janus', 'janus.jcfg'));
  const janusFile = janusText
    ? janusFileSchema.safeParse(Object.fromEntries(jcfgValues(janusText)))
    : undefined;
  const janus: DoctorSettings['janus'] = janusFile?.success
    ? {
        iceEnforceList: janusFile.data.ice_enforce_list,
        natPublicIp: janusFile.data.nat_1_1_mapping,
        rtpPorts: janusFile.data.rtp_port_range ?? e.JANUS_RTP_PORTS,
        source: 'running config',
      }
    : {
        iceEnforceList: e.JANUS_ICE_INTERFACES,
        natPublicIp: e.JANUS_PUBLIC_IP,
        rtpPorts: e.JANUS_RTP_PORTS,
        source: 'environment',
      };

  const coturnText = await readOptional(join(dataDir, 'coturn', 'turnserver.conf'));
  const coturnFile = coturnText
    ? coturnFileSchema.safeParse(Object.fromEntries(confValues(coturnText)))
    : undefined;
  const secrets = await readOptional(join(dataDir, 'secrets.json'));
  const secret = secretsFileSchema.safeParse(parseJson(secrets)).data?.turnSecret;
  const turn: DoctorSettings['turn'] = coturnFile?.success
    ? {
        port: coturnFile.data['listening-port'],
        tlsPort: coturnFile.data.cert ? coturnFile.data['tls-listening-port'] : undefined,
        relayPorts: [coturnFile.data['min-port'], coturnFile.data['max-port']],
        secret,
        host: e.TURN_HOST,
        source: 'running config',
      }
    : {
        port: DEFAULT_TURN_PORT,
        tlsPort: e.TURN_TLS_CERT ? DEFAULT_TURNS_PORT : undefined,
        relayPorts: e.TURN_RELAY_PORTS ?? DEFAULT_RELAY_PORTS,
        secret,
        host: e.TURN_HOST,
        source: 'environment',
      };

  const caddyfile = (await readOptional(join(dataDir, 'caddy', 'Caddyfile'))) ?? '';
  const caddyPort = (option: string) =>
    port.safeParse(new RegExp(`^\\s*${option}\\s+(\\d+)\\s*$`, 'm').exec(caddyfile)?.[1]).data;
  const web = {
    httpsPort: caddyPort('https_port') ?? 443,
    httpPort: caddyPort('http_port') ?? 80,
  };

  return {
    dataDir,
    web,
    api: { host: e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST, port: e.PORT },
    publicUrl: e.FRONTDESK_PUBLIC_URL === undefined ? undefined : new URL(e.FRONTDESK_PUBLIC_URL),
    janus,
    turn,
  };
}
