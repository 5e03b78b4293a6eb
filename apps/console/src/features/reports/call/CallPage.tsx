import { useCallback, useEffect, useId, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { reportRoutes, type ReportCallDetail, type TimelineEntry } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { LoadStatus } from '../../admin/LoadGate.tsx';
import { formatDateTime } from '../../admin/listPage/formatTime.ts';
import { OutcomeBadge, QualityFlags } from '../calls/CallBadges.tsx';
import {
  formatBytes,
  formatClock,
  formatCount,
  formatDuration,
  formatMs,
  NONE,
} from '../format.ts';
import { useReport, useReportTimeZone, type ReportRequest } from '../useReport.ts';
import { QualityTable } from './QualityTable.tsx';
import { Recordings } from './Recordings.tsx';
import { TableScroll } from '../TableScroll.tsx';

/** How often a call whose recording is being merged is asked for again. */
const PENDING_REFRESH_MS = 5_000;

async function loadCall({ api, token }: ReportRequest, callId: string) {
  const { data } = await api(reportRoutes.reportCall, {
    params: { callId },
    ...(token ? { token } : {}),
  });
  return data;
}

/**
 * One conversation whole (`/console/reports/calls/:callId`): what it was, its recording, what
 * happened when and by whom, what the guest filled in, notes, files, rating, bug reports and how
 * each side's media fared.
 */
export function CallPage() {
  const { callId = '' } = useParams();
  const location = useLocation();
  const timeZone = useReportTimeZone();
  const { view, retry } = useReport(
    useCallback((request: ReportRequest) => loadCall(request, callId), [callId]),
  );
  // A merge runs for a minute or so after the call: the page follows it until it is done.
  const shown = view.state === 'ready' ? view.data : null;
  const merging = shown?.recordings.some((recording) => recording.status === 'pending') ?? false;
  useEffect(() => {
    if (!merging) return;
    const timer = setTimeout(retry, PENDING_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [merging, shown, retry]);
  // Back to the list as it was filtered, when the admin came from it.
  const search = (location.state as { search?: string } | null)?.search;

  return (
    <section
      className="reports-page call-page"
      aria-labelledby="reports-page-title"
      data-testid="call-page"
    >
      <p className="call-back">
        <Link to={search ? `/reports/calls?${search}` : '/reports/calls'}>
          {t('reportBackToCalls')}
        </Link>
      </p>
      <h2 id="reports-page-title">{t('reportCallTitle', { callId })}</h2>
      {view.state === 'ready' ? (
        <CallDetail detail={view.data} timeZone={timeZone} onReload={retry} />
      ) : (
        <LoadStatus
          className="reports-status"
          loading={t('reportCallLoading')}
          failure={view.state === 'failed' ? t('reportCallFailed', { reason: view.message }) : null}
          onRetry={retry}
        />
      )}
    </section>
  );
}

function Section(props: {
  title: string;
  children: ReactNode;
  testId?: string;
  /** The whole width (a table of many columns), or two columns' (the player) where there is room. */
  wide?: boolean;
  player?: boolean;
}) {
  const id = useId();
  const classes = ['card', 'call-section', props.wide && 'wide', props.player && 'player'];
  return (
    <section
      className={classes.filter(Boolean).join(' ')}
      aria-labelledby={id}
      data-testid={props.testId}
    >
      <h3 id={id}>{props.title}</h3>
      {props.children}
    </section>
  );
}

/**
 * A name or date set into a sentence, isolated (FSI … PDI): in Arabic, a Latin name beside a
 * date is otherwise run together with it by the bidi algorithm, which showed the note's
 * 'Ada Agent · Support · 27/11/2026، 10:03 م' as '27 · 2026/11/Ada Agent · Support · 10:03 م'.
 */
const isolated = (text: string) => `\u2068${text}\u2069`;

/**
 * Names and values as a description list; a missing value is a dash. A value the guest or the
 * agent wrote is passed as a <bdi>, in its own direction: an English answer in the Arabic page
 * otherwise showed its full stop at its start.
 */
function Facts(props: { facts: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {props.facts.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value ?? NONE}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * What a moment of the timeline tells beyond its kind and who, in the console's language: where a
 * transfer went, who ended the call, the rating.
 */
function timelineDetail(entry: TimelineEntry): string | null {
  switch (entry.kind) {
    case 'transfer_requested':
    case 'transferred': {
      const { target } = entry;
      if (!target) return null;
      if (target.name !== null) return t('timelineTo', { name: isolated(target.name) });
      return t(target.type === 'agent' ? 'timelineToAnAgent' : 'timelineToACategory');
    }
    case 'ended':
    case 'abandoned':
      return entry.endedBy && t(`timelineEndedBy_${entry.endedBy}`);
    case 'rated':
      return entry.rating === null
        ? null
        : t('reportRatingValue', { rating: formatCount(entry.rating) });
    default:
      return null;
  }
}

function CallDetail(props: { detail: ReportCallDetail; timeZone: string; onReload: () => void }) {
  const { detail, timeZone } = props;
  const { call } = detail;
  const when = (iso: string | null) => (iso === null ? NONE : formatDateTime(iso, timeZone));
  const legs = detail.legs.length > 1;

  return (
    <div className="call-detail">
      <Section title={t('reportCallSummary')} testId="call-summary">
        <p className="call-outcome">
          <OutcomeBadge outcome={call.outcome} /> <QualityFlags call={call} />
        </p>
        <Facts
          facts={[
            [t('reportStarted'), when(call.startedAt)],
            [t('reportAnsweredAt'), when(call.answeredAt)],
            [t('reportEndedAt'), when(call.endedAt)],
            [t('reportWait'), formatDuration(call.waitMs)],
            [t('reportHandle'), formatDuration(call.handleMs)],
            [t('reportCallType'), call.callType ? t(`callType_${call.callType}`) : NONE],
            [t('reportMethod'), t(`option_callMethod_${call.callMethod}`)],
            [
              t('reportPath'),
              call.relayed === null ? NONE : t(call.relayed ? 'reportRelayedFlag' : 'reportDirect'),
            ],
            [t('reportAgent'), call.agent?.name ?? NONE],
            [t('reportCategory'), call.category?.name ?? NONE],
            [t('reportHolds'), String(call.holds)],
            [t('reportTransfers'), String(call.transfers)],
            [
              t('reportGuest'),
              t('reportGuestValue', {
                name: detail.guest.username,
                count: String(detail.guest.previousCalls),
              }),
            ],
            [t('reportSetup'), formatMs(call.setupMs)],
            [t('reportRoundTrip'), formatMs(call.roundTripMs)],
          ]}
        />
      </Section>

      <Section title={t('reportRecordings')} testId="call-recordings" player>
        <Recordings
          recordings={detail.recordings}
          recorded={call.recorded}
          legs={legs}
          onReload={props.onReload}
        />
      </Section>

      <Section title={t('reportTimeline')} testId="call-timeline">
        {detail.timeline.length === 0 ? (
          <p className="report-empty">{t('reportNoTimeline')}</p>
        ) : (
          <ol className="timeline">
            {detail.timeline.map((entry, index) => {
              const more = timelineDetail(entry);
              return (
                <li key={`${entry.at}-${entry.kind}-${index}`} data-kind={entry.kind}>
                  <time dateTime={entry.at}>{formatClock(entry.at, timeZone)}</time>
                  <span className="timeline-what">
                    {t(`timeline_${entry.kind}`)}
                    {entry.staff && ` · ${entry.staff.name}`}
                    {more && ` · ${more}`}
                    {legs && entry.callId !== call.callId && (
                      <span className="help"> {t('reportInLeg', { callId: entry.callId })}</span>
                    )}
                  </span>
                </li>
              );
            })}
          </ol>
        )}
      </Section>

      <Section title={t('reportWelcomeAnswers')} testId="call-welcome">
        {detail.welcomeAnswers.length === 0 ? (
          <p className="report-empty">{t('reportNoWelcomeAnswers')}</p>
        ) : (
          <Facts
            facts={detail.welcomeAnswers.map((answer) => [answer.label, <bdi>{answer.value}</bdi>])}
          />
        )}
      </Section>

      <Section title={t('reportNotes')} testId="call-notes">
        {detail.legs.every((leg) => !leg.notes) ? (
          <p className="report-empty">{t('reportNoNotes')}</p>
        ) : (
          <ul className="notes-list">
            {detail.legs
              .filter((leg) => leg.notes)
              .map((leg) => (
                <li key={leg.callId}>
                  <p className="help">
                    {t('reportNoteBy', {
                      name: isolated(leg.agent?.name ?? t('reportNobody')),
                      category: isolated(leg.category?.name ?? NONE),
                      at: isolated(when(leg.createdAt)),
                    })}
                  </p>
                  {/* The agent's own words, in their own direction (an English note in Arabic). */}
                  <p className="note-text" dir="auto">
                    {leg.notes}
                  </p>
                </li>
              ))}
          </ul>
        )}
      </Section>

      <Section title={t('reportWrapUp')} testId="call-wrap-up">
        {detail.legs.every((leg) => !leg.wrapUp) ? (
          <p className="report-empty">{t('reportNoWrapUp')}</p>
        ) : (
          <ul className="notes-list">
            {detail.legs.map(
              (leg) =>
                leg.wrapUp && (
                  <li key={leg.callId}>
                    <p className="help">
                      {t('reportWrapUpBy', {
                        name: leg.agent?.name ?? t('reportNobody'),
                        category: leg.category?.name ?? NONE,
                      })}
                    </p>
                    <Facts
                      facts={[
                        [
                          t('reportOutcome'),
                          leg.wrapUp.outcomeLabel ?? leg.wrapUp.outcomeCode ?? t('reportNoOutcome'),
                        ],
                        [
                          t('reportFollowUp'),
                          leg.wrapUp.followUp ? (
                            <bdi>{leg.wrapUp.followUpNote ?? t('reportFollowUpAsked')}</bdi>
                          ) : (
                            t('reportFollowUpNone')
                          ),
                        ],
                      ]}
                    />
                  </li>
                ),
            )}
          </ul>
        )}
      </Section>

      <Section title={t('reportRating')} testId="call-rating">
        {detail.rating === null && detail.ratingForm === null ? (
          <p className="report-empty">{t('reportNotRated')}</p>
        ) : (
          <>
            {detail.rating !== null && (
              <p className="rating-value">
                {t('reportRatingValue', { rating: String(detail.rating) })}
              </p>
            )}
            {detail.ratingForm && (
              <>
                <h4>{detail.ratingForm.title}</h4>
                <Facts
                  facts={detail.ratingForm.answers.map((answer) => [
                    answer.label,
                    <bdi>{answer.value}</bdi>,
                  ])}
                />
              </>
            )}
          </>
        )}
      </Section>

      <Section title={t('reportFiles')} testId="call-files">
        {detail.files.length === 0 ? (
          <p className="report-empty">{t('reportNoFiles')}</p>
        ) : (
          <TableScroll label={t('reportFiles')}>
            <table className="report-table compact">
              <thead>
                <tr>
                  <th scope="col">{t('reportFileName')}</th>
                  <th scope="col">{t('reportFileSize')}</th>
                  <th scope="col">{t('reportFileFrom')}</th>
                  <th scope="col">{t('reportFileAt')}</th>
                </tr>
              </thead>
              <tbody>
                {detail.files.map((file) => (
                  <tr key={file.id}>
                    <th scope="row">{file.name}</th>
                    <td>{formatBytes(file.sizeBytes)}</td>
                    <td>{file.from === 'guest' ? t('reportFromGuest') : t('reportFromStaff')}</td>
                    <td>{formatClock(file.at, timeZone)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Section>

      <Section title={t('reportBugs')} testId="call-bugs">
        {detail.bugs.length === 0 ? (
          <p className="report-empty">{t('reportNoBugs')}</p>
        ) : (
          <ul className="bug-list">
            {detail.bugs.map((bug) => (
              <li key={bug.id}>
                <p>
                  {t('reportBugAt', {
                    at: when(bug.at),
                    entries: String(bug.logEntries),
                  })}
                </p>
                <Facts
                  facts={Object.entries(bug.clientInfo).map(([name, value]) => [
                    name,
                    typeof value === 'string' ? value : JSON.stringify(value),
                  ])}
                />
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title={t('reportSectionQuality')} testId="call-quality" wide>
        <QualityTable reports={detail.quality} legs={legs} />
      </Section>
    </div>
  );
}
