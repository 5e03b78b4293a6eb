import {
  ApiRequestError,
  routes,
  UPLOAD_LIMIT_BYTES,
  type UploadedFile,
  uploadTypeOfMime,
  type UploadType,
} from '@frontdesk/protocol';
import { api } from './api.ts';

/** The upload type a file goes under (spec §7 `POST /upload/{type}`). */
export function uploadTypeOf(file: File): UploadType {
  return uploadTypeOfMime(file.type);
}

/**
 * Sends a file to the API with upload progress: the file under its type's name plus `companyId`
 * (spec §7). Fails as an {@link ApiRequestError}; spec §8's `success: false` with the status is
 * the caller's to show.
 */
export async function uploadFile(
  file: File,
  options: { companyId: number; token: string; onProgress: (fraction: number) => void },
): Promise<UploadedFile> {
  const type = uploadTypeOf(file);
  if (file.size > UPLOAD_LIMIT_BYTES[type]) {
    throw new ApiRequestError(
      413,
      'too_large',
      `The file is larger than ${UPLOAD_LIMIT_BYTES[type] / 1024 / 1024} MB.`,
    );
  }
  const form = new FormData();
  form.append('companyId', String(options.companyId));
  form.append(type, file);
  const { data } = await api(routes.upload, {
    params: { type },
    form,
    token: options.token,
    onUploadProgress: options.onProgress,
  });
  return data;
}

/** Why a file could not be sent, in terms the guest can act on (issue 18: size, type). */
export type UploadProblem =
  | { key: 'uploadTooLarge'; maxMb: number }
  | { key: 'uploadUnsupported' }
  | { key: 'uploadOffline' }
  | { key: 'uploadFailed' };

/** The reason an {@link uploadFile} failure gives the guest. */
export function uploadProblemOf(error: unknown, file: File): UploadProblem {
  if (!(error instanceof ApiRequestError)) return { key: 'uploadFailed' };
  if (error.status === 413) {
    return { key: 'uploadTooLarge', maxMb: UPLOAD_LIMIT_BYTES[uploadTypeOf(file)] / 1024 / 1024 };
  }
  if (error.status === 415) return { key: 'uploadUnsupported' };
  if (error.status === 0) return { key: 'uploadOffline' };
  return { key: 'uploadFailed' };
}

/** The sentence for an upload's problem, with the file's name (and the limit it went over). */
export function describeUploadProblem(
  t: (key: UploadProblem['key'], values: Record<string, string>) => string,
  problem: UploadProblem,
  name: string,
): string {
  return t(problem.key, { name, ...('maxMb' in problem ? { max: String(problem.maxMb) } : {}) });
}
