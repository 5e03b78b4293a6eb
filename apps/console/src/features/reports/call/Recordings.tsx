import { useState } from 'react';
import type { Recording } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { formatDateTime } from '../../admin/listPage/formatTime.ts';
import { formatBytes, formatDuration } from '../format.ts';
import { useReportTimeZone } from '../useReport.ts';

/** The film's link with `download=true`: the API then sends it as a file to save. */
function downloadUrl(url: string): string {
  const link = new URL(url, window.location.href);
  link.searchParams.set('download', 'true');
  return link.origin === window.location.origin ? `${link.pathname}${link.search}` : link.href;
}

/**
 * A conversation's recordings, one per call leg: a player for each merged film (it seeks by
 * range requests), a download link, and what became of a merge that is not ready. The links are
 * signed for a few minutes: a player whose link has run out offers to fetch fresh ones.
 */
export function Recordings(props: {
  recordings: Recording[];
  recorded: boolean;
  legs: boolean;
  onReload: () => void;
}) {
  if (props.recordings.length === 0) {
    return props.recorded ? (
      <EmptyState
        title={t('reportRecordingMissing')}
        hint={t('reportRecordingMissingHint')}
        action={
          <button type="button" className="secondary" onClick={props.onReload}>
            {t('reportRecordingCheckAgain')}
          </button>
        }
      />
    ) : (
      <EmptyState title={t('reportNotRecorded')} hint={t('reportNotRecordedHint')} />
    );
  }
  return (
    <ul className="recordings">
      {props.recordings.map((recording) => (
        <li key={recording.callId} data-testid="recording" data-status={recording.status}>
          {props.legs && <p className="help">{t('reportInLeg', { callId: recording.callId })}</p>}
          {/* A fresh link is a fresh player: what the old one failed at is gone with it. */}
          <RecordingItem
            key={recording.url ?? recording.status}
            recording={recording}
            onReload={props.onReload}
          />
        </li>
      ))}
    </ul>
  );
}

function RecordingItem(props: { recording: Recording; onReload: () => void }) {
  const { recording } = props;
  const [broken, setBroken] = useState(false);
  const timeZone = useReportTimeZone();
  switch (recording.status) {
    case 'pending':
      return (
        <p role="status">
          <span className="spinner" aria-hidden="true" />
          {t('reportRecordingPending', { attempts: String(recording.attempts) })}
        </p>
      );
    case 'failed':
      return (
        <p role="alert">
          {t('reportRecordingFailed', {
            attempts: String(recording.attempts),
            reason: recording.error ?? t('reportNoReason'),
          })}
        </p>
      );
    case 'empty':
      return <p className="report-empty">{t('reportRecordingEmpty')}</p>;
    case 'ready':
      if (recording.expiredAt !== undefined)
        return (
          <p className="report-empty" data-testid="recording-expired">
            {t('reportRecordingExpired', { date: formatDateTime(recording.expiredAt, timeZone) })}
          </p>
        );
      if (recording.url === null)
        return <p className="report-empty">{t('reportRecordingNoLink')}</p>;
      return (
        <div className="recording-player">
          <video
            controls
            preload="metadata"
            src={recording.url}
            data-testid="recording-video"
            aria-label={t('reportRecordingPlayer', {
              length: formatDuration(recording.durationMs),
            })}
            onError={() => setBroken(true)}
          />
          <p className="recording-facts">
            <span>
              {t('reportRecordingFacts', {
                length: formatDuration(recording.durationMs),
                size: formatBytes(recording.sizeBytes),
              })}
            </span>
            <a href={downloadUrl(recording.url)} download data-testid="recording-download">
              {t('reportRecordingDownload')}
            </a>
          </p>
          {broken && (
            <div role="alert" className="banner">
              <p>{t('reportRecordingBroken')}</p>
              <button type="button" className="secondary" onClick={props.onReload}>
                {t('reportRecordingRefresh')}
              </button>
            </div>
          )}
        </div>
      );
  }
}
