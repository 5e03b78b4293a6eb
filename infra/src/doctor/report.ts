import type { DoctorCheck, DoctorStatus } from '@frontdesk/protocol';

const LABEL: Record<DoctorStatus, string> = { ok: 'OK  ', warn: 'WARN', fail: 'FAIL' };
const COLOUR: Record<DoctorStatus, string> = { ok: '32', warn: '33', fail: '31' };

/**
 * The results as the terminal shows them: one line per check with OK, WARN or FAIL, its fix
 * under each that is not OK, what could not be checked, and the tally.
 */
export function formatReport(
  checks: readonly DoctorCheck[],
  notChecked: readonly string[],
  { colour = false }: { colour?: boolean } = {},
): string {
  const paint = (status: DoctorStatus, text: string) =>
    colour ? `\u001b[${COLOUR[status]}m${text}\u001b[0m` : text;
  const width = Math.max(...checks.map((c) => c.title.length));
  const lines = checks.flatMap((check) => [
    `${paint(check.status, LABEL[check.status])}  ${check.title.padEnd(width)}  ${check.detail}`,
    ...(check.fix ? [`${' '.repeat(6 + width + 2)}fix: ${check.fix}`] : []),
  ]);
  const count = (status: DoctorStatus) => checks.filter((c) => c.status === status).length;
  return [
    ...lines,
    '',
    'Not checked from this machine:',
    ...notChecked.map((line) => `  - ${line}`),
    '',
    `${count('ok')} OK, ${count('warn')} WARN, ${count('fail')} FAIL`,
  ].join('\n');
}
