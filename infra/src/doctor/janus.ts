import { isIP } from 'node:net';
import { ok, resolvePublicName, warn, type Check, type Outcome } from '@frontdesk/api/doctor';
import { janusAddresses } from '../coturn.ts';
import type { DoctorSettings } from './settings.ts';

/** Private, shared and link-local IPv4 ranges: a browser elsewhere cannot reach them directly. */
function isPrivate(address: string): boolean {
  if (isIP(address) !== 4) return /^f[cd]|^fe80/i.test(address);
  const [a = 0, b = 0] = address.split('.').map(Number);
  return (
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254)
  );
}

/**
 * The addresses Janus puts in its ICE candidates (`nat_1_1_mapping`, else its interfaces'),
 * against the address the public name resolves to, which browsers can reach. A mismatch does
 * not stop calls while the TURN relay works (coturn relays to Janus's own addresses), but every
 * call then needs the relay.
 */
async function checkJanusCandidates(settings: DoctorSettings): Promise<Outcome> {
  const { natPublicIp, iceEnforceList, source } = settings.janus;
  const announced = janusAddresses(iceEnforceList, natPublicIp);
  const how = natPublicIp ? `nat_1_1_mapping ${natPublicIp}` : 'its interfaces';
  if (announced.length === 0) {
    return warn(
      `Janus has no non-loopback address to announce (${source})`,
      'Unset JANUS_ICE_INTERFACES, or name an interface that has an address.',
    );
  }
  const list = announced.join(', ');
  if (!settings.publicUrl) {
    return ok(`local mode: Janus announces ${list} (${how})`);
  }
  const name = settings.publicUrl.hostname;
  const natAddresses = natPublicIp ? natPublicIp.split(',').map((ip) => ip.trim()) : [];
  const { addresses } = await resolvePublicName({ url: settings.publicUrl, natAddresses });
  if (announced.some((a) => addresses.includes(a))) {
    return ok(`Janus announces ${list} (${how}); ${name} resolves there too`);
  }
  const publicAddress = addresses[0] ?? '?';
  const fix = natPublicIp
    ? `Set JANUS_PUBLIC_IP=${publicAddress} (the address ${name} resolves to) and restart npm start.`
    : announced.every(isPrivate)
      ? `This machine is behind a NAT: set JANUS_PUBLIC_IP=${publicAddress} and restart npm start.`
      : `Unset JANUS_ICE_INTERFACES, or include the interface with ${publicAddress}, and restart npm start.`;
  return warn(
    `Janus announces ${list} (${how}) but ${name} resolves to ${addresses.join(', ')}: browsers reach Janus only through the TURN relay`,
    fix,
  );
}

export function janusChecks(settings: DoctorSettings): Check[] {
  return [
    {
      id: 'janus.candidates',
      title: 'Janus public candidates',
      run: () => checkJanusCandidates(settings),
      fixOnError: 'Set JANUS_PUBLIC_IP to the address browsers reach this machine at.',
    },
  ];
}
