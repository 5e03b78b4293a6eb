import type { ReportCall, ReportCallDetail, ReportSummary } from '@frontdesk/protocol';

/**
 * Reports as the API answers them for company 12, for the reports' component tests: a week in
 * March 2026 with two agents, ratings, a busy Monday morning and a poor relayed call.
 */
export const weekSummary: ReportSummary = {
  range: {
    from: '2026-03-01T00:00:00.000Z',
    to: '2026-03-08T00:00:00.000Z',
    timeZone: 'Europe/London',
  },
  calls: 12,
  answered: 8,
  abandoned: 2,
  shortAbandoned: 1,
  live: 1,
  refused: { blocked: 1, outOfQuota: 0 },
  abandonmentRate: 0.2,
  averageSpeedOfAnswerMs: 18_000,
  serviceLevel: { thresholdSeconds: 20, target: 0.8, ratio: 0.7 },
  averageHandleTimeMs: 245_000,
  holds: { count: 3, calls: 2, totalMs: 90_000, averageMs: 30_000 },
  transfers: 1,
  csat: {
    responses: 5,
    responseRate: 0.625,
    score: 0.6,
    average: 3.8,
    distribution: [1, 0, 1, 1, 2],
  },
  ratingForms: [
    {
      formId: 7,
      title: 'How did we do?',
      responses: 4,
      fields: [
        {
          name: 'solved',
          label: 'Was your problem solved?',
          type: 'radio',
          responses: 4,
          counts: [
            { value: 'yes', label: 'Yes', count: 3 },
            { value: 'no', label: 'No', count: 1 },
          ],
        },
        { name: 'effort', label: 'How easy was it?', type: 'rating', responses: 4, average: 4.25 },
      ],
    },
  ],
  heatmap: [
    { weekday: 1, hour: 9, calls: 5 },
    { weekday: 3, hour: 14, calls: 2 },
  ],
  agents: [
    {
      agentId: 1,
      name: 'Ada Agent',
      answered: 5,
      averageHandleTimeMs: 200_000,
      csat: { responses: 3, score: 0.67 },
      missedOffers: 1,
    },
    {
      agentId: 9,
      name: 'Zoe Admin',
      answered: 3,
      averageHandleTimeMs: 320_000,
      csat: { responses: 2, score: 0.5 },
      missedOffers: 0,
    },
  ],
  quality: {
    measured: 8,
    relayed: 2,
    poor: 1,
    setupMs: { median: 1_200, p95: 4_100 },
    roundTripMs: { median: 80, p95: 310 },
    lossRatio: { median: 0.002, p95: 0.04 },
  },
  recordings: { ready: 3, pending: 1, failed: 1 },
};

/** An answered call of the list, `callId` its origin. */
export function listedCall(callId: string, changes: Partial<ReportCall> = {}): ReportCall {
  return {
    callId,
    startedAt: '2026-03-02T09:14:00.000Z',
    answeredAt: '2026-03-02T09:14:12.000Z',
    endedAt: '2026-03-02T09:20:00.000Z',
    waitMs: 12_000,
    handleMs: 348_000,
    outcome: 'answered',
    callType: 'video',
    agent: { id: 1, name: 'Ada Agent' },
    category: { id: 40, name: 'General' },
    rating: 5,
    holds: 1,
    transfers: 0,
    recorded: true,
    relayed: false,
    callMethod: 'mediaServer',
    setupMs: 900,
    roundTripMs: 60,
    lossRatio: 0.001,
    poorQuality: false,
    ...changes,
  };
}

const CALL_ID = 'a1b2c3d4-0000-4000-8000-000000000001';

/** One conversation whole: answered by Ada, held once, recorded, the guest's side poor. */
export const callDetail: ReportCallDetail = {
  call: listedCall(CALL_ID, { poorQuality: true, relayed: true }),
  guest: { username: 'guest-8f2a', previousCalls: 2 },
  legs: [
    {
      callId: CALL_ID,
      createdAt: '2026-03-02T09:14:00.000Z',
      answeredAt: '2026-03-02T09:14:12.000Z',
      endedAt: '2026-03-02T09:20:00.000Z',
      agent: { id: 1, name: 'Ada Agent' },
      category: { id: 40, name: 'General' },
      notes: 'Asked about the invoice of February.',
    },
  ],
  timeline: [
    {
      at: '2026-03-02T09:14:00.000Z',
      kind: 'initiated',
      callId: CALL_ID,
      staff: null,
    },
    {
      at: '2026-03-02T09:14:03.000Z',
      kind: 'offered',
      callId: CALL_ID,
      staff: { id: 1, name: 'Ada Agent' },
    },
    {
      at: '2026-03-02T09:14:12.000Z',
      kind: 'answered',
      callId: CALL_ID,
      staff: { id: 1, name: 'Ada Agent' },
    },
    {
      at: '2026-03-02T09:16:00.000Z',
      kind: 'held',
      callId: CALL_ID,
      staff: { id: 1, name: 'Ada Agent' },
    },
    {
      at: '2026-03-02T09:20:00.000Z',
      kind: 'ended',
      callId: CALL_ID,
      staff: null,
      endedBy: 'guest',
    },
  ],
  welcomeAnswers: [{ name: 'name', label: 'Your name', value: 'Grace' }],
  rating: 5,
  ratingForm: {
    title: 'How did we do?',
    answers: [{ name: 'solved', label: 'Was your problem solved?', value: 'Yes' }],
  },
  files: [
    {
      id: 'f1',
      name: 'invoice.pdf',
      type: 'document',
      sizeBytes: 48_213,
      from: 'guest',
      at: '2026-03-02T09:17:00.000Z',
    },
  ],
  bugs: [],
  quality: [
    {
      role: 'guest',
      callId: CALL_ID,
      reportedAt: '2026-03-02T09:20:01.000Z',
      setupMs: 1_400,
      localCandidateType: 'relay',
      remoteCandidateType: 'srflx',
      relayProtocol: 'tcp',
      packetsReceived: 9_000,
      packetsLost: 900,
      jitterMs: 30,
      roundTripMs: 520,
      sendKbps: 800,
      receiveKbps: 650,
      reconnects: 1,
      iceFailed: false,
    },
    {
      role: 'agent',
      callId: CALL_ID,
      reportedAt: '2026-03-02T09:20:01.000Z',
      setupMs: 900,
      localCandidateType: 'host',
      remoteCandidateType: 'relay',
      relayProtocol: null,
      packetsReceived: 12_000,
      packetsLost: 10,
      jitterMs: 8,
      roundTripMs: 60,
      sendKbps: 1_200,
      receiveKbps: 780,
      reconnects: 0,
      iceFailed: false,
    },
  ],
  recordings: [
    {
      callId: CALL_ID,
      status: 'ready',
      sizeBytes: 7_340_032,
      durationMs: 348_000,
      attempts: 1,
      error: null,
      url: `/api/reports/recordings/${CALL_ID}?company=12&admin=9&expires=1900000000&signature=abc`,
    },
  ],
};
