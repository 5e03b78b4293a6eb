import type { DoctorCheck } from '@frontdesk/protocol';

/** What a check found: `detail` always, and the one-line `fix` whenever it is not ok. */
export type Outcome =
  { status: 'ok'; detail: string } | { status: 'warn' | 'fail'; detail: string; fix: string };

/** One self-test check: run by `npm run doctor` and, where it makes sense, by the API. */
export type Check = {
  id: string;
  title: string;
  run: () => Promise<Outcome>;
  /** What to do when `run` throws or overruns, which says nothing of its own. */
  fixOnError: string;
};

export const ok = (detail: string): Outcome => ({ status: 'ok', detail });
export const warn = (detail: string, fix: string): Outcome => ({ status: 'warn', detail, fix });
export const fail = (detail: string, fix: string): Outcome => ({ status: 'fail', detail, fix });

/** One check made of several looks: the worst of them (fail > warn > ok), every detail, every fix. */
export function worst(outcomes: readonly Outcome[]): Outcome {
  const detail = outcomes.map((o) => o.detail).join('; ');
  const fixes = [...new Set(outcomes.flatMap((o) => (o.status === 'ok' ? [] : [o.fix])))];
  if (fixes.length === 0) return ok(detail);
  const status = outcomes.some((o) => o.status === 'fail') ? 'fail' : 'warn';
  return { status, detail, fix: fixes.join(' ') };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs the checks side by side, each bounded by `timeoutMs`: a check that throws or hangs is a
 * FAIL of its own and never holds up the others (an operator runs this when things are broken).
 */
export async function runChecks(
  checks: readonly Check[],
  timeoutMs = 15_000,
): Promise<DoctorCheck[]> {
  return Promise.all(
    checks.map(async (check): Promise<DoctorCheck> => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<Outcome>((resolve) => {
        timer = setTimeout(
          () =>
            resolve(fail(`no answer within ${Math.round(timeoutMs / 1000)} s`, check.fixOnError)),
          timeoutMs,
        );
      });
      const outcome = await Promise.race([
        check.run().catch((error: unknown) => fail(message(error), check.fixOnError)),
        deadline,
      ]);
      clearTimeout(timer);
      return { id: check.id, title: check.title, ...outcome };
    }),
  );
}
