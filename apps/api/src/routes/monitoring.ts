import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, monitoringReceiptSchema } from '@frontdesk/protocol';
import { envelopeDsn, parseDsn, sameDsn } from '../monitoring/dsn.ts';
import { errorResponses, HttpError } from '../plugins/errors.ts';
import { limitBy, RATE_LIMITS } from '../plugins/rate-limits.ts';

/**
 * spec §9: the SDK flags a replay over 20,000,000 characters as an error; its segments arrive
 * compressed, so far less reaches us. Beyond this an envelope is refused.
 */
const ENVELOPE_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * The error-reporting tunnel (spec §7 "a tunnel path"): the browser SDK posts its envelopes to
 * our own origin, so ad blockers and the page's CSP let them through.
 */
export const monitoringRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, envelopeSink } = app;
  const configured = config.monitoring.dsn ? parseDsn(config.monitoring.dsn) : undefined;

  // An envelope is newline-separated JSON sent as text/plain (or compressed): take the raw bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/monitoring',
    {
      bodyLimit: ENVELOPE_LIMIT_BYTES,
      config: { rateLimit: RATE_LIMITS.monitoring },
      preHandler: limitBy(app, 'monitoringOverall', () => 'all'),
      schema: {
        tags: ['monitoring'],
        summary:
          'Relay an error-reporting envelope for the configured DSN (forwarded or kept on disk)',
        response: {
          200: envelope(monitoringReceiptSchema),
          ...errorResponses(400, 404, 413, 429, 502),
        },
      },
    },
    async (request, reply) => {
      if (!configured) {
        throw new HttpError(
          404,
          'monitoring_disabled',
          'Error reporting is not configured on this server (SENTRY_DSN).',
        );
      }
      const body = request.body;
      if (!(body instanceof Uint8Array) || body.length === 0) {
        throw new HttpError(400, 'invalid_envelope', 'Send an error-reporting envelope.');
      }
      const named = envelopeDsn(body);
      const dsn = named === undefined ? undefined : parseDsn(named);
      if (!dsn) {
        throw new HttpError(400, 'invalid_envelope', 'The envelope header names no DSN.');
      }
      // SECURITY: only our own project's envelopes pass; anything else would make us an open relay.
      if (!sameDsn(dsn, configured)) {
        throw new HttpError(
          400,
          'dsn_mismatch',
          'The envelope is for another error-reporting project.',
        );
      }
      let delivery;
      try {
        delivery = await envelopeSink.deliver(body, configured);
      } catch (error) {
        request.log.warn({ err: error }, 'error-reporting upstream unreachable');
        throw new HttpError(
          502,
          'upstream_unreachable',
          'The error-reporting server could not be reached.',
        );
      }
      if (delivery.outcome === 'forwarded') {
        reply.headers(delivery.headers);
        if (delivery.status === 429) {
          throw new HttpError(429, 'rate_limited', 'The error-reporting server asks to slow down.');
        }
        if (delivery.status >= 300) {
          throw new HttpError(
            502,
            'upstream_refused',
            `The error-reporting server answered ${delivery.status}.`,
          );
        }
      }
      return { data: { outcome: delivery.outcome } };
    },
  );
};
