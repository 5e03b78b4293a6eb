import { z } from 'zod';
import {
  callAdmissionBodySchema,
  callAdmissionSchema,
  callBugBodySchema,
  callReportAddBodySchema,
  callReportAddedSchema,
  callReportSchema,
  callReportTimestampBodySchema,
  callReportUpdateBodySchema,
  holdCallBodySchema,
} from './call-report.ts';
import {
  callIdParamsSchema,
  callListQuerySchema,
  callListSchema,
  callNotesBodySchema,
  callRoomQuerySchema,
  callStateSchema,
  claimCallBodySchema,
  claimedCallSchema,
  endCallBodySchema,
  janusTokenSchema,
  rejoinedCallSchema,
  roomAccessSchema,
  transferBodySchema,
} from './calls.ts';
import { callResumeSchema } from './resume.ts';
import { companyDetailsSchema, companyParamsSchema } from './company.ts';
import { embedConfigSchema } from './embed.ts';
import { clientConfigSchema, healthSchema } from './config.ts';
import { doctorReportSchema } from './doctor.ts';
import { envelope, noContentSchema } from './envelope.ts';
import {
  createdSchema,
  formSubmissionBodySchema,
  formSubmissionLookupSchema,
  formSubmissionQuerySchema,
  ratingSubmissionBodySchema,
} from './forms.ts';
import { geofenceCheckBodySchema, geofenceResultSchema } from './geofence.ts';
import {
  guestDetailsQuerySchema,
  guestDetailsSchema,
  guestLoginBodySchema,
  guestLoginSchema,
  guestRegisterBodySchema,
  guestRegistrationSchema,
} from './guest.ts';
import {
  availabilityBodySchema,
  colleagueSchema,
  refreshBodySchema,
  refreshedSchema,
  staffLoginAnswerSchema,
  staffLoginBodySchema,
} from './staff.ts';
import { uploadedFileSchema, uploadParamsSchema } from './upload.ts';
import { callHoldBodySchema, callQualityBodySchema } from './call-quality.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One REST route (decision 0011): what the API registers and what the apps' client sends.
 * Paths are relative to the API's base (`/api`); `:name` segments are filled from `params`.
 */
export type Route = {
  readonly method: HttpMethod;
  readonly path: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** A JSON body. */
  readonly body?: z.ZodType;
  /** A multipart body instead (uploads): the caller builds the form. */
  readonly multipart?: true;
  /** The body of every status in `statuses`. */
  readonly response: z.ZodType;
  /** The statuses that answer with `response`; 200 when not named. */
  readonly statuses?: readonly number[];
};

/** The statuses whose body is the route's `response`. */
export type RouteStatus<R extends Route> = R extends { statuses: readonly (infer S)[] } ? S : 200;

export const routeStatuses = (route: Route): readonly number[] => route.statuses ?? [200];

/**
 * Every REST route the apps, the end-to-end tests and the bench call. The API registers these
 * (apps/api/src/routes/route.ts); the client takes them (client.ts), so neither side can drift.
 * Not here: the file downloads and the error-reporting tunnel, which no JSON client calls.
 */
export const routes = {
  // System
  health: { method: 'GET', path: '/health', response: healthSchema, statuses: [200, 503] },
  config: { method: 'GET', path: '/config', response: envelope(clientConfigSchema) },
  /** The self-test for admins (docs/operations.md, "Self-test"). */
  doctor: { method: 'GET', path: '/admin/doctor', response: envelope(doctorReportSchema) },
  company: {
    method: 'GET',
    path: '/company/:id',
    params: companyParamsSchema,
    response: envelope(companyDetailsSchema),
  },
  /** The embed loader's launcher (decision 0021): CORS to the company's allowedOrigins only. */
  embedConfig: {
    method: 'GET',
    path: '/embed/:id',
    params: companyParamsSchema,
    response: envelope(embedConfigSchema),
  },

  // Guest auth
  registerGuest: {
    method: 'POST',
    path: '/guest-auth/register',
    body: guestRegisterBodySchema,
    response: envelope(guestRegistrationSchema),
    statuses: [201],
  },
  guestLogin: {
    method: 'POST',
    path: '/guest-auth/login',
    body: guestLoginBodySchema,
    response: envelope(guestLoginSchema),
  },
  guestDetails: {
    method: 'GET',
    path: '/guest-auth/guestDetails',
    query: guestDetailsQuerySchema,
    response: envelope(guestDetailsSchema),
  },

  // Staff auth and team
  staffLogin: {
    method: 'POST',
    path: '/auth/login',
    body: staffLoginBodySchema,
    response: envelope(staffLoginAnswerSchema),
  },
  refresh: {
    method: 'POST',
    path: '/auth/refresh',
    body: refreshBodySchema,
    response: envelope(refreshedSchema),
  },
  logout: { method: 'POST', path: '/auth/logout', response: noContentSchema, statuses: [204] },
  staff: { method: 'GET', path: '/staff', response: envelope(z.array(colleagueSchema)) },
  availability: {
    method: 'PUT',
    path: '/staff/me/availability',
    body: availabilityBodySchema,
    response: noContentSchema,
    statuses: [204],
  },

  // Call reports
  addCallReport: {
    method: 'POST',
    path: '/call-report/add',
    body: callReportAddBodySchema,
    response: envelope(callReportAddedSchema),
    statuses: [200, 201],
  },
  callAdmission: {
    method: 'POST',
    path: '/call-report/admission',
    body: callAdmissionBodySchema,
    response: envelope(callAdmissionSchema),
  },
  holdCall: {
    method: 'POST',
    path: '/call-report/hold-call',
    body: holdCallBodySchema,
    response: envelope(createdSchema),
    statuses: [201],
  },
  updateCallReport: {
    method: 'PUT',
    path: '/call-report/update',
    body: callReportUpdateBodySchema,
    response: envelope(callReportSchema),
  },
  stampCallReport: {
    method: 'PUT',
    path: '/call-report/update-timestamp',
    body: callReportTimestampBodySchema,
    response: envelope(callReportSchema),
  },
  /** The same stamp by `navigator.sendBeacon`, which can only POST (token in the body). */
  stampCallReportByBeacon: {
    method: 'POST',
    path: '/call-report/update-timestamp',
    body: callReportTimestampBodySchema,
    response: envelope(callReportSchema),
  },
  reportCallBug: {
    method: 'POST',
    path: '/call-bug/by-guest',
    body: callBugBodySchema,
    response: envelope(createdSchema),
    statuses: [201],
  },

  // Calls (docs/protocol.md)
  janusToken: { method: 'POST', path: '/auth/janus-token', response: envelope(janusTokenSchema) },
  claimCall: {
    method: 'POST',
    path: '/calls/claim',
    body: claimCallBodySchema,
    response: envelope(claimedCallSchema),
  },
  listCalls: {
    method: 'GET',
    path: '/calls',
    query: callListQuerySchema,
    response: envelope(callListSchema),
  },
  callState: {
    method: 'GET',
    path: '/calls/:callId',
    params: callIdParamsSchema,
    response: envelope(callStateSchema),
  },
  /** The call's own guest takes up the same conversation after a reload (decision 0025). */
  resumeCall: {
    method: 'POST',
    path: '/calls/:callId/resume',
    params: callIdParamsSchema,
    response: envelope(callResumeSchema),
  },
  /**
   * The agent who took the call takes it up again after its console reloaded (decision 0027):
   * the call as the claim answered it, with fresh room access.
   */
  rejoinCall: {
    method: 'POST',
    path: '/calls/:callId/rejoin',
    params: callIdParamsSchema,
    response: envelope(rejoinedCallSchema),
  },
  callRoom: {
    method: 'POST',
    path: '/calls/:callId/room',
    params: callIdParamsSchema,
    query: callRoomQuerySchema,
    response: envelope(roomAccessSchema),
  },
  endCall: {
    method: 'POST',
    path: '/calls/:callId/end',
    params: callIdParamsSchema,
    body: endCallBodySchema,
    response: envelope(callStateSchema),
  },
  transferCall: {
    method: 'POST',
    path: '/calls/:callId/transfer',
    params: callIdParamsSchema,
    body: transferBodySchema,
    response: envelope(callStateSchema),
  },
  callNotes: {
    method: 'PUT',
    path: '/calls/:callId/notes',
    params: callIdParamsSchema,
    body: callNotesBodySchema,
    response: noContentSchema,
    statuses: [204],
  },
  /** The agent who took the call put it on hold (`onHold: true`) or took it back (issue 17). */
  holdEvent: {
    method: 'POST',
    path: '/calls/:callId/hold',
    params: callIdParamsSchema,
    body: callHoldBodySchema,
    response: noContentSchema,
    statuses: [204],
  },
  /** Either side's measurements of the call's media, at its end or on ICE failure (issue 17). */
  callQuality: {
    method: 'PUT',
    path: '/calls/:callId/quality',
    params: callIdParamsSchema,
    body: callQualityBodySchema,
    response: noContentSchema,
    statuses: [204],
  },

  // Forms
  submitWelcomeForm: {
    method: 'POST',
    path: '/form-submission',
    body: formSubmissionBodySchema,
    response: envelope(createdSchema),
    statuses: [201],
  },
  latestWelcomeSubmission: {
    method: 'POST',
    path: '/form-submission/get-submission',
    body: formSubmissionQuerySchema,
    response: envelope(formSubmissionLookupSchema),
  },
  submitRating: {
    method: 'POST',
    path: '/rating-form/submissions',
    body: ratingSubmissionBodySchema,
    response: envelope(createdSchema),
    statuses: [201],
  },

  // Geofence and uploads
  geofenceCheck: {
    method: 'PUT',
    path: '/geo-fence/check',
    body: geofenceCheckBodySchema,
    response: envelope(geofenceResultSchema),
  },
  upload: {
    method: 'POST',
    path: '/upload/:type',
    params: uploadParamsSchema,
    multipart: true,
    response: envelope(uploadedFileSchema),
    statuses: [201],
  },
} as const satisfies Record<string, Route>;

export type Routes = typeof routes;

/**
 * The route's path with its `:name` segments filled from `params` (each URI-encoded) and `query`
 * appended (undefined values left out).
 */
export function routeUrl(
  route: Route,
  params?: Readonly<Record<string, unknown>>,
  query?: Readonly<Record<string, unknown>>,
): string {
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${route.path} needs :${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
