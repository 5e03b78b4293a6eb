import { useId, useState, type ReactNode } from 'react';
import type { GuestContext, PastCall } from '@frontdesk/protocol';
import { useMediaQuery, WIDE_WORKSPACE } from '../../app/useMediaQuery.ts';
import { t } from '../../i18n/messages.ts';
import { guestLabel } from '../chat/guestLabel.ts';
import { useGuestContext } from './useGuestContext.ts';
import './guestContext.css';
import { VerifiedMark } from '../../ui/VerifiedMark.tsx';

const when = (iso: string) =>
  new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));

/** An answer longer than this shows its start until the agent asks for all of it. */
const CLAMP = 240;

/** An answer's text: a long one folded to its start with "Show all", as help desks do. */
function AnswerText({ value }: { value: string }) {
  const [whole, setWhole] = useState(false);
  const id = useId();
  if (value.length <= CLAMP) return <>{value}</>;
  return (
    <>
      <span id={id} dir="auto">
        {whole ? value : `${value.slice(0, CLAMP)}…`}
      </span>{' '}
      <button
        type="button"
        className="link-button"
        aria-expanded={whole}
        aria-controls={id}
        onClick={() => setWhole(!whole)}
      >
        {whole ? t('answerShowLess') : t('answerShowAll', { count: value.length })}
      </button>
    </>
  );
}

/** The welcome answers under the form's labels; those the company's site signed say so. */
function Answers({ context }: { context: GuestContext }) {
  if (context.answers.length === 0) return <p>{t('guestNoAnswers')}</p>;
  return (
    <dl className="answers" data-testid="guest-answers">
      {context.answers.map((answer) => (
        <div key={answer.name}>
          {/* The company's own words, in its language whatever the console's. */}
          <dt dir="auto">{answer.label}</dt>
          <dd>
            {typeof answer.value === 'boolean' ? (
              t(answer.value ? 'answerYes' : 'answerNo')
            ) : (
              <AnswerText value={answer.value} />
            )}
            {answer.verified && <VerifiedMark />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function PastCallItem({ call }: { call: PastCall }) {
  const facts = [
    call.callType ? t(`callType_${call.callType}`) : null,
    call.category,
    t(`pastOutcome_${call.outcome}`),
    call.agent ? t('pastCallAgent', { agent: call.agent }) : null,
  ].filter((fact): fact is string => fact !== null);
  return (
    <li className="past-call" data-testid="past-call" data-outcome={call.outcome}>
      <p className="past-call-when">
        <time dateTime={call.at}>{when(call.at)}</time>
      </p>
      <p>{facts.join(' · ')}</p>
      {call.rating !== null && (
        <p data-testid="past-call-rating">
          <span aria-hidden="true">{'★'.repeat(call.rating) + '☆'.repeat(5 - call.rating)} </span>
          <span>{t('pastCallRating', { rating: String(call.rating) })}</span>
        </p>
      )}
      {call.notes && (
        <blockquote className="past-call-notes" data-testid="past-call-notes">
          <span className="visually-hidden">{t('notes')}: </span>
          {call.notes}
        </blockquote>
      )}
    </li>
  );
}

function PastCalls({ context }: { context: GuestContext }) {
  const { previousCalls, previousCallCount } = context;
  if (previousCalls.length === 0) return <p>{t('pastCallsNone')}</p>;
  return (
    <>
      <ol className="past-calls">
        {previousCalls.map((call) => (
          <PastCallItem key={call.callId} call={call} />
        ))}
      </ol>
      {previousCallCount > previousCalls.length && (
        <p>
          {t('pastCallsMore', {
            count: String(previousCallCount),
            shown: String(previousCalls.length),
          })}
        </p>
      )}
    </>
  );
}

function Section(props: { title: string; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} data-testid={props.testId}>
      <h3 id={id}>{props.title}</h3>
      {props.children}
    </section>
  );
}

/**
 * Where the guest passed the service-area check: whether the company serves it there (and in
 * which zone), how precisely, when, and the point on a map; the coordinates last, for whoever
 * needs them.
 */
function GuestLocation({ location }: { location: NonNullable<GuestContext['location']> }) {
  const { lat, lng, accuracy, serviceArea } = location;
  return (
    <>
      <p className="service-area" data-testid="guest-service-area" data-inside={serviceArea.inside}>
        {!serviceArea.inside
          ? t('guestLocationOutside')
          : serviceArea.zone
            ? t('guestLocationInZone', { zone: serviceArea.zone })
            : t('guestLocationServed')}
      </p>
      <p className="location-facts">
        {accuracy !== null && (
          <>{t('guestLocationAccuracy', { metres: Math.round(accuracy) })} · </>
        )}
        {t('guestLocationCheckedAt', { at: when(location.at) })}
      </p>
      <p>
        <a
          href={`https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('guestLocationMap')}
        </a>
      </p>
      <p className="coordinates">
        {t('guestLocationCoordinates')}:{' '}
        <span dir="ltr">{`${lat.toFixed(5)}, ${lng.toFixed(5)}`}</span>
      </p>
    </>
  );
}

function Details({ context }: { context: GuestContext }) {
  const { location, client } = context;
  return (
    <>
      <Section title={t('guestAnswersTitle')} testId="guest-answers-section">
        <Answers context={context} />
      </Section>
      <Section
        title={t('pastCallsTitle', { count: String(context.previousCallCount) })}
        testId="guest-past-calls"
      >
        <PastCalls context={context} />
      </Section>
      {location && (
        <Section title={t('guestLocationTitle')} testId="guest-location">
          <GuestLocation location={location} />
        </Section>
      )}
      <Section title={t('guestClientTitle')} testId="guest-client">
        <p>
          {client
            ? [
                client.browser && client.os
                  ? t('guestClientOn', { browser: client.browser, os: client.os })
                  : (client.browser ?? client.os ?? t('guestClientUnknown')),
                t(`device_${client.device}`),
              ].join(' · ')
            : t('guestClientUnknown')}
        </p>
      </Section>
    </>
  );
}

/**
 * The guest of the call in hand (issue 19 item 2): name, welcome answers, earlier calls,
 * location, browser and device, and Block for admins — for the whole call and its wrap-up. A
 * column of its own on a wide window; on a narrower one a panel the agent unfolds.
 */
export function GuestContextPanel(props: {
  callId: string;
  guestNick: string;
  /** What may be done to the guest (Block, for admins), from the features above this one. */
  actions?: ReactNode;
}) {
  const { callId, guestNick, actions } = props;
  const view = useGuestContext(callId);
  const wide = useMediaQuery(WIDE_WORKSPACE);
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  const shown = wide || open;
  const name = view.status === 'ready' ? view.context.name : null;
  return (
    <aside
      className="guest-context card"
      aria-labelledby={titleId}
      data-testid="guest-context"
      data-open={shown}
    >
      <h2 id={titleId}>
        {wide ? (
          t('guestContextTitle')
        ) : (
          <button
            type="button"
            className="disclosure"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => setOpen(!open)}
          >
            {t('guestContextTitle')}
          </button>
        )}
      </h2>
      <p className="guest-name" data-testid="guest-name">
        {name ?? guestLabel(guestNick)}
        {name && <span className="guest-id"> · {guestLabel(guestNick)}</span>}
      </p>
      <div id={bodyId} hidden={!shown} className="guest-context-body">
        {view.status === 'loading' && <p role="status">{t('guestContextLoading')}</p>}
        {view.status === 'failed' && (
          <div role="alert">
            <p>{t('guestContextFailed', { reason: view.message })}</p>
            <button type="button" className="secondary" onClick={view.retry}>
              {t('retry')}
            </button>
          </div>
        )}
        {view.status === 'ready' && <Details context={view.context} />}
        {actions && <div className="guest-actions">{actions}</div>}
      </div>
    </aside>
  );
}
