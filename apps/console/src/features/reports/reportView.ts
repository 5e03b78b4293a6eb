import {
  calendarDateSchema,
  recordIdTextSchema,
  REPORT_CUT_OFF_DEFAULTS,
  reportCallsQuerySchema,
  reportSummaryQuerySchema,
  type CallOutcome,
  type ReportCallsQuery,
} from '@frontdesk/protocol';
import type { z } from 'zod';

/**
 * What a report shows, as its address carries it (so a view can be linked or bookmarked): the
 * parameters are the API's own names, but `range`, which a link keeps relative ("the last 7
 * days" stays the last 7 days). Whatever the address holds that the API would refuse is dropped,
 * so a mistyped link still shows a report.
 */

export const RANGE_PRESETS = ['today', '7d', '30d', 'month', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
type Preset = Exclude<RangePreset, 'custom'>;
export const DEFAULT_RANGE: Preset = '7d';

/** The figures' filters, which the calls list shares. */
export type ReportView = {
  range: RangePreset;
  /** Days of the company's calendar, both inclusive. */
  from: string;
  to: string;
  categoryId?: number;
  agentId?: number;
  businessHours: boolean;
  shortAbandonSeconds: number;
  serviceLevelSeconds: number;
  serviceLevelTarget: number;
};

/** The calls list's yes/no filters. */
export const FLAG_FILTERS = [
  'recorded',
  'relayed',
  'held',
  'transferred',
  'poorQuality',
  'rated',
] as const satisfies readonly (keyof ReportCallsQuery)[];
export type FlagFilter = (typeof FLAG_FILTERS)[number];

/** The calls list's filters beyond the figures', in the order an address lists them. */
export const CALL_FILTERS = [
  'outcome',
  'rating',
  ...FLAG_FILTERS,
  'weekday',
  'hour',
] as const satisfies readonly (keyof ReportCallsQuery)[];
export type CallFilter = (typeof CALL_FILTERS)[number];

export type CallsView = ReportView & {
  outcome?: CallOutcome;
  rating?: number;
  weekday?: number;
  hour?: number;
} & Partial<Record<FlagFilter, boolean>>;

/** Today's date (`YYYY-MM-DD`) on the company's calendar. */
export function dayIn(timeZone: string, now: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The days a preset stands for, counted back from today in the company's zone. */
export function presetDays(preset: Preset, today: string) {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
  }
}

const summaryFields = reportSummaryQuerySchema.shape;
const callFields = reportCallsQuerySchema.shape;

/** One parameter of the address, as the API's schema reads it, or `undefined` if it would refuse it. */
function read<S extends z.ZodType>(schema: S, value: string | null): z.output<S> | undefined {
  if (value === null) return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const CUT_OFFS = ['shortAbandonSeconds', 'serviceLevelSeconds', 'serviceLevelTarget'] as const;
type CutOff = (typeof CUT_OFFS)[number];

/** The cut-offs' defaults, as the API applies them when none is sent. */
export const DEFAULT_CUT_OFFS: Readonly<Record<CutOff, number>> = REPORT_CUT_OFF_DEFAULTS;

function resolveRange(
  range: RangePreset,
  from: string | undefined,
  to: string | undefined,
  today: string,
): Pick<ReportView, 'range' | 'from' | 'to'> {
  if (range !== 'custom') return { range, ...presetDays(range, today) };
  if (from && to && from <= to) return { range, from, to };
  return { range: DEFAULT_RANGE, ...presetDays(DEFAULT_RANGE, today) };
}

export function readReportView(params: URLSearchParams, timeZone: string, now: Date): ReportView {
  const range = RANGE_PRESETS.find((preset) => preset === params.get('range')) ?? DEFAULT_RANGE;
  const days = resolveRange(
    range,
    read(calendarDateSchema, params.get('from')),
    read(calendarDateSchema, params.get('to')),
    dayIn(timeZone, now),
  );
  const categoryId = read(recordIdTextSchema, params.get('categoryId'));
  const agentId = read(recordIdTextSchema, params.get('agentId'));
  const cutOff = (name: CutOff) =>
    read(summaryFields[name], params.get(name)) ?? DEFAULT_CUT_OFFS[name];
  return {
    ...days,
    ...(categoryId === undefined ? {} : { categoryId }),
    ...(agentId === undefined ? {} : { agentId }),
    businessHours: params.get('businessHours') === 'true',
    shortAbandonSeconds: cutOff('shortAbandonSeconds'),
    serviceLevelSeconds: cutOff('serviceLevelSeconds'),
    serviceLevelTarget: cutOff('serviceLevelTarget'),
  };
}

export function readCallsView(params: URLSearchParams, timeZone: string, now: Date): CallsView {
  const view: CallsView = readReportView(params, timeZone, now);
  const outcome = read(callFields.outcome, params.get('outcome'));
  const rating = read(callFields.rating, params.get('rating'));
  const flags = FLAG_FILTERS.flatMap((name) => {
    const value = read(callFields[name], params.get(name));
    return value === undefined ? [] : [[name, value] as const];
  });
  const weekday = read(callFields.weekday, params.get('weekday'));
  const hour = read(callFields.hour, params.get('hour'));
  return {
    ...view,
    ...(outcome === undefined ? {} : { outcome }),
    ...(rating === undefined ? {} : { rating }),
    ...(Object.fromEntries(flags) as Partial<Record<FlagFilter, boolean>>),
    ...(weekday === undefined ? {} : { weekday }),
    ...(hour === undefined ? {} : { hour }),
  };
}

/** What the figures and the calls list both send: the range and the shared filters. */
function filterQuery(view: ReportView) {
  return {
    from: view.from,
    to: view.to,
    ...(view.categoryId === undefined ? {} : { categoryId: String(view.categoryId) }),
    ...(view.agentId === undefined ? {} : { agentId: String(view.agentId) }),
    ...(view.businessHours ? { businessHours: 'true' as const } : {}),
  };
}

export function summaryQuery(view: ReportView): z.input<typeof reportSummaryQuerySchema> {
  return {
    ...filterQuery(view),
    shortAbandonSeconds: view.shortAbandonSeconds,
    serviceLevelSeconds: view.serviceLevelSeconds,
    serviceLevelTarget: view.serviceLevelTarget,
  };
}

const flagText = (value: boolean | undefined) =>
  value === undefined ? undefined : value ? ('true' as const) : ('false' as const);

export function callsQuery(
  view: CallsView,
  page: { cursor?: string; format?: 'csv' } = {},
): z.input<typeof reportCallsQuerySchema> {
  const flags = FLAG_FILTERS.flatMap((name) => {
    const text = flagText(view[name]);
    return text ? [[name, text] as const] : [];
  });
  return {
    ...filterQuery(view),
    ...(view.outcome ? { outcome: view.outcome } : {}),
    ...(view.rating === undefined ? {} : { rating: view.rating }),
    ...(Object.fromEntries(flags) as Partial<Record<FlagFilter, 'true' | 'false'>>),
    ...(view.weekday === undefined ? {} : { weekday: view.weekday }),
    ...(view.hour === undefined ? {} : { hour: view.hour }),
    shortAbandonSeconds: view.shortAbandonSeconds,
    ...page,
  };
}

/**
 * The address of a view: the range as chosen (a preset, or its days when custom), the filters
 * set, and the cut-offs only where they differ from the defaults (short links for the usual).
 */
export function viewParams(view: CallsView): URLSearchParams {
  const params = new URLSearchParams({ range: view.range });
  if (view.range === 'custom') {
    params.set('from', view.from);
    params.set('to', view.to);
  }
  const entries: [string, unknown][] = [
    ['categoryId', view.categoryId],
    ['agentId', view.agentId],
    ['businessHours', view.businessHours || undefined],
    ...CUT_OFFS.map((name): [string, unknown] => [
      name,
      view[name] === DEFAULT_CUT_OFFS[name] ? undefined : view[name],
    ]),
    ...CALL_FILTERS.map((name): [string, unknown] => [name, view[name]]),
  ];
  for (const [name, value] of entries) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}
