import { uploadTypeOfMime, type ChatFile, type UploadType } from '@frontdesk/protocol';
import { intlLocale, t } from '../../i18n/messages.ts';

const KB = 1024;
const MB = 1024 * KB;

/** A file's size in the console's language: "48 kB", "3.2 MB". */
export function formatFileSize(bytes: number): string {
  const [value, unit] =
    bytes >= MB ? [bytes / MB, 'megabyte'] : [Math.max(bytes / KB, 0.1), 'kilobyte'];
  return new Intl.NumberFormat(intlLocale(), {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: value < 10 ? 1 : 0,
  }).format(value);
}

/** Outline icons by kind (24×24, stroked in the text's colour), and the paperclip. */
const ICON_PATHS: Record<UploadType | 'attach', string> = {
  attach: 'M21 11.5 12.5 20a5 5 0 0 1-7-7l9-9a3.5 3.5 0 0 1 5 5l-9 9a2 2 0 0 1-3-3l8-8',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15.5 9.5h.01',
  video: 'M3 6h13v12H3zM16 10l5-3v10l-5-3',
  audio: 'M9 18V6l11-2v12M9 18a3 3 0 1 1-3-3 3 3 0 0 1 3 3zM20 16a3 3 0 1 1-3-3 3 3 0 0 1 3 3z',
  document: 'M6 3h8l5 5v13H6zM14 3v5h5M9 13h7M9 17h7',
};

/** One of {@link ICON_PATHS}, hidden from assistive technology (its control says what it does). */
export function ChatIcon({ kind, size }: { kind: keyof typeof ICON_PATHS; size: number }) {
  return (
    <svg
      className={`chat-icon chat-icon-${kind}`}
      aria-hidden="true"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={ICON_PATHS[kind]} />
    </svg>
  );
}

/**
 * A file in the chat as a card that opens it: an image as its thumbnail, any file with its name,
 * size and kind. SECURITY: the message schema allows only our own paths or http(s) URLs here.
 */
export function FileCard({ file }: { file: ChatFile }) {
  const kind = uploadTypeOfMime(file.type);
  return (
    <a
      className={`file-card file-card-${kind}`}
      href={file.url}
      target="_blank"
      rel="noopener noreferrer"
      download={file.name}
      title={t('openFile', { name: file.name })}
      data-testid="file-card"
    >
      {kind === 'image' ? (
        <img className="file-card-thumbnail" src={file.url} alt="" loading="lazy" />
      ) : (
        <ChatIcon kind={kind} size={28} />
      )}
      <span className="file-card-text">
        <span className="file-card-name">{file.name}</span>
        <span className="file-card-meta">
          {t(`fileKind_${kind}`)} · {formatFileSize(file.size)}
        </span>
      </span>
    </a>
  );
}
