import { useRef, useState, type FormEvent } from 'react';
import type { ChatFile } from '@frontdesk/protocol';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { uploadFile } from '../../app/upload.ts';
import { useT } from '../../i18n/useT.ts';
import type { MessageKey } from '../../i18n/messages.ts';
import { chatToggled, messageSent, selectRecipient } from './chatSlice.ts';

type Upload = { name: string; progress: number; failed: boolean };

function FileMessage({ file }: { file: ChatFile }) {
  const isImage = file.type.startsWith('image/');
  return (
    <a className="chat-file" href={file.url} target="_blank" rel="noopener">
      {isImage && <img src={file.url} alt="" className="chat-thumbnail" />}
      <span>{file.name}</span>{' '}
      <span className="chat-size">({Math.max(1, Math.round(file.size / 1024))} KB)</span>
    </a>
  );
}

/**
 * The chat of the call (spec §2 chat panel): messages oldest to newest with their delivery
 * state, text and files (upload progress, image thumbnails), an unread badge while closed.
 * The guest writes to the agent of the call, or to the agent who wrote first while waiting.
 */
export function ChatPanel() {
  const t = useT();
  const dispatch = useAppDispatch();
  const { chatMessages, unreadMessages, isChatOpen } = useAppSelector((state) => state.chat);
  const companyId = useAppSelector((state) => state.company.details?.id);
  const token = useAppSelector((state) => state.guestAuth.access_token);
  const [text, setText] = useState('');
  const [upload, setUpload] = useState<Upload | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const recipient = useAppSelector(selectRecipient);

  function send(message: string | ChatFile) {
    dispatch(messageSent(message));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    send(message);
    setText('');
  }

  async function attach(file: File | undefined) {
    if (!file || !token || companyId === undefined) return;
    setUpload({ name: file.name, progress: 0, failed: false });
    try {
      const uploaded = await uploadFile(file, {
        companyId,
        token,
        onProgress: (progress) => setUpload({ name: file.name, progress, failed: false }),
      });
      send({
        url: uploaded.fileUrl,
        name: file.name,
        size: uploaded.size,
        type: uploaded.contentType,
      });
      setUpload(null);
    } catch {
      setUpload({ name: file.name, progress: 0, failed: true });
    }
    if (fileInput.current) fileInput.current.value = '';
  }

  return (
    <div className="chat">
      <button
        type="button"
        className="chat-toggle"
        aria-expanded={isChatOpen}
        aria-controls="chat-panel"
        onClick={() => dispatch(chatToggled())}
        data-testid="chat-toggle"
      >
        {t('chat')}
        {unreadMessages > 0 && (
          <span
            className="badge"
            data-testid="unread-badge"
            aria-label={t('unread', { count: String(unreadMessages) })}
          >
            {unreadMessages}
          </span>
        )}
      </button>
      {isChatOpen && (
        <section id="chat-panel" className="chat-panel" aria-label={t('chatTitle')}>
          <ol className="chat-messages" aria-live="polite" data-testid="chat-messages">
            {chatMessages.length === 0 && <li className="chat-empty">{t('chatEmpty')}</li>}
            {[...chatMessages].reverse().map((record) => (
              <li
                key={record.id}
                className={`chat-message chat-${record.direction}`}
                data-delivery={record.delivery}
              >
                <span className="chat-author">
                  {record.direction === 'out' ? t('you') : t('agent')}
                </span>
                {typeof record.payload.message === 'string' ? (
                  <p>{record.payload.message}</p>
                ) : (
                  <FileMessage file={record.payload.message} />
                )}
                {record.direction === 'out' && (
                  <span className="chat-delivery">
                    {t(`delivery_${record.delivery}` as MessageKey)}
                  </span>
                )}
              </li>
            ))}
          </ol>
          {upload && (
            <div className="chat-upload" role="status">
              {upload.failed ? (
                <span className="field-error">{t('uploadFailed', { name: upload.name })}</span>
              ) : (
                <>
                  <span>{t('uploading', { name: upload.name })}</span>
                  <progress max={1} value={upload.progress} />
                </>
              )}
            </div>
          )}
          <form className="chat-form" onSubmit={submit}>
            <label htmlFor="chat-input" className="visually-hidden">
              {t('messageLabel')}
            </label>
            <input
              id="chat-input"
              value={text}
              onChange={(e) => setText(e.target.value)}
              disabled={!recipient}
              autoComplete="off"
              maxLength={4000}
            />
            <button type="submit" className="button-small" disabled={!recipient || !text.trim()}>
              {t('send')}
            </button>
            <label className="button-small chat-attach">
              <span className="visually-hidden">{t('attachFile')}</span>
              <svg
                aria-hidden="true"
                width="16"
                height="16"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M21 11.5 12.5 20a5 5 0 0 1-7-7l9-9a3.5 3.5 0 0 1 5 5l-9 9a2 2 0 0 1-3-3l8-8" />
              </svg>
              <input
                ref={fileInput}
                type="file"
                className="visually-hidden"
                disabled={!recipient}
                onChange={(e) => void attach(e.target.files?.[0])}
                data-testid="chat-file"
              />
            </label>
          </form>
        </section>
      )}
    </div>
  );
}
