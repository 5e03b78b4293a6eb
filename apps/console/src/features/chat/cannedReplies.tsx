import { useEffect, useState } from 'react';
import { adminRoutes, type CannedReply } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppSelector, useAppStore } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';
import { notify } from '../../ui/toast.ts';

/** The most suggestions shown at once. */
const SHOWN = 8;

/**
 * The company's canned replies for the chat (issue 19 item 4), loaded when the chat opens; a
 * failure is a toast (decision 0028: it passes) and the agent types on without them.
 */
export function useCannedReplies(): CannedReply[] {
  const { api } = useServices();
  const store = useAppStore();
  const companyId = useAppSelector((state) => state.auth.login?.user.companyId);
  const [replies, setReplies] = useState<CannedReply[]>([]);
  useEffect(() => {
    if (companyId === undefined) return;
    let current = true;
    api(adminRoutes.cannedReplies, {
      params: { id: String(companyId) },
      token: store.getState().auth.login?.access_token,
    }).then(
      ({ data }) => current && setReplies(data),
      (error: unknown) =>
        current && notify(t('cannedRepliesLoadFailed', { reason: describeError(error) })),
    );
    return () => {
      current = false;
    };
  }, [api, companyId, store]);
  return replies;
}

/**
 * The replies a message box's text asks for: `/` then part of a shortcut or title (shortcuts
 * that start with it first); `null` when the text asks for none.
 */
export function suggestedReplies(
  text: string,
  replies: readonly CannedReply[],
): CannedReply[] | null {
  if (!text.startsWith('/') || /\s/.test(text)) return null;
  const query = text.slice(1).toLowerCase();
  const starts = replies.filter((reply) => reply.shortcut.startsWith(query));
  const contains = replies.filter(
    (reply) =>
      !starts.includes(reply) &&
      (reply.shortcut.includes(query) || reply.title.toLowerCase().includes(query)),
  );
  return [...starts, ...contains].slice(0, SHOWN);
}

/**
 * The list under the message box while the agent types `/…`: a listbox the box controls
 * (combobox pattern: arrows move, Enter or Tab inserts, Escape closes; a click inserts too).
 */
export function ReplySuggestions(props: {
  id: string;
  suggestions: readonly CannedReply[];
  active: number;
  onPick: (reply: CannedReply) => void;
}) {
  return (
    <ul id={props.id} role="listbox" aria-label={t('group_replies')} className="reply-suggestions">
      {props.suggestions.length === 0 && (
        <li className="reply-none" role="presentation">
          {t('noCannedReplyMatches')}
        </li>
      )}
      {props.suggestions.map((reply, index) => (
        // The box keeps the keyboard (combobox pattern: arrows, Enter, Tab, Escape).
        // eslint-disable-next-line jsx-a11y/click-events-have-key-events
        <li
          key={reply.id}
          id={`${props.id}-${reply.id}`}
          role="option"
          aria-selected={index === props.active}
          data-testid="reply-suggestion"
          // The box keeps the focus and the keyboard (combobox pattern): a mouse down must not take
          // it away before the click.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => props.onPick(reply)}
        >
          <span className="reply-title">
            <code dir="ltr">/{reply.shortcut}</code> {reply.title}
          </span>
          <span className="reply-text">{reply.text}</span>
        </li>
      ))}
    </ul>
  );
}
