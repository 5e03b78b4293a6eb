import { useId, useState, type FormEvent } from 'react';
import { CHAT_TEXT_MAX_LENGTH } from '@frontdesk/protocol';
import type { ChatMessageRecord } from '@frontdesk/chat';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import {
  conversationClosed,
  fileChosen,
  messageSubmitted,
  selectConversation,
} from './chatSlice.ts';
import { guestLabel } from './guestLabel.ts';

function MessageItem({ record }: { record: ChatMessageRecord }) {
  const { message } = record.payload;
  const mine = record.direction === 'out';
  return (
    <li
      className={mine ? 'message mine' : 'message'}
      data-testid="chat-message"
      data-direction={record.direction}
    >
      <span className="visually-hidden">{mine ? t('you') : t('guest')}: </span>
      {typeof message === 'string' ? (
        message
      ) : (
        // SECURITY: the schema allows only our own paths or http(s) URLs here.
        <a href={message.url} target="_blank" rel="noopener noreferrer" download={message.name}>
          {message.name}
        </a>
      )}
      {mine && record.delivery === 'sending' && <small> · {t('messageSending')}</small>}
      {mine && record.delivery === 'failed' && <small role="alert"> · {t('messageFailed')}</small>}
    </li>
  );
}

/** The conversation with one guest: waiting (before accepting) or in the call. */
export function ChatPanel() {
  const dispatch = useAppDispatch();
  const peer = useAppSelector((state) => state.chat.openPeer);
  const conversation = useAppSelector((state) => (peer ? selectConversation(state, peer) : null));
  const upload = useAppSelector((state) => state.chat.upload);
  const sendError = useAppSelector((state) => state.chat.sendError);
  const [text, setText] = useState('');
  const titleId = useId();
  if (!peer || !conversation) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    dispatch(messageSubmitted({ to: peer, text: message }));
    setText('');
  };
  // The adapter keeps the newest first (spec §3); a chat reads oldest first.
  const messages = [...conversation.chatMessages].reverse();

  return (
    <aside className="chat card" aria-labelledby={titleId} data-testid="chat-panel">
      <header>
        <h2 id={titleId}>{t('chatTitle', { guest: guestLabel(peer) })}</h2>
        <button type="button" className="secondary" onClick={() => dispatch(conversationClosed())}>
          {t('closeChat')}
        </button>
      </header>
      <div
        className="messages"
        role="log"
        aria-live="polite"
        aria-label={t('chatTitle', { guest: guestLabel(peer) })}
      >
        <ol>
          {messages.length === 0 && <li>{t('chatEmpty')}</li>}
          {messages.map((record) => (
            <MessageItem key={record.id} record={record} />
          ))}
        </ol>
      </div>
      {sendError && <p role="alert">{sendError}</p>}
      {upload && (
        <p role={upload.error ? 'alert' : 'status'}>
          {upload.error ?? t('uploading', { name: upload.name })}
        </p>
      )}
      <form onSubmit={submit} className="composer">
        <label>
          <span className="visually-hidden">{t('message')}</span>
          <input
            name="message"
            value={text}
            onChange={(event) => setText(event.target.value)}
            autoComplete="off"
            maxLength={CHAT_TEXT_MAX_LENGTH}
          />
        </label>
        <button type="submit">{t('send')}</button>
        <label className="file">
          <span className="visually-hidden">{t('attachFile')}</span>
          <input
            type="file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) dispatch(fileChosen({ to: peer, file }));
              event.target.value = '';
            }}
          />
        </label>
      </form>
    </aside>
  );
}
