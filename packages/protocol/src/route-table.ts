/**
 * Every REST route the apps, the end-to-end tests and the bench call, one export each: the API
 * registers these (apps/api/src/routes/route.ts); the client takes them (client.ts), so neither
 * side can drift. Callers reach them as `routes.<name>` (routes.ts), and a bundler keeps only the
 * routes a page names, with their schemas: the guest page carries before a call only the routes
 * it calls then (decision 0044). Each call made here is marked pure for that: the bundler
 * (Rolldown) keeps a call it cannot prove free of side effects, with the schemas it names, even
 * when its route is never used. Not here: the file downloads and the error-reporting tunnel,
 * which no JSON client calls.
 */
import { z } from 'zod';
import type { Route } from './routes.ts';
import {
  callAdmissionBodySchema,
  callAdmissionSchema,
  callBugBodySchema,
  callReportAddBodySchema,
  callReportAddedSchema,
  callReportSchema,
  callReportTimestampBodySchema,
  callReportUpdateBodySchema,
  heldCallSchema,
  holdCallBodySchema,
} from './call-report.ts';
import {
  callIceSchema,
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

// System
export const health = {
  method: 'GET',
  path: '/health',
  response: healthSchema,
  statuses: [200, 503],
} as const satisfies Route;
export const config = {
  method: 'GET',
  path: '/config',
  response: /* @__PURE__ */ envelope(clientConfigSchema),
} as const satisfies Route;
/** The self-test for admins (docs/operations.md, "Self-test"). */
export const doctor = {
  method: 'GET',
  path: '/admin/doctor',
  response: /* @__PURE__ */ envelope(doctorReportSchema),
} as const satisfies Route;
export const company = {
  method: 'GET',
  path: '/company/:id',
  params: companyParamsSchema,
  response: /* @__PURE__ */ envelope(companyDetailsSchema),
} as const satisfies Route;
/** The embed loader's launcher (decision 0021): CORS to the company's allowedOrigins only. */
export const embedConfig = {
  method: 'GET',
  path: '/embed/:id',
  params: companyParamsSchema,
  response: /* @__PURE__ */ envelope(embedConfigSchema),
} as const satisfies Route;

// Guest auth
export const registerGuest = {
  method: 'POST',
  path: '/guest-auth/register',
  body: guestRegisterBodySchema,
  response: /* @__PURE__ */ envelope(guestRegistrationSchema),
  statuses: [201],
} as const satisfies Route;
export const guestLogin = {
  method: 'POST',
  path: '/guest-auth/login',
  body: guestLoginBodySchema,
  response: /* @__PURE__ */ envelope(guestLoginSchema),
} as const satisfies Route;
export const guestDetails = {
  method: 'GET',
  path: '/guest-auth/guestDetails',
  query: guestDetailsQuerySchema,
  response: /* @__PURE__ */ envelope(guestDetailsSchema),
} as const satisfies Route;

// Staff auth and team
export const staffLogin = {
  method: 'POST',
  path: '/auth/login',
  body: staffLoginBodySchema,
  response: /* @__PURE__ */ envelope(staffLoginAnswerSchema),
} as const satisfies Route;
export const refresh = {
  method: 'POST',
  path: '/auth/refresh',
  body: refreshBodySchema,
  response: /* @__PURE__ */ envelope(refreshedSchema),
} as const satisfies Route;
export const logout = {
  method: 'POST',
  path: '/auth/logout',
  response: noContentSchema,
  statuses: [204],
} as const satisfies Route;
export const staff = {
  method: 'GET',
  path: '/staff',
  response: /* @__PURE__ */ envelope(/* @__PURE__ */ z.array(colleagueSchema)),
} as const satisfies Route;
export const availability = {
  method: 'PUT',
  path: '/staff/me/availability',
  body: availabilityBodySchema,
  response: noContentSchema,
  statuses: [204],
} as const satisfies Route;

// Call reports
export const addCallReport = {
  method: 'POST',
  path: '/call-report/add',
  body: callReportAddBodySchema,
  response: /* @__PURE__ */ envelope(callReportAddedSchema),
  statuses: [200, 201],
} as const satisfies Route;
export const callAdmission = {
  method: 'POST',
  path: '/call-report/admission',
  body: callAdmissionBodySchema,
  response: /* @__PURE__ */ envelope(callAdmissionSchema),
} as const satisfies Route;
export const holdCall = {
  method: 'POST',
  path: '/call-report/hold-call',
  body: holdCallBodySchema,
  response: /* @__PURE__ */ envelope(heldCallSchema),
  statuses: [201],
} as const satisfies Route;
export const updateCallReport = {
  method: 'PUT',
  path: '/call-report/update',
  body: callReportUpdateBodySchema,
  response: /* @__PURE__ */ envelope(callReportSchema),
} as const satisfies Route;
export const stampCallReport = {
  method: 'PUT',
  path: '/call-report/update-timestamp',
  body: callReportTimestampBodySchema,
  response: /* @__PURE__ */ envelope(callReportSchema),
} as const satisfies Route;
/** The same stamp by `navigator.sendBeacon`, which can only POST (token in the body). */
export const stampCallReportByBeacon = {
  method: 'POST',
  path: '/call-report/update-timestamp',
  body: callReportTimestampBodySchema,
  response: /* @__PURE__ */ envelope(callReportSchema),
} as const satisfies Route;
export const reportCallBug = {
  method: 'POST',
  path: '/call-bug/by-guest',
  body: callBugBodySchema,
  response: /* @__PURE__ */ envelope(createdSchema),
  statuses: [201],
} as const satisfies Route;

// Calls (docs/protocol.md)
export const janusToken = {
  method: 'POST',
  path: '/auth/janus-token',
  response: /* @__PURE__ */ envelope(janusTokenSchema),
} as const satisfies Route;
export const claimCall = {
  method: 'POST',
  path: '/calls/claim',
  body: claimCallBodySchema,
  response: /* @__PURE__ */ envelope(claimedCallSchema),
} as const satisfies Route;
export const listCalls = {
  method: 'GET',
  path: '/calls',
  query: callListQuerySchema,
  response: /* @__PURE__ */ envelope(callListSchema),
} as const satisfies Route;
export const callState = {
  method: 'GET',
  path: '/calls/:callId',
  params: callIdParamsSchema,
  response: /* @__PURE__ */ envelope(callStateSchema),
} as const satisfies Route;
/** The call's own guest takes up the same conversation after a reload (decision 0025). */
export const resumeCall = {
  method: 'POST',
  path: '/calls/:callId/resume',
  params: callIdParamsSchema,
  response: /* @__PURE__ */ envelope(callResumeSchema),
} as const satisfies Route;
/**
 * The agent who took the call takes it up again after its console reloaded (decision 0027):
 * the call as the claim answered it, with fresh room access.
 */
export const rejoinCall = {
  method: 'POST',
  path: '/calls/:callId/rejoin',
  params: callIdParamsSchema,
  response: /* @__PURE__ */ envelope(rejoinedCallSchema),
} as const satisfies Route;
export const callRoom = {
  method: 'POST',
  path: '/calls/:callId/room',
  params: callIdParamsSchema,
  query: callRoomQuerySchema,
  response: /* @__PURE__ */ envelope(roomAccessSchema),
} as const satisfies Route;
/** A p2p call's ICE servers for one of its two parties (decision 0045). */
export const callIce = {
  method: 'POST',
  path: '/calls/:callId/ice',
  params: callIdParamsSchema,
  response: /* @__PURE__ */ envelope(callIceSchema),
} as const satisfies Route;
export const endCall = {
  method: 'POST',
  path: '/calls/:callId/end',
  params: callIdParamsSchema,
  body: endCallBodySchema,
  response: /* @__PURE__ */ envelope(callStateSchema),
} as const satisfies Route;
export const transferCall = {
  method: 'POST',
  path: '/calls/:callId/transfer',
  params: callIdParamsSchema,
  body: transferBodySchema,
  response: /* @__PURE__ */ envelope(callStateSchema),
} as const satisfies Route;
export const callNotes = {
  method: 'PUT',
  path: '/calls/:callId/notes',
  params: callIdParamsSchema,
  body: callNotesBodySchema,
  response: noContentSchema,
  statuses: [204],
} as const satisfies Route;
/** The agent who took the call put it on hold (`onHold: true`) or took it back (issue 17). */
export const holdEvent = {
  method: 'POST',
  path: '/calls/:callId/hold',
  params: callIdParamsSchema,
  body: callHoldBodySchema,
  response: noContentSchema,
  statuses: [204],
} as const satisfies Route;
/** Either side's measurements of the call's media, at its end or on ICE failure (issue 17). */
export const callQuality = {
  method: 'PUT',
  path: '/calls/:callId/quality',
  params: callIdParamsSchema,
  body: callQualityBodySchema,
  response: noContentSchema,
  statuses: [204],
} as const satisfies Route;

// Forms
export const submitWelcomeForm = {
  method: 'POST',
  path: '/form-submission',
  body: formSubmissionBodySchema,
  response: /* @__PURE__ */ envelope(createdSchema),
  statuses: [201],
} as const satisfies Route;
export const latestWelcomeSubmission = {
  method: 'POST',
  path: '/form-submission/get-submission',
  body: formSubmissionQuerySchema,
  response: /* @__PURE__ */ envelope(formSubmissionLookupSchema),
} as const satisfies Route;
export const submitRating = {
  method: 'POST',
  path: '/rating-form/submissions',
  body: ratingSubmissionBodySchema,
  response: /* @__PURE__ */ envelope(createdSchema),
  statuses: [201],
} as const satisfies Route;

// Geofence and uploads
export const geofenceCheck = {
  method: 'PUT',
  path: '/geo-fence/check',
  body: geofenceCheckBodySchema,
  response: /* @__PURE__ */ envelope(geofenceResultSchema),
} as const satisfies Route;
export const upload = {
  method: 'POST',
  path: '/upload/:type',
  params: uploadParamsSchema,
  multipart: true,
  response: /* @__PURE__ */ envelope(uploadedFileSchema),
  statuses: [201],
} as const satisfies Route;
