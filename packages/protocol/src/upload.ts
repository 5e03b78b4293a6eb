import { z } from 'zod';

/** `POST /upload/:type` (spec §7): the file travels under a multipart field of this name. */
export const uploadTypeSchema = z.enum(['image', 'video', 'audio', 'document']);
export type UploadType = z.infer<typeof uploadTypeSchema>;

const MB = 1024 * 1024;

/** The upload type a file of this MIME type goes under; the API checks the bytes themselves. */
export function uploadTypeOfMime(mime: string): UploadType {
  const family = mime.split('/')[0];
  return family === 'image' || family === 'video' || family === 'audio' ? family : 'document';
}

/** The largest file the API accepts per type. */
export const UPLOAD_LIMIT_BYTES: Readonly<Record<UploadType, number>> = {
  image: 10 * MB,
  audio: 20 * MB,
  document: 20 * MB,
  video: 50 * MB,
};

export const uploadParamsSchema = z.strictObject({ type: uploadTypeSchema });

/** `data.fileUrl`: where anyone holding the link can fetch the file (same origin as the API). */
export const uploadedFileSchema = z.object({
  fileUrl: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;
