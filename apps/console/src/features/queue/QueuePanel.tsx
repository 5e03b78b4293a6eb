import type { WaitingGuest } from '@frontdesk/chat';
import type { CallSummary, Form } from '@frontdesk/protocol';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import { selectMyNick } from '../auth/authSlice.ts';
import { conversationOpened } from '../chat/chatSlice.ts';
import { guestLabel } from '../chat/guestLabel.ts';
import { acceptClicked, claimNoticeDismissed, type ClaimAttempt } from './queueSlice.ts';
import { elapsed, useNow } from './useNow.ts';
import { VerifiedMark } from '../../ui/VerifiedMark.tsx';

function ClaimNotice({ claim }: { claim: ClaimAttempt }) {
  const dispatch = useAppDispatch();
  if (claim.status === 'claiming') return null;
  const message =
    claim.status === 'failed' ? t('claimFailed', { reason: claim.message }) : claim.message;
  return (
    <div role="alert" className="banner" data-testid="claim-notice" data-claim={claim.status}>
      <p>{message}</p>
      <button type="button" className="secondary" onClick={() => dispatch(claimNoticeDismissed())}>
        {t('cancel')}
      </button>
    </div>
  );
}

/**
 * The welcome form's answers under the form's own labels; those the company's own site vouched
 * for with a signed identity (decision 0021) say so.
 */
function Answers({ summary, form }: { summary: CallSummary; form: Form | null }) {
  const answers = Object.entries(summary.welcomeAnswers ?? {});
  const verified = new Set(summary.welcomeVerified ?? []);
  if (answers.length === 0) return null;
  const labelOf = (name: string) =>
    form?.fields.find((field) => field.name === name)?.label ?? name;
  return (
    <dl className="answers">
      {answers.map(([name, value]) => (
        <div key={name}>
          <dt>{labelOf(name)}</dt>
          <dd>
            {String(value)}
            {verified.has(name) && <VerifiedMark />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function GuestRow(props: {
  guest: WaitingGuest;
  categoryId: number;
  categoryName: string;
  now: number;
}) {
  const { guest, categoryId, categoryName, now } = props;
  const dispatch = useAppDispatch();
  const summary = useAppSelector((state) => state.queue.calls[guest.nick]);
  const form = useAppSelector((state) => state.auth.company?.welcomeForm ?? null);
  const claiming = useAppSelector(
    (state) => state.queue.claim?.status === 'claiming' && state.queue.claim.nick === guest.nick,
  );
  // One call at a time: the queue stays in sight during a call, its Accept waits for the end.
  const inCall = useAppSelector((state) => state.call.phase !== 'idle');
  const unread = useAppSelector(
    (state) => state.chat.conversations[guest.nick]?.unreadMessages ?? 0,
  );
  // Round robin: the API names the agent whose turn it is; anyone may still accept.
  const offeredToMe = useAppSelector(
    (state) => !!summary?.offer && summary.offer.agentJabberUsername === selectMyNick(state),
  );
  const name = `${categoryName} #${guest.position} · ${guestLabel(guest.nick)}`;
  // The kind of guest it said it was (decision 0019); a group removed since keeps its id.
  const group = summary?.assignmentGroup;
  return (
    <li
      className={offeredToMe ? 'guest card offered' : 'guest card'}
      data-testid="queue-guest"
      data-guest={guest.nick}
      data-offered={offeredToMe}
    >
      <h3>{name}</h3>
      {offeredToMe && <p className="offer">{t('offeredToYou')}</p>}
      <p>
        {t('waitedFor', { time: elapsed(guest.waitingSince, now) })} ·{' '}
        {summary?.callType ? t(`callType_${summary.callType}`) : t('callTypeUnknown')} ·{' '}
        {group && (
          <>
            <span data-testid="assignment-group">{group.name ?? group.id}</span> ·{' '}
          </>
        )}
        {summary
          ? summary.previousCalls > 0
            ? t('previousCalls', { count: String(summary.previousCalls) })
            : t('firstCall')
          : t('detailsMissing')}
      </p>
      {summary && <Answers summary={summary} form={form} />}
      <div className="actions">
        <button
          type="button"
          disabled={claiming || !summary || inCall}
          aria-label={`${t('accept')}: ${name}`}
          onClick={() => dispatch(acceptClicked({ nick: guest.nick, categoryId }))}
        >
          {claiming ? t('accepting') : t('accept')}
        </button>
        <button
          type="button"
          className="secondary"
          aria-label={`${t('chatWith')}: ${name}`}
          onClick={() => dispatch(conversationOpened(guest.nick))}
        >
          {t('chatWith')}
          {unread > 0 && <span className="badge">{unread}</span>}
        </button>
      </div>
    </li>
  );
}

/** When a guest began waiting; one that announced no time queues last. */
function sinceOf(guest: WaitingGuest): number {
  return guest.waitingSince ? Date.parse(guest.waitingSince) : Number.POSITIVE_INFINITY;
}

/** The live queue of the agent's categories (issue 7), each guest with what the API knows. */
export function QueuePanel() {
  const rooms = useAppSelector((state) => state.queue.rooms);
  const categories = useAppSelector((state) => state.auth.company?.categories ?? []);
  const claim = useAppSelector((state) => state.queue.claim);
  const callsError = useAppSelector((state) => state.queue.callsError);
  const now = useNow();
  const companyRoom = Object.values(rooms).find((room) => room.kind === 'company');
  const joining = !companyRoom?.joined && !companyRoom?.error;
  // One room per call (decision 0010): the queue is their waiting guests, longest-waiting first.
  const waiting = Object.values(rooms)
    .flatMap((room) =>
      room.kind === 'call' && room.categoryId !== null
        ? room.waiting.map((guest) => ({ guest, categoryId: room.categoryId as number }))
        : [],
    )
    .sort((a, b) => sinceOf(a.guest) - sinceOf(b.guest) || 0)
    // Its place among the guests of its category (each room holds one guest).
    .map((entry, index, all) => ({
      ...entry,
      guest: {
        ...entry.guest,
        position: all.slice(0, index + 1).filter((e) => e.categoryId === entry.categoryId).length,
      },
    }));
  return (
    <section aria-labelledby="queue-title" data-testid="queue" data-waiting={waiting.length}>
      <h2 id="queue-title">{t('queueTitle')}</h2>
      {claim && <ClaimNotice claim={claim} />}
      {callsError && <p role="alert">{callsError}</p>}
      {companyRoom?.error && <p role="alert">{companyRoom.error}</p>}
      {joining && (
        <p role="status" aria-live="polite">
          {t('queueJoining')}
        </p>
      )}
      <p role="status" aria-live="polite" className={waiting.length ? 'visually-hidden' : ''}>
        {waiting.length ? t('waitingCount', { count: String(waiting.length) }) : t('queueEmpty')}
      </p>
      <ul className="queue">
        {waiting.map(({ guest, categoryId }) => (
          <GuestRow
            key={guest.nick}
            guest={guest}
            categoryId={categoryId}
            categoryName={categories.find((c) => c.id === categoryId)?.name ?? ''}
            now={now}
          />
        ))}
      </ul>
    </section>
  );
}
