import type { DoctorReport, IceServer } from '@frontdesk/protocol';
import { callIceServers, type IceConfig } from '../calls/ice-servers.ts';
import { ok, runChecks, warn, type Check } from './check.ts';
import { clockCheck, dataDirChecks } from './host.ts';
import { publicUrlChecks, type PublicUrlTarget } from './public-url.ts';

/** What the API's self-test looks at, from its configuration (config.ts). */
export type ApiDoctorSettings = {
  dataDir: string;
  publicSide: { url: URL | undefined; natAddresses: readonly string[] };
  ice: IceConfig;
};

/** The relay credentials of the console's check are good for this long: it takes seconds. */
const CHECK_CREDENTIAL_SECONDS = 300;

/**
 * What the API process cannot see from where it runs; `npm run doctor` on the server, or the
 * console's own relay check, does.
 */
export const API_NOT_CHECKED: readonly string[] = [
  'Listening ports (API, TURN 3478/5349, Janus RTP range), TURN allocations from the server, Janus’s public candidates and Debian packages: run npm run doctor on the server.',
  'Whether firewalls let UDP in from the internet: the relay check here shows it from this browser’s network; a call from outside shows it for Janus.',
];

function turnConfiguredCheck(ice: IceConfig): Check {
  return {
    id: 'turn.configured',
    title: 'TURN relay configured',
    fixOnError: 'Set TURN_URLS and TURN_SECRET (npm start sets them for its coturn).',
    run: async () =>
      ice.turnUrls.length > 0 && ice.turnSecret !== null
        ? ok(`browsers are given ${ice.turnUrls.join(', ')}`)
        : warn(
            'no TURN relay (TURN_URLS): guests behind strict firewalls or NATs cannot connect',
            'Set TURN_URLS and TURN_SECRET for your TURN server (npm start sets them for its coturn).',
          ),
  };
}

/** The checks the API makes on its own machine, from its own configuration. */
export function apiChecks(settings: ApiDoctorSettings): Check[] {
  const { url, natAddresses } = settings.publicSide;
  const target: PublicUrlTarget | undefined = url && { url, natAddresses };
  return [
    ...(target ? publicUrlChecks(target) : []),
    turnConfiguredCheck(settings.ice),
    clockCheck(target),
    ...dataDirChecks(settings.dataDir),
  ];
}

/**
 * The TURN servers for the admin's browser to gather relay candidates from: credentials minted
 * as a call's are (decision 0015), named after the check and its admin in coturn's log, and
 * short-lived. No STUN: a relay candidate is the only proof wanted.
 */
export function doctorIceServers(ice: IceConfig, staffId: number, now = Date.now()): IceServer[] {
  return callIceServers(
    { ...ice, stunUrl: null, turnTtlSeconds: CHECK_CREDENTIAL_SECONDS },
    `doctor-${staffId}`,
    'agent',
    now,
  );
}

/** `GET /api/admin/doctor`'s answer for one admin. */
export async function apiDoctorReport(
  settings: ApiDoctorSettings,
  staffId: number,
): Promise<DoctorReport> {
  const checks = await runChecks(apiChecks(settings));
  return {
    checkedAt: new Date().toISOString(),
    checks,
    iceServers: doctorIceServers(settings.ice, staffId),
    notChecked: [...API_NOT_CHECKED],
  };
}
