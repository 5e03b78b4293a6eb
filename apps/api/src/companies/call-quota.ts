import { sql, type Kysely } from 'kysely';
import type { Quota } from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { requireCompany } from './company-repository.ts';

/** This month of the company's calendar and how many calls it has started. */
export type MonthUse = { used: number; monthStartedAt: Date; timeZone: string };

/**
 * Calls started this calendar month, as `call-report/add` counts them against the monthly quota
 * and the admin sees them: chain roots that were let through (a transferred call continues its
 * chain and so counts once). The month is the company's own, in its timetable's time zone, and
 * UTC's for a company without a timetable, so it turns at the company's midnight of the 1st.
 */
export async function callsThisMonth(db: Kysely<Database>, companyId: number): Promise<MonthUse> {
  const { rows } = await sql<{ time_zone: string; month_started_at: Date }>`
    select zone.name as time_zone, date_trunc('month', now(), zone.name) as month_started_at
    from (select coalesce(
      (select time_zone from schedules where company_id = ${companyId}), 'UTC') as name) zone
  `.execute(db);
  const month = rows[0];
  if (!month) throw new Error('the month query answered no row');
  const { count } = await db
    .selectFrom('call_reports')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('company_id', '=', companyId)
    .where('status', '=', 'ok')
    .whereRef('origin_call_id', '=', 'call_id')
    .where('created_at', '>=', month.month_started_at)
    .executeTakeFirstOrThrow();
  return { used: Number(count), monthStartedAt: month.month_started_at, timeZone: month.time_zone };
}

/** `GET /company/:id/quota`: the monthly limit and this month's use. */
export async function quotaOf(db: Kysely<Database>, companyId: number): Promise<Quota> {
  const [company, month] = await Promise.all([
    requireCompany(db, companyId),
    callsThisMonth(db, companyId),
  ]);
  return {
    monthlyCallQuota: company.monthly_call_quota,
    usedThisMonth: month.used,
    monthStartedAt: month.monthStartedAt.toISOString(),
    timeZone: month.timeZone,
  };
}

/** `PUT /company/:id/quota`: sets the monthly limit, or lifts it (`null`). */
export async function setQuota(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  monthlyCallQuota: number | null,
): Promise<{ version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const before = await requireCompany(trx, companyId);
    await trx
      .updateTable('companies')
      .set({ monthly_call_quota: monthlyCallQuota })
      .where('id', '=', companyId)
      .execute();
    return {
      action: 'company.quota',
      target: `company ${companyId}`,
      before: { monthlyCallQuota: before.monthly_call_quota },
      after: { monthlyCallQuota },
      result: null,
    };
  });
}
