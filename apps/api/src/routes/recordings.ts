import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callIdParamsSchema, recordingQuerySchema, REPORT_FILE_PATHS } from '@frontdesk/protocol';
import { authenticateAdmin, bearerSecurity } from '../plugins/auth.ts';
import { HttpError } from '../plugins/errors.ts';
import {
  auditPlayback,
  byteRangeOf,
  hasLinkParts,
  linkViewer,
  readyRecording,
  tokenViewer,
} from '../recordings/recording-playback.ts';

/**
 * A recorded call leg's film for the company's admins (issue 17): played in the reports' call
 * page through the signed link its recording names (a `<video>` sends no Authorization header),
 * or with an admin's bearer token. Range requests let the video seek; each play (a request for
 * the file from its start) and each download is in the company's audit log, not each chunk.
 */
export const recordingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const folder = join(app.config.dataDir, 'recordings');

  app.get(
    REPORT_FILE_PATHS.recording,
    {
      schema: {
        tags: ['reports'],
        summary: "A recorded call leg's film (MP4) for the company's admins, with range requests",
        // The body is the file itself, so there is no response schema.
        description:
          "Through the signed `url` of the call page's recording, or a bearer admin token. `Range: bytes=…` answers 206 (416 for a range the file has not); `download=true` saves it. 404 `no_recording` until the merge is done.",
        security: bearerSecurity,
        params: callIdParamsSchema,
        querystring: recordingQuerySchema,
        headers: z.looseObject({ range: z.string().max(200).optional() }),
      },
    },
    async (request, reply) => {
      const { callId } = request.params;
      const { download = false } = request.query;
      // SECURITY: the link's own parts are its credential; without them, an admin's token.
      const viewer = hasLinkParts(request.query)
        ? await linkViewer(db, app.config.secrets.apiToken, callId, request.query, new Date())
        : await tokenViewer(db, await authenticateAdmin(request));
      const { file, downloadName } = await readyRecording(db, folder, viewer.companyId, callId);
      const { size, mtime } = await stat(file).catch(() => {
        throw new HttpError(404, 'no_recording', `Call ${callId}'s recording file is missing.`);
      });
      const range = byteRangeOf(request.headers.range, size);
      if (range === 'unsatisfiable') {
        return reply
          .code(416)
          .header('content-range', `bytes */${size}`)
          .type('application/json')
          .send({
            error: {
              code: 'range_not_satisfiable',
              message: `The recording has ${size} bytes: ask for a range within them.`,
              fields: { range: `must be within bytes 0-${size - 1}` },
            },
          });
      }
      // One entry per play or download, not per chunk a seeking video asks for.
      if ((range === undefined || range.start === 0) && request.method === 'GET') {
        await auditPlayback(
          db,
          viewer.companyId,
          viewer.actor,
          callId,
          download ? 'recording.downloaded' : 'recording.played',
        );
      }
      const { start, end } = range ?? { start: 0, end: size - 1 };
      reply
        .type('video/mp4')
        .header('accept-ranges', 'bytes')
        .header('last-modified', mtime.toUTCString())
        // SECURITY: the company's film: no shared cache keeps it.
        .header('cache-control', 'private, no-store')
        .header('content-length', String(end - start + 1))
        .header(
          'content-disposition',
          `${download ? 'attachment' : 'inline'}; filename="${downloadName}"`,
        );
      if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
      return reply.send(size === 0 ? '' : createReadStream(file, { start, end }));
    },
  );
};
