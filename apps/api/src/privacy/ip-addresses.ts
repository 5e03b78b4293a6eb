import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { companySettingsSchema } from '@frontdesk/protocol';
import { requireCompany } from '../companies/company-repository.ts';
import type { Database } from '../db/schema.ts';

/** What stands in for an address the company does not keep. */
export const ADDRESS_MASK = '[address]';

/**
 * Runs of the characters addresses are written with, each then checked with `isIP`; not right
 * after a letter, `/` or `-`, where it is a version (`Chrome/131.0.0.0`, `v1.2.3.4`).
 */
const ADDRESS_LIKE = /(?<![\w/-])[0-9A-Fa-f:.]{3,}/g;

/** `run`, or the mask when it is an address, with a port (`203.0.113.7:5000`) or a full stop. */
function maskRun(run: string): string {
  const trimmed = run.replace(/[.:]+$/, '');
  const tail = run.slice(trimmed.length);
  if (isIP(trimmed) !== 0) return `${ADDRESS_MASK}${tail}`;
  const portAt = trimmed.lastIndexOf(':');
  if (portAt > 0 && isIP(trimmed.slice(0, portAt)) === 4) {
    return `${ADDRESS_MASK}${trimmed.slice(portAt)}${tail}`;
  }
  return run;
}

/**
 * `value` with every IPv4 and IPv6 address in its strings replaced by {@link ADDRESS_MASK}, at
 * any depth: an SDP's candidates and connection lines, a browser log's lines (decision 0033).
 * Candidate types, ports and everything else stay, so a failed call can still be diagnosed.
 */
export function withoutAddresses<T>(value: T): T;
export function withoutAddresses(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(ADDRESS_LIKE, maskRun);
  if (Array.isArray(value)) return value.map((item: unknown) => withoutAddresses(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withoutAddresses(item)]),
    );
  }
  return value;
}

/** Whether the company keeps the addresses its guests' diagnostics carry (`keepIpAddresses`). */
export async function keepsIpAddresses(db: Kysely<Database>, companyId: number): Promise<boolean> {
  const company = await requireCompany(db, companyId);
  return companySettingsSchema.parse(company.settings).keepIpAddresses;
}

/** `value` as the company keeps it: as sent when it keeps addresses, else without them. */
export async function asCompanyKeepsAddresses<T>(
  db: Kysely<Database>,
  companyId: number,
  value: T,
): Promise<T> {
  return (await keepsIpAddresses(db, companyId)) ? value : withoutAddresses(value);
}
