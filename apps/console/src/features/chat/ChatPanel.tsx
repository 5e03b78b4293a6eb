import { useEffect, useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { CHAT_TEXT_MAX_LENGTH } from '@frontdesk/protocol';
import type { ChatMessageRecord, DeliveryState } from '@frontdesk/chat';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { intlLocale, t, type MessageKey } from '../../i18n/messages.ts';
import {
  conversationClosed,
  fileChosen,
  messageSeen,
  messageSubmitted,
  problemDismissed,
  selectConversation,
} from './chatSlice.ts';
import { ReplySuggestions, suggestedReplies, useCannedReplies } from './cannedReplies.tsx';
import { ChatIcon, FileCard } from './FileCard.tsx';
import { guestLabel } from './guestLabel.ts';
import { useTypingNotice } from './useTypingNotice.ts';
import './chat.css';

const DELIVERY_WORDS: Record<DeliveryState, MessageKey> = {
  sending: 'messageSending',
  sent: 'messageSent',
  delivered: 'messageDelivered',
  read: 'messageRead',
  failed: 'messageFailed',
};

/**
 * When a message was sent, in the agent's language and time zone: the time alone today, the
 * date too for an older one (a message from history keeps its own time).
 */
export function formatMessageTime(at: string, now: Date = new Date()): string {
  const sent = new Date(at);
  const today = sent.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(
    intlLocale(),
    today ? { hour: '2-digit', minute: '2-digit' } : { dateStyle: 'medium', timeStyle: 'short' },
  ).format(sent);
}

function MessageItem({ record, guest }: { record: ChatMessageRecord; guest: string }) {
  const { message } = record.payload;
  const mine = record.direction === 'out';
  return (
    <li
      className={mine ? 'message mine' : 'message'}
      data-testid="chat-message"
      data-direction={record.direction}
      data-delivery={mine ? record.delivery : undefined}
    >
      <span className="visually-hidden">{mine ? t('you') : guest}: </span>
      {typeof message === 'string' ? (
        <span className="message-text">{message}</span>
      ) : (
        <FileCard file={message} />
      )}
      <span className="message-meta">
        <time dateTime={record.at} title={new Date(record.at).toLocaleString(intlLocale())}>
          {formatMessageTime(record.at)}
        </time>
        {mine && (
          <span
            className={`delivery delivery-${record.delivery}`}
            role={record.delivery === 'failed' ? 'alert' : undefined}
            data-testid="delivery"
          >
            {' · '}
            {t(DELIVERY_WORDS[record.delivery])}
          </span>
        )}
      </span>
    </li>
  );
}

/** Whether a drag carries files (not text or a link dragged within the page). */
const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * The conversation with one guest: waiting (before accepting) or in the call. Messages carry
 * their time and, for the agent's, how far they got (sent, delivered, read); the guest's typing
 * shows under them. Files go as cards; the agent attaches one, drops it on the chat or pastes
 * it, and sees the upload's progress. A problem shows until the agent's next action.
 */
export function ChatPanel({
  callGuest = null,
}: {
  /** The guest of the call in progress, by its nick, and its name as the call's heading says it. */
  callGuest?: { nick: string; name: string } | null;
}) {
  const dispatch = useAppDispatch();
  const peer = useAppSelector((state) => state.chat.openPeer);
  const conversation = useAppSelector((state) => (peer ? selectConversation(state, peer) : null));
  const upload = useAppSelector((state) => state.chat.upload);
  const sendError = useAppSelector((state) => state.chat.sendError);
  const typing = useAppSelector((state) => (peer ? state.chat.typing[peer] === true : false));
  const [text, setText] = useState('');
  const [dragging, setDragging] = useState(false);
  const titleId = useId();
  const listId = useId();
  const log = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLInputElement>(null);
  const typed = useTypingNotice(peer);

  const replies = useCannedReplies();
  // The `/` suggestions: which one is highlighted, and whether Escape closed them for this text.
  const [active, setActive] = useState(0);
  const [escaped, setEscaped] = useState(false);

  // The adapter keeps the newest first (spec §3); a chat reads oldest first.
  const messages = conversation ? [...conversation.chatMessages].reverse() : [];
  const newestIn = conversation?.chatMessages.find((record) => record.direction === 'in');

  // The newest message stays in sight, as in every messenger.
  useEffect(() => {
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [messages.length, typing]);

  // XEP-0333: the guest learns its newest message was read once it is on a visible screen.
  useEffect(() => {
    if (!newestIn) return;
    const seen = () => {
      if (document.visibilityState === 'visible') dispatch(messageSeen(newestIn));
    };
    seen();
    document.addEventListener('visibilitychange', seen);
    return () => document.removeEventListener('visibilitychange', seen);
  }, [dispatch, newestIn]);

  if (!peer || !conversation) return null;
  const guest = peer === callGuest?.nick ? callGuest.name : guestLabel(peer);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    dispatch(messageSubmitted({ to: peer, text: message }));
    typed.sent();
    setText('');
  };
  const attach = (file: File | undefined | null) => {
    if (file) dispatch(fileChosen({ to: peer, file }));
  };
  const problem = upload?.error ?? sendError;
  const suggestions = escaped ? null : suggestedReplies(text, replies);
  const activeReply = suggestions?.[Math.min(active, suggestions.length - 1)];

  const edited = (value: string) => {
    setText(value);
    setActive(0);
    setEscaped(false);
    typed.changed(value);
    if (problem) dismiss();
  };
  const dismiss = () => dispatch(problemDismissed());
  const insert = (reply: { text: string }) => {
    edited(reply.text);
    box.current?.focus();
  };

  return (
    <aside
      className={dragging ? 'chat card dragging' : 'chat card'}
      aria-labelledby={titleId}
      data-testid="chat-panel"
      onDragEnter={(event) => carriesFiles(event) && setDragging(true)}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDragging(false);
        attach(event.dataTransfer.files[0]);
      }}
    >
      <header>
        <h2 id={titleId}>{t('chatTitle', { guest })}</h2>
        <button type="button" className="secondary" onClick={() => dispatch(conversationClosed())}>
          {t('closeChat')}
        </button>
      </header>
      <div
        className="messages"
        ref={log}
        role="log"
        aria-live="polite"
        aria-label={t('chatTitle', { guest })}
      >
        <ol>
          {messages.length === 0 && <li className="chat-empty">{t('chatEmpty')}</li>}
          {messages.map((record) => (
            <MessageItem key={record.id} record={record} guest={guest} />
          ))}
        </ol>
      </div>
      <p className="typing" role="status" data-testid="guest-typing">
        {typing ? t('guestTyping', { guest }) : ''}
      </p>
      {upload && !upload.error && (
        <div className="upload-progress" role="status">
          <span>{t('uploading', { name: upload.name })}</span>
          <progress
            max={1}
            value={upload.progress}
            aria-label={t('uploadProgress', { name: upload.name })}
          />
        </div>
      )}
      {problem && (
        <div className="chat-problem" role="alert" data-testid="chat-problem">
          <span>{problem}</span>
          <button type="button" className="secondary" onClick={dismiss}>
            {t('dismiss')}
          </button>
        </div>
      )}
      <form onSubmit={submit} className="composer">
        <label className="composer-text">
          <span className="visually-hidden">{t('message')}</span>
          <input
            ref={box}
            name="message"
            value={text}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={suggestions !== null}
            aria-controls={suggestions ? listId : undefined}
            aria-activedescendant={activeReply ? `${listId}-${activeReply.id}` : undefined}
            onChange={(event) => edited(event.target.value)}
            onKeyDown={(event) => {
              if (!suggestions) return;
              const count = suggestions.length;
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                event.preventDefault();
                if (count > 0)
                  setActive((active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
              } else if ((event.key === 'Enter' || event.key === 'Tab') && activeReply) {
                event.preventDefault();
                insert(activeReply);
              } else if (event.key === 'Escape') {
                event.preventDefault();
                setEscaped(true);
              }
            }}
            onPaste={(event) => {
              const file = event.clipboardData.files[0];
              if (!file) return;
              event.preventDefault();
              attach(file);
            }}
            onBlur={() => typed.paused()}
            autoComplete="off"
            maxLength={CHAT_TEXT_MAX_LENGTH}
          />
        </label>
        <label className="attach">
          <ChatIcon kind="attach" size={18} />
          <span className="visually-hidden">{t('attachFile')}</span>
          <input
            type="file"
            className="visually-hidden"
            data-testid="chat-file"
            onChange={(event) => {
              attach(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </label>
        <button
          type="button"
          className="secondary"
          aria-haspopup="listbox"
          onClick={() => {
            edited('/');
            box.current?.focus();
          }}
        >
          {t('insertCannedReply')}
        </button>
        <button type="submit">{t('send')}</button>
      </form>
      {suggestions && (
        <ReplySuggestions
          id={listId}
          suggestions={suggestions}
          active={Math.min(active, suggestions.length - 1)}
          onPick={insert}
        />
      )}
      {dragging && (
        <div className="drop-zone" aria-hidden="true">
          {t('dropFileHere')}
        </div>
      )}
    </aside>
  );
}
