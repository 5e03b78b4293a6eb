import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { CALL_PRESENCE_SWEEP_MS, CallPresence, releaseCall } from './calls/call-presence.ts';
import { ClusterTasks } from './cluster/cluster-tasks.ts';
import { RATE_LIMIT_CLEANUP_MS, SharedCounters } from './cluster/shared-counters.ts';
import { CallRooms } from './calls/call-rooms.ts';
import { MediaServerPool } from './media-servers/media-server-pool.ts';
import { CallChats } from './xmpp/call-chats.ts';
import { CompanyDetailsCache } from './companies/company-details-cache.ts';
import { STAFF_CHAT_SWEEP_MS, StaffChatSessions } from './xmpp/staff-chat-sessions.ts';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import {
  DiskEnvelopeStore,
  HttpEnvelopeForwarder,
  type EnvelopeSink,
} from './monitoring/envelope-sink.ts';
import { GatewayConnections } from './observability/gateway-connections.ts';
import { registerObservability } from './observability/register.ts';
import { PERSONAL_LOG_PATHS, REDACTED, requestSerializer } from './observability/request-log.ts';
import { registerErrorHandler, sendError } from './plugins/errors.ts';
import { registerApps, registerWebsocketProxies } from './plugins/gateway.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import {
  guestPageCompany,
  registerSecurityHeaders,
  setGuestPageHeaders,
} from './plugins/security-headers.ts';
import { adminRoutes } from './routes/admin.ts';
import { guestContextRoutesPlugin } from './routes/guest-context.ts';
import { cannedReplyRoutes } from './routes/canned-replies.ts';
import { guestDataRoutesPlugin } from './routes/guest-data.ts';
import { retentionRoutesPlugin } from './routes/retention.ts';
import { RetentionJobs } from './privacy/retention-jobs.ts';
import { retentionPlacesOf } from './privacy/retention.ts';
import { wrapUpRoutesPlugin } from './routes/wrap-up.ts';
import { companyAdminRoutes } from './routes/company-admin.ts';
import { scheduleAdminRoutes } from './routes/schedule-admin.ts';
import { staffAdminRoutes } from './routes/staff-admin.ts';
import { callBugRoutes } from './routes/call-bugs.ts';
import { callReportRoutes } from './routes/call-reports.ts';
import { callRoutes } from './routes/calls.ts';
import { callResumeRoutes } from './routes/call-resume.ts';
import { companyRoutes } from './routes/company.ts';
import { formRoutes } from './routes/forms.ts';
import { geofenceRoutes } from './routes/geofence.ts';
import { guestAuthRoutes } from './routes/guest-auth.ts';
import { monitoringRoutes } from './routes/monitoring.ts';
import { staffAuthRoutes } from './routes/staff-auth.ts';
import { staffRoutes } from './routes/staff.ts';
import { systemRoutes } from './routes/system.ts';
import { reportsRoutes } from './routes/reports.ts';
import { wallboardRoutes } from './routes/wallboard.ts';
import { CompanyChangeFeed } from './companies/company-change-feed.ts';
import { Drain } from './lifecycle/drain.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { recordingRoutes } from './routes/recordings.ts';
import {
  DEFAULT_RECORDING_JOB_SETTINGS,
  RecordingJobs,
  type RecordingJobSettings,
} from './recordings/recording-jobs.ts';
import { LocalFileStorage, type FileStorage } from './uploads/file-storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Kysely<Database>;
    fileStorage: FileStorage;
    envelopeSink: EnvelopeSink;
    callRooms: CallRooms;
    mediaServers: MediaServerPool;
    recordingJobs: RecordingJobs;
    gatewayConnections: GatewayConnections;
    callChats: CallChats;
    companyDetails: CompanyDetailsCache;
    staffChats: StaffChatSessions;
    callPresence: CallPresence;
    /** The work one replica does for all; `server.ts` starts it, tests tick it. */
    clusterTasks: ClusterTasks;
    drain: Drain;
  }
}

export type AppDependencies = {
  config: Config;
  db: Kysely<Database>;
  /** Tests shorten the merge job's delays or stand in for ffmpeg; the defaults otherwise. */
  recordingJobs?: Partial<RecordingJobSettings>;
  /** Where the log's lines go instead of stdout: tests read what it says. */
  logStream?: { write: (line: string) => void };
};

/** Builds the whole HTTP surface; `server.ts` listens, tests call `inject`. */
export async function buildApp({
  config,
  db,
  recordingJobs = {},
  logStream,
}: AppDependencies): Promise<FastifyInstance> {
  const { trustProxy } = config;
  const app = Fastify({
    // SECURITY: no recording link's signature in the request log (observability/request-log.ts),
    // and no personal data unless the operator asks for it (decision 0033).
    logger: {
      level: config.logLevel,
      serializers: { req: requestSerializer({ personalData: config.logPersonalData }) },
      ...(config.logPersonalData
        ? {}
        : { redact: { paths: PERSONAL_LOG_PATHS, censor: REDACTED } }),
      ...(logStream ? { stream: logStream } : {}),
    },
    bodyLimit: 1024 * 1024,
    requestTimeout: 30_000,
    trustProxy: typeof trustProxy === 'number' ? (_address, hop) => hop < trustProxy : trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('drain', new Drain());
  // Uploads on the local disk (an S3-compatible FileStorage is the production option).
  app.decorate('fileStorage', new LocalFileStorage(join(config.dataDir, 'uploads')));
  app.decorate(
    'envelopeSink',
    config.monitoring.forward
      ? new HttpEnvelopeForwarder()
      : new DiskEnvelopeStore(join(config.dataDir, 'monitoring')),
  );
  // The Janus pool's registry: health is checked from the start, placement when a call asks
  // for its room, so building the app needs no Janus.
  app.decorate('mediaServers', new MediaServerPool(config.janus.servers, db, app.log));
  await app.mediaServers.start();
  app.addHook('onClose', () => app.mediaServers.stop());
  app.decorate('callRooms', new CallRooms(config, db, app.mediaServers, app.log));
  // Decorated rather than kept by the calls routes: `/metrics` counts its pending merges.
  app.decorate(
    'recordingJobs',
    new RecordingJobs(
      config.databaseUrl,
      config.databaseSchema,
      db,
      join(config.dataDir, 'recordings'),
      app.log,
      {
        ...DEFAULT_RECORDING_JOB_SETTINGS,
        ...recordingJobs,
      },
    ),
  );
  app.decorate('gatewayConnections', new GatewayConnections());
  app.decorate(
    'callChats',
    new CallChats({ adminApiUrl: config.xmpp.adminUrl, domain: config.xmpp.domain }, db, app.log),
  );
  app.decorate(
    'staffChats',
    new StaffChatSessions(
      { adminApiUrl: config.xmpp.adminUrl, domain: config.xmpp.domain },
      db,
      app.log,
    ),
  );
  app.decorate(
    'callPresence',
    new CallPresence(
      { adminApiUrl: config.xmpp.adminUrl, domain: config.xmpp.domain },
      db,
      app.log,
      (ended) => releaseCall(app, ended),
    ),
  );
  // Once a period whichever replica holds each task's lock (decision 0038).
  app.decorate(
    'clusterTasks',
    new ClusterTasks(config.databaseUrl, config.databaseSchema ?? 'public', app.log),
  );
  const counters = new SharedCounters(db);
  for (const [name, intervalMs, run] of [
    ['call-presence', CALL_PRESENCE_SWEEP_MS, () => app.callPresence.sweep()],
    ['staff-chat-sessions', STAFF_CHAT_SWEEP_MS, () => app.staffChats.sweep()],
    ['rate-limit-cleanup', RATE_LIMIT_CLEANUP_MS, () => counters.deleteEnded()],
  ] as const) {
    app.clusterTasks.add(name, intervalMs, run);
  }
  app.addHook('onClose', () => app.clusterTasks.close());
  app.decorate(
    'companyDetails',
    new CompanyDetailsCache(db, config.xmpp.domain, config.companyDetailsCacheMs),
  );
  const companyChanges = new CompanyChangeFeed(
    config.databaseUrl,
    {
      onChange: (id) => app.companyDetails.forget(id),
      onReconnect: () => app.companyDetails.forgetAll(),
    },
    app.log,
    `frontdesk-api-company-changes-${config.databaseSchema ?? 'public'}`,
  );
  await companyChanges.start();
  app.addHook('onClose', () => companyChanges.stop());
  await app.recordingJobs.start();
  app.addHook('onClose', () => app.recordingJobs.stop());
  const retentionJobs = new RetentionJobs(
    config.databaseUrl,
    config.databaseSchema,
    db,
    retentionPlacesOf(config.dataDir, app.fileStorage),
    config.retention,
    app.log,
  );
  await retentionJobs.start();
  app.addHook('onClose', () => retentionJobs.stop());
  registerErrorHandler(app);
  registerSecurityHeaders(app);
  await registerObservability(app);

  await registerRateLimits(app);
  await registerOpenApi(app);
  for (const routes of [
    systemRoutes,
    companyRoutes,
    guestAuthRoutes,
    staffAuthRoutes,
    staffRoutes,
    callReportRoutes,
    callRoutes,
    callResumeRoutes,
    callBugRoutes,
    guestContextRoutesPlugin,
    formRoutes,
    geofenceRoutes,
    uploadRoutes,
    recordingRoutes,
    monitoringRoutes,
    adminRoutes,
    companyAdminRoutes,
    cannedReplyRoutes,
    guestDataRoutesPlugin,
    retentionRoutesPlugin,
    wrapUpRoutesPlugin,
    scheduleAdminRoutes,
    staffAdminRoutes,
    reportsRoutes,
    wallboardRoutes,
  ]) {
    await app.register(routes, { prefix: '/api' });
  }
  await registerWebsocketProxies(app, config);
  await registerApps(app, config);

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A missing file (`….js`, `….map`) is a 404, never a page: client routes have no extension.
    const wantsPage = request.method === 'GET' && !path.startsWith('/api/') && !/\.\w+$/.test(path);
    if (wantsPage && reply.sendFile) {
      // Client-side routes of the single-page apps all load their index.html.
      const console = path.startsWith('/console');
      if (!console) setGuestPageHeaders(request, reply, await guestPageCompany(app, request));
      return reply.sendFile('index.html', console ? config.consoleAppDir : config.guestAppDir);
    }
    return sendError(reply, 404, 'not_found', `No route ${request.method} ${path}.`);
  });
  return app;
}
