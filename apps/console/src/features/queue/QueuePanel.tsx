import type { WaitingGuest } from '@frontdesk/chat';
import type { CallSummary, Form } from '@frontdesk/protocol';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import { EmptyState, LoadingState } from '../../ui/ListState.tsx';
import { selectMyNick } from '../auth/authSlice.ts';
import { conversationOpened } from '../chat/chatSlice.ts';
import { guestLabel } from '../chat/guestLabel.ts';
import { groupQueue, type QueueGroup } from './queueGroups.ts';
import { acceptClicked, claimNoticeDismissed, type ClaimAttempt } from './queueSlice.ts';
import { elapsed, useNow } from './useNow.ts';
import './queue.css';
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
          <dt dir="auto">{labelOf(name)}</dt>
          <dd>
            <span dir="auto">{String(value)}</span>
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
      <h4>{name}</h4>
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

/** A category's line: its name, how many wait and the longest wait (ticking), its guests. */
function QueueGroupView({ group, now }: { group: QueueGroup; now: number }) {
  const titleId = `queue-group-${group.categoryId}`;
  const name = group.name || t('wallboardNoCategory');
  return (
    <li
      className="queue-group"
      data-testid="queue-group"
      data-category={group.categoryId}
      data-mine={group.mine}
    >
      <section aria-labelledby={titleId}>
        <header className="queue-group-header">
          <h3 id={titleId}>{name}</h3>
          {group.mine && <span className="queue-group-mine">{t('queueYours')}</span>}
          <p className="queue-group-figures">
            <span className="count-badge" data-testid="queue-group-count">
              {t('waitingCount', { count: group.entries.length })}
            </span>{' '}
            <span data-testid="queue-group-longest">
              {t('queueLongestWait', { time: elapsed(group.oldestSince, now) })}
            </span>
          </p>
        </header>
        <ul className="queue">
          {group.entries.map(({ guest, categoryId }) => (
            <GuestRow
              key={guest.nick}
              guest={guest}
              categoryId={categoryId}
              categoryName={group.name}
              now={now}
            />
          ))}
        </ul>
      </section>
    </li>
  );
}

/**
 * The live queue of the agent's categories (issue 7), grouped by category with each line's
 * count and longest wait, the agent's own lines first (issue 19 item 5); each guest with what
 * the API knows.
 */
export function QueuePanel() {
  const rooms = useAppSelector((state) => state.queue.rooms);
  const calls = useAppSelector((state) => state.queue.calls);
  const categories = useAppSelector((state) => state.auth.company?.categories ?? []);
  const user = useAppSelector((state) => state.auth.login?.user);
  const claim = useAppSelector((state) => state.queue.claim);
  const callsError = useAppSelector((state) => state.queue.callsError);
  const now = useNow();
  const companyRoom = Object.values(rooms).find((room) => room.kind === 'company');
  const joining = !companyRoom?.joined && !companyRoom?.error;
  // One room per call (decision 0010), each holding its one guest.
  const entries = Object.values(rooms).flatMap((room) =>
    room.kind === 'call' && room.categoryId !== null
      ? room.waiting.map((guest) => ({ guest, categoryId: room.categoryId as number }))
      : [],
  );
  const groups = groupQueue(
    entries,
    categories,
    user ?? {},
    (nick) => calls[nick]?.assignmentGroup?.id,
  );
  return (
    <section aria-labelledby="queue-title" data-testid="queue" data-waiting={entries.length}>
      <h2 id="queue-title">
        {t('queueTitle')}
        {entries.length > 0 && (
          <span className="count-badge" aria-hidden="true">
            {entries.length}
          </span>
        )}
      </h2>
      {claim && <ClaimNotice claim={claim} />}
      {callsError && <p role="alert">{callsError}</p>}
      {companyRoom?.error && <p role="alert">{companyRoom.error}</p>}
      {entries.length === 0 && joining ? (
        <LoadingState label={t('queueJoining')} rows={2} testId="queue-loading" />
      ) : entries.length === 0 ? (
        <EmptyState title={t('queueEmpty')} hint={t('queueEmptyHint')} live testId="queue-empty" />
      ) : (
        <>
          <p role="status" aria-live="polite" className="visually-hidden">
            {t('waitingCount', { count: entries.length })}
          </p>
          <ul className="queue-groups">
            {groups.map((group) => (
              <QueueGroupView key={group.categoryId} group={group} now={now} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
