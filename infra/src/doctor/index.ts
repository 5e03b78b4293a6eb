// `npm run doctor`: the self-test of one installation (docs/operations.md, "Self-test"). The
// checks that make sense wherever the API runs come from `@frontdesk/api/doctor` (the API
// answers them to admins too); the ones here need the operator's view of the machine.
import {
  clockCheck,
  dataDirChecks,
  publicUrlChecks,
  runChecks,
  type Check,
} from '@frontdesk/api/doctor';
import type { DoctorCheck } from '@frontdesk/protocol';
import { janusChecks } from './janus.ts';
import { packageChecks } from './packages.ts';
import { notCheckedFromHere, portChecks } from './ports.ts';
import type { DoctorSettings } from './settings.ts';
import { turnChecks } from './turn.ts';

export { loadDoctorSettings, type DoctorSettings } from './settings.ts';
export { formatReport } from './report.ts';

/** Every check of `npm run doctor`, in the order they are printed. */
export function doctorChecks(settings: DoctorSettings): Check[] {
  const natAddresses = (settings.janus.natPublicIp ?? '')
    .split(',')
    .map((ip) => ip.trim())
    .filter(Boolean);
  const target = settings.publicUrl && {
    url: settings.publicUrl,
    natAddresses,
    httpPort: settings.web.httpPort,
  };
  return [
    ...(target ? publicUrlChecks(target) : []),
    ...portChecks(settings),
    ...turnChecks(settings),
    ...janusChecks(settings),
    clockCheck(target),
    ...dataDirChecks(settings.dataDir),
    ...packageChecks(settings.publicUrl !== undefined),
  ];
}

/** Runs every check; the results in order, and what this machine cannot check. */
export async function runDoctor(
  settings: DoctorSettings,
): Promise<{ checks: DoctorCheck[]; notChecked: string[] }> {
  return {
    checks: await runChecks(doctorChecks(settings)),
    notChecked: notCheckedFromHere(settings),
  };
}
