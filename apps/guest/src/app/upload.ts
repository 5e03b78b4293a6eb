import {
  ApiRequestError,
  apiErrorSchema,
  envelope,
  UPLOAD_LIMIT_BYTES,
  uploadedFileSchema,
  type UploadedFile,
  type UploadType,
} from '@frontdesk/protocol';

/** The upload type a file goes under (spec §7 `POST /upload/{type}`). */
export function uploadTypeOf(file: File): UploadType {
  const kind = file.type.split('/')[0];
  return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'document';
}

/**
 * Sends a file to the API with upload progress (which `fetch` cannot report): the file under
 * its type's name plus `companyId` (spec §7). Fails as an {@link ApiRequestError}; spec §8's
 * `success: false` with the status is the caller's to show.
 */
export function uploadFile(
  file: File,
  options: { companyId: number; token: string; onProgress: (fraction: number) => void },
): Promise<UploadedFile> {
  const type = uploadTypeOf(file);
  if (file.size > UPLOAD_LIMIT_BYTES[type]) {
    return Promise.reject(
      new ApiRequestError(
        413,
        'too_large',
        `The file is larger than ${UPLOAD_LIMIT_BYTES[type] / 1024 / 1024} MB.`,
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/upload/${type}`);
    request.setRequestHeader('authorization', `Bearer ${options.token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress(event.loaded / event.total);
    };
    request.onerror = () =>
      reject(new ApiRequestError(0, 'network', 'The server could not be reached.'));
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      const ok = envelope(uploadedFileSchema).safeParse(body);
      if (request.status < 300 && ok.success) return resolve(ok.data.data);
      const error = apiErrorSchema.safeParse(body);
      reject(
        new ApiRequestError(
          request.status,
          error.success ? error.data.error.code : 'upload_failed',
          error.success ? error.data.error.message : `The upload failed (${request.status}).`,
        ),
      );
    };
    const form = new FormData();
    form.append('companyId', String(options.companyId));
    form.append(type, file);
    request.send(form);
  });
}
