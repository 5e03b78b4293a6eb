import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { TypingNotifier } from '@frontdesk/chat/typing';
import type { ChatFile } from '@frontdesk/protocol';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import {
  describeUploadProblem,
  uploadFile,
  uploadProblemOf,
  type UploadProblem,
} from '../../app/upload.ts';
import { useT } from '../../i18n/useT.ts';
import type { MessageKey } from '../../i18n/messages.ts';
import { ChatIcon, CloseIcon } from '../../ui/icons.tsx';
import { useEscapeWithin } from '../../ui/useEscapeWithin.ts';
import {
  agentMessageSeen,
  chatToggled,
  guestTypingChanged,
  messageSent,
  selectRecipient,
} from './chatSlice.ts';
import '../../ui/sheet.css';
import './chat.css';

type Upload = { name: string; progress: number; problem: UploadProblem | null };

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

/** Where the focus goes back to when the chat closes from inside. */
const TOGGLE_ID = 'chat-toggle';

/**
 * The button that opens and closes the chat, with the count of unread messages. `icon` is the
 * round button of the call's control row; `text` the labelled button of the waiting page.
 */
export function ChatToggle({ variant }: { variant: 'icon' | 'text' }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const { unreadMessages, isChatOpen } = useAppSelector((state) => state.chat);
  const unread = unreadMessages > 0 ? t('unread', { count: unreadMessages }) : null;
  const badge = unread && (
    <span className="badge" data-testid="unread-badge" aria-hidden="true">
      {unreadMessages}
    </span>
  );
  if (variant === 'icon') {
    const label = unread ? `${t('chat')} (${unread})` : t('chat');
    return (
      <button
        type="button"
        id={TOGGLE_ID}
        className="control"
        aria-label={label}
        aria-expanded={isChatOpen}
        aria-controls="chat-panel"
        onClick={() => dispatch(chatToggled())}
        data-testid="chat-toggle"
      >
        <ChatIcon />
        {badge}
        <span className="control-tip" aria-hidden="true">
          {label}
        </span>
      </button>
    );
  }
  return (
    <button
      type="button"
      id={TOGGLE_ID}
      className="chat-toggle"
      aria-expanded={isChatOpen}
      aria-controls="chat-panel"
      onClick={() => dispatch(chatToggled())}
      data-testid="chat-toggle"
    >
      {t('chat')}
      {badge}
      {unread && <span className="visually-hidden">({unread})</span>}
    </button>
  );
}

/**
 * The chat of the call (spec §2 chat panel): messages oldest to newest with their delivery
 * state, text and files (upload progress, image thumbnails), while the chat is open. In the call
 * it lies over or beside the video as a sheet (CallPage places it); Escape or its close button
 * closes it and gives the focus back to the chat button. The guest writes to the agent of the
 * call, or to the agent who wrote first while waiting.
 */
export function ChatSheet({ className = 'chat-panel' }: { className?: string }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const { chatMessages, isChatOpen, agentTyping } = useAppSelector((state) => state.chat);
  const companyId = useAppSelector((state) => state.company.details?.id);
  const token = useAppSelector((state) => state.guestAuth.access_token);
  const [text, setText] = useState('');
  const [upload, setUpload] = useState<Upload | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const panel = useRef<HTMLElement>(null);
  const recipient = useAppSelector(selectRecipient);
  // The agent who answered signs with its first name once the call screen knows it.
  const agent = useAppSelector((state) => state.call.agent);
  const agentName = useAppSelector((state) => state.call.agentName);
  const author = (from: string) => (agentName && from === agent ? agentName : t('agent'));

  // The newest message stays in sight, as in every messenger.
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [chatMessages.length, isChatOpen]);

  // XEP-0085: the agent sees the guest typing; XEP-0333: the agent learns its newest message
  // was read once the open chat shows it on a visible page.
  const typing = useMemo(
    () => new TypingNotifier((state) => dispatch(guestTypingChanged(state))),
    [dispatch],
  );
  useEffect(() => () => typing.paused(), [typing]);
  const newestIn = chatMessages.find((record) => record.direction === 'in');
  useEffect(() => {
    if (!isChatOpen || !newestIn) return;
    const seen = () => {
      if (document.visibilityState === 'visible') dispatch(agentMessageSeen(newestIn));
    };
    seen();
    document.addEventListener('visibilitychange', seen);
    return () => document.removeEventListener('visibilitychange', seen);
  }, [dispatch, isChatOpen, newestIn]);

  const close = () => {
    dispatch(chatToggled());
    document.getElementById(TOGGLE_ID)?.focus();
  };
  useEscapeWithin(panel, close);

  if (!isChatOpen) return null;

  function send(message: string | ChatFile) {
    dispatch(messageSent(message));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    send(message);
    typing.sent();
    setText('');
  }

  async function attach(file: File | undefined) {
    if (!file || !token || companyId === undefined) return;
    setUpload({ name: file.name, progress: 0, problem: null });
    try {
      const uploaded = await uploadFile(file, {
        companyId,
        token,
        onProgress: (progress) => setUpload({ name: file.name, progress, problem: null }),
      });
      send({
        url: uploaded.fileUrl,
        name: file.name,
        size: uploaded.size,
        type: uploaded.contentType,
      });
      setUpload(null);
    } catch (error) {
      // Issue 18: the guest learns why (too large, a type we refuse, offline).
      setUpload({ name: file.name, progress: 0, problem: uploadProblemOf(error, file) });
    }
    if (fileInput.current) fileInput.current.value = '';
  }

  return (
    <section id="chat-panel" ref={panel} className={className} aria-labelledby="chat-panel-title">
      <header className="sheet-header">
        <h2 id="chat-panel-title">{t('chatTitle')}</h2>
        <button type="button" className="sheet-close" aria-label={t('closeChat')} onClick={close}>
          <CloseIcon />
        </button>
      </header>
      <ol ref={list} className="chat-messages" aria-live="polite" data-testid="chat-messages">
        {chatMessages.length === 0 && <li className="chat-empty">{t('chatEmpty')}</li>}
        {[...chatMessages].reverse().map((record) => (
          <li
            key={record.id}
            className={`chat-message chat-${record.direction}`}
            data-delivery={record.delivery}
          >
            <span className="chat-author">
              {record.direction === 'out' ? t('you') : author(record.payload.from)}
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
      <p className="chat-typing" role="status" data-testid="agent-typing">
        {agentTyping ? t('agentTyping', { agent: agentName ?? t('agent') }) : ''}
      </p>
      {upload && (
        <div className="chat-upload" role="status">
          {upload.problem ? (
            <span className="field-error">
              {describeUploadProblem(t, upload.problem, upload.name)}
            </span>
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
          onChange={(e) => {
            setText(e.target.value);
            typing.changed(e.target.value);
          }}
          onBlur={() => typing.paused()}
          disabled={!recipient}
          autoComplete="off"
          maxLength={4000}
        />
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
        <button type="submit" className="button-small" disabled={!recipient || !text.trim()}>
          {t('send')}
        </button>
      </form>
    </section>
  );
}

/** The chat as the waiting page shows it: its button, and the messages below it once open. */
export function ChatPanel() {
  return (
    <div className="chat">
      <ChatToggle variant="text" />
      <ChatSheet />
    </div>
  );
}
