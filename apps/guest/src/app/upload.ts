import {
  ApiRequestError,
  routes,
  UPLOAD_LIMIT_BYTES,
  type UploadedFile,
  type UploadType,
} from '@frontdesk/protocol';
import { api } from './api.ts';

/** The upload type a file goes under (spec §7 `POST /upload/{type}`). */
export function uploadTypeOf(file: File): UploadType {
  const kind = file.type.split('/')[0];
  return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'document';
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
