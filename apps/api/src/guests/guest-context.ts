import { sql, type Kysely } from 'kysely';
import {
  companySettingsSchema,
  type Answers,
  type FormField,
  type GeofenceArea,
  type GuestContext,
  type PastCall,
} from '@frontdesk/protocol';
import { requireCompany } from '../companies/company-repository.ts';
import type { Database } from '../db/schema.ts';
import { NotFoundError } from '../domain-errors.ts';
import { latestWelcomeBefore } from '../forms/submissions.ts';
import { listServiceZones } from '../geofence/location-check.ts';
import { zoneContaining } from '../geofence/zones.ts';
import { answeredFields } from '../reports/call-detail.ts';
import { describeUserAgent } from './user-agent.ts';

/** The panel lists this many of the guest's earlier conversations, newest first. */
const PAST_CALLS_SHOWN = 10;

/**
 * The guest's name among its answers: the form's field called `name`, else the first text field
 * whose name or label speaks of a name (`fullName`, "Your name").
 */
export function nameAnswer(fields: readonly FormField[], answers: Answers): string | null {
  const texts = fields.filter((field) => field.type === 'text');
  const field =
    texts.find((f) => f.name.toLowerCase() === 'name') ??
    texts.find((f) => /name/i.test(f.name) || /\bname\b/i.test(f.label));
  const value = field && answers[field.name];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** Whether the company serves the position, and in which of its zones (none: everywhere). */
function serviceAreaAt(zones: { name: string; area: GeofenceArea }[], lat: number, lng: number) {
  if (zones.length === 0) return { inside: true, zone: null };
  const zone = zoneContaining(zones, lat, lng);
  return { inside: zone !== undefined, zone: zone?.name ?? null };
}

type PastRow = {
  call_id: string;
  created_at: Date;
  call_type: 'voice' | 'video' | null;
  answered: boolean;
  live: boolean;
  rating: number | null;
  notes: string | null;
  agent_name: string | null;
  category_name: string | null;
};

/**
 * `GET /api/calls/:callId/guest-context`: the guest of a call of `companyId` as the agent's panel
 * shows it — its name and welcome answers (option labels, verified ones marked) as given last
 * before the call, its earlier conversations with their outcome, rating and notes, where it was
 * if the company asks for the location, and its browser. SECURITY: a call of any other company
 * is as unknown as one that never was (404).
 */
export async function guestContextOf(
  db: Kysely<Database>,
  companyId: number,
  callId: string,
): Promise<GuestContext> {
  const call = await db
    .selectFrom('call_reports as r')
    .innerJoin('call_reports as o', 'o.call_id', 'r.origin_call_id')
    .innerJoin('guests as g', 'g.id', 'r.guest_id')
    .select([
      'r.call_id',
      'r.guest_id',
      'o.created_at as origin_at',
      'o.call_id as origin_call_id',
      'g.username',
      'g.inside_zone_at',
      'g.location_lat',
      'g.location_lng',
      'g.location_accuracy',
      (eb) =>
        eb
          .selectFrom('call_reports as l')
          .select('l.guest_user_agent')
          .whereRef('l.origin_call_id', '=', 'r.origin_call_id')
          .where('l.guest_user_agent', 'is not', null)
          .orderBy('l.created_at', 'desc')
          .limit(1)
          .as('user_agent'),
    ])
    .where('r.call_id', '=', callId)
    .where('r.company_id', '=', companyId)
    .executeTakeFirst();
  if (!call) throw new NotFoundError('call_not_found', `There is no call ${callId}.`);

  const [company, welcome, past, count] = await Promise.all([
    requireCompany(db, companyId),
    // The welcome answers the guest gave last before the call (a transfer keeps them).
    latestWelcomeBefore(db, companyId, call.guest_id, call.origin_at),
    sql<PastRow>`
      select o.call_id, o.created_at, o.call_type,
        bool_or(l.answered_at is not null) as answered,
        bool_or(l.ended_at is null) as live,
        max(l.rating) as rating,
        string_agg(nullif(trim(l.notes), ''), E'\n\n' order by l.created_at) as notes,
        (array_agg(a.name order by l.answered_at desc nulls last))[1] as agent_name,
        (array_agg(k.name order by l.created_at))[1] as category_name
      from call_reports o
      join call_reports l on l.origin_call_id = o.call_id and l.company_id = o.company_id
      left join staff a on a.id = l.agent_id
      left join categories k on k.id = l.category_id
      where o.company_id = ${companyId} and o.guest_id = ${call.guest_id} and o.status = 'ok'
        and o.origin_call_id = o.call_id and o.call_id <> ${call.origin_call_id}
        and o.created_at < ${call.origin_at}
      group by o.id
      order by o.created_at desc, o.id desc
      limit ${PAST_CALLS_SHOWN}`.execute(db),
    db
      .selectFrom('call_reports')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('company_id', '=', companyId)
      .where('guest_id', '=', call.guest_id)
      .where('status', '=', 'ok')
      .whereRef('origin_call_id', '=', 'call_id')
      .where('call_id', '<>', call.origin_call_id)
      .where('created_at', '<', call.origin_at)
      .executeTakeFirstOrThrow(),
  ]);

  const verified = new Set(welcome?.verified_fields ?? []);
  const { requestLocation } = companySettingsSchema.parse(company.settings);
  const { location_lat: lat, location_lng: lng, inside_zone_at: at } = call;
  // The zones as the company keeps them now: the agent asks whether it serves the guest today.
  const zones = requestLocation ? await listServiceZones(db, companyId) : [];
  return {
    callId: call.call_id,
    guestUsername: call.username,
    name: welcome ? nameAnswer(welcome.fields, welcome.answers) : null,
    answers: welcome
      ? answeredFields(welcome.fields, welcome.answers).map((answer) => ({
          ...answer,
          verified: verified.has(answer.name),
        }))
      : [],
    previousCallCount: Number(count.count),
    previousCalls: past.rows.map((row): PastCall => ({
      callId: row.call_id,
      at: row.created_at.toISOString(),
      callType: row.call_type,
      outcome: row.live ? 'live' : row.answered ? 'answered' : 'abandoned',
      category: row.category_name,
      agent: row.agent_name,
      rating: row.rating,
      notes: row.notes,
    })),
    location:
      requestLocation && lat !== null && lng !== null && at !== null
        ? {
            lat,
            lng,
            accuracy: call.location_accuracy,
            at: at.toISOString(),
            serviceArea: serviceAreaAt(zones, lat, lng),
          }
        : null,
    client: call.user_agent ? describeUserAgent(call.user_agent) : null,
  };
}
