import { z } from 'zod';
import { callIdSchema } from './call-id.ts';
import { callTypeSchema } from './call-report.ts';
import { callMethodSchema } from './company.ts';
import { recordIdSchema, recordIdTextSchema } from './ids.ts';
import { uploadTypeSchema } from './upload.ts';
import { callQualityBodySchema } from './call-quality.ts';

/**
 * Reports (issue 17, docs/reports.md): the company's figures, its calls one by one, the quality
 * each side measured, recordings and the live wallboard. A conversation is one chain of call
 * reports (its origin and the legs a hold or transfer added); figures count conversations, and
 * name the chain by its origin call id.
 */

/** The moments of a call that its report has no column for (table `call_events`). */
export const callEventKindSchema = z.enum(['offered', 'held', 'resumed', 'transfer_requested']);
export type CallEventKind = z.infer<typeof callEventKindSchema>;

/**
 * Who ended a call leg; `server` for a newer call of the guest or a hold-call, `absence` when
 * neither side was in the call's chat room for the reload grace (decision 0037).
 */
export const callEndedBySchema = z.enum(['guest', 'agent', 'server', 'absence']);
export type CallEndedBy = z.infer<typeof callEndedBySchema>;

/** Which side measured a call's media. */
export const callSideSchema = z.enum(['guest', 'agent']);
export type CallSide = z.infer<typeof callSideSchema>;

/** The merge of a recorded call into one film, as a durable job runs it. */
export const recordingStatusSchema = z.enum(['pending', 'ready', 'failed', 'empty']);
export type RecordingStatus = z.infer<typeof recordingStatusSchema>;

const count = z.number().int().nonnegative();
const milliseconds = z.number().int().nonnegative();

/** A day (`2026-11-01`, in the company's time zone) or an instant with its offset. */
const reportInstantSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

const flagSchema = z.enum(['true', 'false']).transform((value) => value === 'true');

/**
 * The range and filters every report takes. `from` is inclusive, `to` exclusive when an instant
 * and inclusive when a day (so `from=2026-11-01&to=2026-11-30` is November). `businessHours`
 * counts only conversations that began within the company's opening hours.
 */
export const reportFilterSchema = z.strictObject({
  from: reportInstantSchema,
  to: reportInstantSchema,
  categoryId: recordIdTextSchema.optional(),
  agentId: recordIdTextSchema.optional(),
  businessHours: flagSchema.optional(),
});

/**
 * The cut-offs' defaults: a short abandon under 5 s, and a service level of 80 % answered within
 * 20 s. The summary applies them when a query sets none, and the live wallboard always.
 */
export const REPORT_CUT_OFF_DEFAULTS = {
  shortAbandonSeconds: 5,
  serviceLevelSeconds: 20,
  serviceLevelTarget: 0.8,
} as const;

/** The cut-offs a contact centre sets for itself ({@link REPORT_CUT_OFF_DEFAULTS} when unset). */
const cutOffsSchema = z.strictObject({
  /** A guest who gave up sooner than this is a short abandon: shown apart, not counted. */
  shortAbandonSeconds: z.coerce
    .number()
    .int()
    .min(0)
    .max(600)
    .default(REPORT_CUT_OFF_DEFAULTS.shortAbandonSeconds),
  serviceLevelSeconds: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(REPORT_CUT_OFF_DEFAULTS.serviceLevelSeconds),
  serviceLevelTarget: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(REPORT_CUT_OFF_DEFAULTS.serviceLevelTarget),
});

const inOrder = (query: { from: string; to: string }) => query.from <= query.to;
const inOrderIssue = { message: 'must not be before from', path: ['to'] };

/** `GET /api/reports/summary`. */
export const reportSummaryQuerySchema = reportFilterSchema
  .extend(cutOffsSchema.shape)
  .refine(inOrder, inOrderIssue);
export type ReportSummaryQuery = z.infer<typeof reportSummaryQuerySchema>;

const ratio = z.number().min(0).max(1);

export const ratingFormFieldSummarySchema = z.object({
  name: z.string(),
  label: z.string(),
  type: z.string(),
  responses: count,
  /** Choices (and yes/no) by value, with the count of each. */
  counts: z.array(z.object({ value: z.string(), label: z.string(), count })).optional(),
  /** Ratings and numbers. */
  average: z.number().nullable().optional(),
});

export const agentFiguresSchema = z.object({
  agentId: recordIdSchema,
  name: z.string(),
  answered: count,
  averageHandleTimeMs: milliseconds.nullable(),
  csat: z.object({ responses: count, score: ratio.nullable() }),
  /** Round-robin offers that ran out without this agent taking the call. */
  missedOffers: count,
});
export type AgentFigures = z.infer<typeof agentFiguresSchema>;

/** The figures of `GET /api/reports/summary` (docs/reports.md defines each). */
export const reportSummarySchema = z.object({
  range: z.object({ from: z.iso.datetime(), to: z.iso.datetime(), timeZone: z.string() }),
  /** Conversations let through (refused ones are counted in `refused`), short abandons included. */
  calls: count,
  answered: count,
  /** Conversations the guest left unanswered after the short-abandon cut-off. */
  abandoned: count,
  shortAbandoned: count,
  /** Conversations still waiting or in a call at the end of the range. */
  live: count,
  refused: z.object({ blocked: count, outOfQuota: count }),
  /** abandoned / (answered + abandoned); `null` with neither. */
  abandonmentRate: ratio.nullable(),
  averageSpeedOfAnswerMs: milliseconds.nullable(),
  serviceLevel: z.object({
    thresholdSeconds: z.number().int(),
    target: ratio,
    /** Answered within the threshold / (answered + abandoned); `null` with neither. */
    ratio: ratio.nullable(),
  }),
  averageHandleTimeMs: milliseconds.nullable(),
  holds: z.object({
    count,
    calls: count,
    totalMs: milliseconds,
    averageMs: milliseconds.nullable(),
  }),
  transfers: count,
  csat: z.object({
    responses: count,
    /** responses / answered. */
    responseRate: ratio.nullable(),
    /** Share of ratings of 4 or 5 (stars and emojis alike are 1–5). */
    score: ratio.nullable(),
    average: z.number().nullable(),
    /** How many ratings of 1, 2, 3, 4 and 5. */
    distribution: z.array(count).length(5),
  }),
  ratingForms: z.array(
    z.object({
      formId: recordIdSchema,
      title: z.string(),
      responses: count,
      fields: z.array(ratingFormFieldSummarySchema),
    }),
  ),
  /** Conversations by weekday (0 Sunday) and hour of the company's time zone; empty cells left out. */
  heatmap: z.array(
    z.object({
      weekday: z.number().int().min(0).max(6),
      hour: z.number().int().min(0).max(23),
      calls: count,
    }),
  ),
  agents: z.array(agentFiguresSchema),
  quality: z.object({
    /** Conversations with at least one side's quality report. */
    measured: count,
    relayed: count,
    /** Flagged poor: ICE failed, loss over 5 %, round trip over 400 ms or set-up over 5 s. */
    poor: count,
    setupMs: z.object({ median: milliseconds.nullable(), p95: milliseconds.nullable() }),
    roundTripMs: z.object({ median: milliseconds.nullable(), p95: milliseconds.nullable() }),
    lossRatio: z.object({ median: ratio.nullable(), p95: ratio.nullable() }),
  }),
  recordings: z.object({ ready: count, pending: count, failed: count }),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** What happened to a conversation, as the call list filters and shows it. */
export const callOutcomeSchema = z.enum([
  'answered',
  'abandoned',
  'shortAbandoned',
  'live',
  'blocked',
  'outOfQuota',
]);
export type CallOutcome = z.infer<typeof callOutcomeSchema>;

/** `GET /api/reports/calls`: the conversations of the range, newest first, `limit` a page. */
export const reportCallsQuerySchema = reportFilterSchema
  .extend({
    outcome: callOutcomeSchema.optional(),
    rating: z.coerce.number().int().min(1).max(5).optional(),
    recorded: flagSchema.optional(),
    relayed: flagSchema.optional(),
    /** Put on hold at least once. */
    held: flagSchema.optional(),
    /** Transferred at least once. */
    transferred: flagSchema.optional(),
    /** Flagged poor, as the summary's `quality.poor` counts. */
    poorQuality: flagSchema.optional(),
    /** The guest gave a rating (of any value; `rating` names one). */
    rated: flagSchema.optional(),
    /** A heatmap cell: weekday (0 Sunday) and hour, in the company's time zone. */
    weekday: z.coerce.number().int().min(0).max(6).optional(),
    hour: z.coerce.number().int().min(0).max(23).optional(),
    /** From the previous page's `nextCursor`. */
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    /** `csv` streams every matching conversation as one file, without paging. */
    format: z.enum(['json', 'csv']).default('json'),
    shortAbandonSeconds: cutOffsSchema.shape.shortAbandonSeconds,
  })
  .refine(inOrder, inOrderIssue);
export type ReportCallsQuery = z.infer<typeof reportCallsQuerySchema>;

const person = z.object({ id: recordIdSchema, name: z.string() });

const instant = z.iso.datetime();

/** One conversation in the list, and one row of the CSV. */
export const reportCallSchema = z.object({
  /** The conversation's origin call id. */
  callId: z.string(),
  startedAt: instant,
  answeredAt: instant.nullable(),
  endedAt: instant.nullable(),
  waitMs: milliseconds.nullable(),
  handleMs: milliseconds.nullable(),
  outcome: callOutcomeSchema,
  callType: callTypeSchema.nullable(),
  /** The agent who answered first. */
  agent: person.nullable(),
  category: person.nullable(),
  rating: z.number().int().min(1).max(5).nullable(),
  holds: count,
  transfers: count,
  recorded: z.boolean(),
  /** Some side used a TURN relay; `null` when neither reported its media. */
  relayed: z.boolean().nullable(),
  /** How the call's media travelled (decision 0045): the conversation's first leg's method. */
  callMethod: callMethodSchema,
  setupMs: milliseconds.nullable(),
  roundTripMs: milliseconds.nullable(),
  lossRatio: ratio.nullable(),
  poorQuality: z.boolean(),
});
export type ReportCall = z.infer<typeof reportCallSchema>;

export const reportCallPageSchema = z.object({
  calls: z.array(reportCallSchema),
  /** Pass as `cursor` for the next (older) page; `null` on the last. */
  nextCursor: z.string().nullable(),
});

/** The column order of the CSV export (its header row). */
export const REPORT_CSV_COLUMNS = [
  'call_id',
  'started_at',
  'answered_at',
  'ended_at',
  'wait_seconds',
  'handle_seconds',
  'outcome',
  'call_type',
  'agent',
  'category',
  'rating',
  'holds',
  'transfers',
  'recorded',
  'relayed',
  'setup_ms',
  'round_trip_ms',
  'loss_ratio',
  'call_method',
] as const;

export const reportCallParamsSchema = z.strictObject({ callId: callIdSchema });

const timelineMoment = {
  at: instant,
  /** The call leg it happened in. */
  callId: z.string(),
  staff: person.nullable(),
};

/**
 * Where a transfer sent the guest, or was asked to: an agent or a category, by its name now
 * (null when it is no longer there). Data, not words: the console says it in its language.
 */
export const timelineTargetSchema = z.strictObject({
  type: z.enum(['agent', 'category']),
  name: z.string().nullable(),
});
export type TimelineTarget = z.infer<typeof timelineTargetSchema>;

/**
 * One moment of a call. The moments that tell more carry it as data of their own: a transfer its
 * `target` (null when the asked target is not the company's), an end who ended it (`endedBy`,
 * null when the report does not say), a rating its value.
 */
export const timelineEntrySchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...timelineMoment,
    kind: z.enum([
      'initiated',
      'queued',
      'offered',
      'offer_missed',
      'answered',
      'held',
      'resumed',
      'bug_reported',
    ]),
  }),
  z.strictObject({
    ...timelineMoment,
    kind: z.enum(['transfer_requested', 'transferred']),
    target: timelineTargetSchema.nullable(),
  }),
  z.strictObject({
    ...timelineMoment,
    kind: z.enum(['ended', 'abandoned']),
    endedBy: callEndedBySchema.nullable(),
  }),
  z.strictObject({
    ...timelineMoment,
    kind: z.literal('rated'),
    rating: z.number().int().min(1).max(5).nullable(),
  }),
]);
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

const answerSchema = z.object({ name: z.string(), label: z.string(), value: z.string() });

export const callQualityReportSchema = callQualityBodySchema.extend({
  role: callSideSchema,
  callId: z.string(),
  reportedAt: instant,
});
export type CallQualityReport = z.infer<typeof callQualityReportSchema>;

export const recordingSchema = z.object({
  callId: z.string(),
  status: recordingStatusSchema,
  sizeBytes: count.nullable(),
  durationMs: milliseconds.nullable(),
  attempts: count,
  /** Why the last merge failed (`failed`). */
  error: z.string().nullable(),
  /**
   * Where to play the film (`ready` only; HTTP range requests seek), valid for a few minutes and
   * for the admin it was given to: a `<video>` sends no Authorization header. Add
   * `&download=true` to save it. Each play and download is in the audit log.
   */
  url: z.string().nullable(),
  /**
   * When the company's retention period deleted the film (decision 0031): the leg stays
   * recorded in the reports, with no `url`. Absent while the film is kept.
   */
  expiredAt: z.string().optional(),
});
export type Recording = z.infer<typeof recordingSchema>;

/** `GET /api/reports/calls/:callId`: one conversation whole, for its page. */
export const reportCallDetailSchema = z.object({
  call: reportCallSchema,
  guest: z.object({ username: z.string(), previousCalls: count }),
  legs: z.array(
    z.object({
      callId: z.string(),
      createdAt: instant,
      answeredAt: instant.nullable(),
      endedAt: instant.nullable(),
      agent: person.nullable(),
      category: person.nullable(),
      notes: z.string().nullable(),
      /** The agent's wrap-up (issue 19 item 3): the outcome by its label, the follow-up. */
      wrapUp: z
        .object({
          outcomeCode: z.string().nullable(),
          outcomeLabel: z.string().nullable(),
          followUp: z.boolean(),
          followUpNote: z.string().nullable(),
        })
        .nullable()
        .optional(),
    }),
  ),
  timeline: z.array(timelineEntrySchema),
  /** The welcome form's answers with its labels (option labels, not raw values). */
  welcomeAnswers: z.array(answerSchema),
  rating: z.number().int().min(1).max(5).nullable(),
  ratingForm: z.object({ title: z.string(), answers: z.array(answerSchema) }).nullable(),
  files: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      type: uploadTypeSchema,
      sizeBytes: count,
      from: z.enum(['guest', 'staff']),
      at: instant,
    }),
  ),
  bugs: z.array(
    z.object({
      id: recordIdSchema,
      at: instant,
      clientInfo: z.record(z.string(), z.unknown()),
      logEntries: count,
    }),
  ),
  quality: z.array(callQualityReportSchema),
  recordings: z.array(recordingSchema),
});
export type ReportCallDetail = z.infer<typeof reportCallDetailSchema>;

/**
 * `GET /api/reports/recordings/:callId` (a leg's call id): `download=true` saves it as a file.
 * The rest is a recording's signed `url` (all four, or none with a bearer admin token).
 */
export const recordingQuerySchema = z.strictObject({
  download: flagSchema.optional(),
  company: z.coerce.number().int().positive().optional(),
  admin: z.coerce.number().int().positive().optional(),
  /** Unix seconds. */
  expires: z.coerce.number().int().positive().optional(),
  signature: z
    .string()
    .regex(/^[\w-]{1,100}$/)
    .optional(),
});

export const agentStateSchema = z.enum(['available', 'inCall', 'away', 'offline']);
export type AgentState = z.infer<typeof agentStateSchema>;

/** `GET /api/reports/wallboard`: now, for the company; the console asks again on each change. */
export const wallboardSchema = z.object({
  at: instant,
  waiting: count,
  longestWaitMs: milliseconds.nullable(),
  categories: z.array(
    z.object({
      id: recordIdSchema.nullable(),
      name: z.string().nullable(),
      waiting: count,
      longestWaitMs: milliseconds.nullable(),
      /** The oldest waiting call's start, so the board counts up between refreshes. */
      oldestSince: instant.nullable(),
    }),
  ),
  agents: z.array(person.extend({ state: agentStateSchema })),
  today: z.object({
    answered: count,
    abandoned: count,
    /** As the summary's, with the reports' default cut-offs ({@link REPORT_CUT_OFF_DEFAULTS}). */
    serviceLevel: z.object({
      thresholdSeconds: z.number().int(),
      target: ratio,
      ratio: ratio.nullable(),
    }),
  }),
});
export type Wallboard = z.infer<typeof wallboardSchema>;

/** A guest as the supervisor view names it: its jabber username and, if it gave one, its name. */
const supervisedGuest = {
  guestJabberUsername: z.string(),
  /** The name among the guest's welcome answers; `null` when it gave none. */
  guestName: z.string().nullable(),
  categoryId: recordIdSchema.nullable(),
  /** As the company names the category now; `null` without one (or once deleted). */
  categoryName: z.string().nullable(),
  callType: callTypeSchema.nullable(),
};

/**
 * `GET /api/reports/supervisor` (issue 19 item 5): now, for the company's admins — every active
 * member with their state and the live calls they hold (guest, category, since when, on hold),
 * and the calls waiting (oldest first). The console asks again on the same notices as the
 * wallboard's.
 */
export const supervisorSchema = z.object({
  at: instant,
  agents: z.array(
    person.extend({
      state: agentStateSchema,
      calls: z.array(
        z.object({
          callId: callIdSchema,
          ...supervisedGuest,
          answeredAt: instant,
          /** Put on hold by its agent and not taken back; `heldSince` since when. */
          onHold: z.boolean(),
          heldSince: instant.nullable(),
        }),
      ),
    }),
  ),
  waiting: z.array(z.object({ callId: callIdSchema, ...supervisedGuest, since: instant })),
});
export type Supervisor = z.infer<typeof supervisorSchema>;
export type SupervisedCall = Supervisor['agents'][number]['calls'][number];
export type SupervisedWait = Supervisor['waiting'][number];
