import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  callIdSchema,
  recordIdTextSchema,
  routes,
  UPLOAD_LIMIT_BYTES,
  type UploadType,
} from '@frontdesk/protocol';
import type { Principal } from '../auth/access-token.ts';
import { liveCallOf } from '../calls/call-coordination.ts';
import { assertOwnCompany, authenticate, bearerSecurity } from '../plugins/auth.ts';
import { HttpError } from '../plugins/errors.ts';
import { accountKey, limitBy, RATE_LIMITS } from '../plugins/rate-limits.ts';
import { acceptedContentTypes, sniffContentType } from '../uploads/content-type.ts';
import { cleanFileName, contentDisposition } from '../uploads/disposition.ts';
import type { FileStorage, IncomingFile } from '../uploads/file-storage.ts';
import {
  noLiveCall,
  recordUpload,
  requireUpload,
  type SentIn,
} from '../uploads/upload-repository.ts';
import { fromTable } from './from-table.ts';

const FILES_PATH = '/files';
/** 16 random bytes, base64url: the file's URL is its capability, so it must be unguessable. */
const fileIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'is not a file id');

type ReceivedUpload = {
  companyId: string | undefined;
  /** The live call an agent sends the file in (migration 0033); a guest's is its own. */
  callId: string | undefined;
  fileName: string;
  file: IncomingFile;
};

const fileTooLarge = (type: UploadType) =>
  new HttpError(
    413,
    'file_too_large',
    `A ${type} may be at most ${UPLOAD_LIMIT_BYTES[type] / 1024 / 1024} MB.`,
    { [type]: 'is too large' },
  );

/** Turns the multipart reader's limit errors into refusals that say which limit. */
function limitRefusal(request: FastifyRequest, type: UploadType, error: unknown): unknown {
  const errors = request.server.multipartErrors;
  if (error instanceof errors.RequestFileTooLargeError) return fileTooLarge(type);
  if (error instanceof errors.FilesLimitError) {
    return new HttpError(413, 'too_many_files', 'Send one file per upload.');
  }
  if (error instanceof errors.FieldsLimitError || error instanceof errors.PartsLimitError) {
    return new HttpError(
      413,
      'too_many_fields',
      'Send the file, companyId and callId, nothing else.',
    );
  }
  return error;
}

/**
 * Reads the multipart body: one file under the field named as the type, plus `companyId` (and
 * an agent's `callId`). The
 * file is streamed to the storage's side folder as it arrives, never held in memory whole; past
 * the type's size limit it is thrown away.
 */
async function receiveUpload(
  request: FastifyRequest,
  type: UploadType,
  storage: FileStorage,
): Promise<ReceivedUpload> {
  let received: { fileName: string; file: IncomingFile } | undefined;
  let companyId: string | undefined;
  let callId: string | undefined;
  const limits = { fileSize: UPLOAD_LIMIT_BYTES[type], files: 1, fields: 4, fieldSize: 1024 };
  try {
    for await (const part of request.parts({ limits })) {
      if (part.type === 'field') {
        if (part.fieldname === 'companyId') companyId = String(part.value);
        if (part.fieldname === 'callId') callId = String(part.value);
        continue;
      }
      if (part.fieldname !== type) {
        throw new HttpError(400, 'invalid_request', `Send the file under the field "${type}".`, {
          [part.fieldname]: `is not "${type}"`,
        });
      }
      const file = await storage.receive(part.file);
      if (part.file.truncated) {
        await file.discard();
        throw fileTooLarge(type);
      }
      received = { fileName: cleanFileName(part.filename, type), file };
    }
  } catch (error) {
    await received?.file.discard();
    throw limitRefusal(request, type, error);
  }
  if (!received) {
    throw new HttpError(400, 'invalid_request', `Send the file under the field "${type}".`, {
      [type]: 'is required',
    });
  }
  return { companyId, callId, ...received };
}

/** spec §7 `upload/{type}` and where the files come back from. */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, fileStorage } = app;
  await app.register(multipart);

  app.route({
    ...fromTable(routes.upload, [400, 401, 403, 409, 413, 415, 429], {
      tags: ['uploads'],
      summary:
        'Upload an image, video, audio or document (multipart: the file under the type name, companyId, and an agent’s callId)',
      security: bearerSecurity,
      consumes: ['multipart/form-data'],
    }),
    config: { rateLimit: RATE_LIMITS.upload },
    preHandler: limitBy(app, 'uploadsPerGuest', accountKey),
    handler: async (request, reply) => {
      const principal = await authenticate(request);
      const { type } = request.params;
      // SECURITY: a guest sends files only into its live call, which counts them (quota).
      const guestCall =
        principal.role === 'guest' ? await liveCallOf(db, principal.guestId) : undefined;
      // Checked again as the file is recorded: the call may end while the file arrives.
      if (principal.role === 'guest' && !guestCall) throw noLiveCall();
      if (!request.isMultipart()) {
        throw new HttpError(415, 'multipart_required', 'Send the file as multipart/form-data.');
      }
      const upload = await receiveUpload(request, type, fileStorage);
      try {
        const data = await keepUpload(principal, type, upload, guestCall);
        return await reply.code(201).send({ data });
      } catch (error) {
        await upload.file.discard();
        throw error;
      }
    },
  });

  /** Checks the received file and, when it passes, records and keeps it. */
  async function keepUpload(
    principal: Principal,
    type: UploadType,
    upload: ReceivedUpload,
    guestCall: { id: number } | undefined,
  ) {
    const companyId = recordIdTextSchema.safeParse(upload.companyId);
    if (!companyId.success) {
      throw new HttpError(400, 'invalid_request', 'Name the company of the upload.', {
        companyId: 'must be a company id',
      });
    }
    assertOwnCompany(principal, companyId.data);
    const sentIn: SentIn = guestCall
      ? { by: 'guest', callReportId: guestCall.id }
      : staffCall(principal, upload);
    // SECURITY: the content type comes from the bytes; the name and the part's header are not trusted.
    const { file } = upload;
    const contentType = await sniffContentType(type, file.head, file.size === file.head.length);
    if (!contentType) {
      throw new HttpError(
        415,
        'unsupported_file',
        `A ${type} must be one of: ${acceptedContentTypes(type)}.`,
        { [type]: 'is not a supported file' },
      );
    }
    const id = randomBytes(16).toString('base64url');
    await recordUpload(
      db,
      {
        id,
        company_id: companyId.data,
        guest_id: principal.role === 'guest' ? principal.guestId : null,
        staff_id: principal.role === 'guest' ? null : principal.staffId,
        type,
        content_type: contentType,
        size_bytes: file.size,
        original_name: upload.fileName,
      },
      sentIn,
      file,
      app.config.uploadQuotaPerCallBytes,
    );
    return { fileUrl: `/api${FILES_PATH}/${id}`, contentType, size: file.size };
  }

  /**
   * The call an agent names (`callId`, optional: an admin's logo is sent in none); whether it is
   * the agent's live call is checked as the file is recorded.
   */
  function staffCall(principal: Principal, upload: ReceivedUpload): SentIn {
    if (principal.role === 'guest' || upload.callId === undefined) return null;
    const callId = callIdSchema.safeParse(upload.callId);
    if (!callId.success) {
      throw new HttpError(400, 'invalid_request', 'Name the call the file is sent in.', {
        callId: 'must be a call id',
      });
    }
    return { by: 'staff', staff: principal, callId: callId.data };
  }

  app.get(
    `${FILES_PATH}/:id`,
    {
      schema: {
        tags: ['uploads'],
        summary:
          'An uploaded file, with its sniffed content type (anyone holding the link may fetch it)',
        // The body is the file itself, so there is no response schema; unknown ids answer 404.
        description: 'The file as stored, or 404 `file_not_found`.',
        params: z.strictObject({ id: fileIdSchema }),
      },
    },
    async (request, reply) => {
      const upload = await requireUpload(db, request.params.id);
      const content = await fileStorage.open(upload.id);
      return (
        reply
          .header('content-type', upload.content_type)
          .header('content-length', upload.size_bytes)
          .header(
            'content-disposition',
            contentDisposition(upload.content_type, upload.original_name),
          )
          .header('x-content-type-options', 'nosniff')
          // SECURITY: a file opened directly runs nothing and reaches nothing.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, max-age=31536000, immutable')
          .send(content)
      );
    },
  );
};
