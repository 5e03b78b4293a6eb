import type { UploadType } from '@frontdesk/protocol';

/** What each upload type may contain, by the type its bytes show (never its name or header). */
const ALLOWED: Readonly<Record<UploadType, readonly string[]>> = {
  // SECURITY: no SVG: it can carry script.
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/heic'],
  audio: [
    'audio/mpeg',
    'audio/ogg',
    'audio/ogg; codecs=opus',
    'audio/wav',
    'audio/mp4',
    'audio/x-m4a',
    'audio/aac',
    'audio/flac',
    // A voice note from MediaRecorder is WebM with one audio track; its bytes read as WebM video.
    'video/webm',
  ],
  video: ['video/mp4', 'video/webm', 'video/quicktime', 'video/ogg'],
  document: [
    'application/pdf',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.oasis.opendocument.text',
    'application/vnd.oasis.opendocument.spreadsheet',
    'application/vnd.oasis.opendocument.presentation',
  ],
};

export const PLAIN_TEXT = 'text/plain; charset=utf-8';

/**
 * Plain text has no magic bytes: it is UTF-8 that decodes cleanly and holds no NUL. Of a file's
 * head, a character cut at its end is not an error.
 */
function isPlainText(content: Uint8Array, whole: boolean): boolean {
  if (content.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content, { stream: !whole });
    return true;
  } catch {
    return false;
  }
}

/** The content type an upload of `type` really has, from its bytes; `undefined` when refused. */
export async function sniffContentType(
  type: UploadType,
  head: Uint8Array,
  whole = true,
): Promise<string | undefined> {
  // Loaded at the first upload rather than at start: an API process that is sent no file
  // never holds it (docs/performance.md, "Memory").
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(head);
  if (detected) return ALLOWED[type].includes(detected.mime) ? detected.mime : undefined;
  return type === 'document' && head.length > 0 && isPlainText(head, whole)
    ? PLAIN_TEXT
    : undefined;
}

/** The names of what `type` accepts, for the refusal message. */
export function acceptedContentTypes(type: UploadType): string {
  return [...ALLOWED[type], ...(type === 'document' ? ['text/plain'] : [])].join(', ');
}
