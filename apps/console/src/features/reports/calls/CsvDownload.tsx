import { useState } from 'react';
import { reportRoutes } from '@frontdesk/protocol';
import { describeError } from '../../../app/errors.ts';
import { saveFile } from '../../../app/saveFile.ts';
import { t } from '../../../i18n/messages.ts';
import { formatBytes } from '../format.ts';
import type { CallsView, callsQuery } from '../reportView.ts';
import { useReportRequest } from '../useReport.ts';

type Download =
  | { kind: 'idle' }
  | { kind: 'loading'; loaded: number }
  | { kind: 'failed'; message: string }
  | { kind: 'done'; name: string };

/**
 * Every call the filters match, one row each, as a CSV file: the API streams it (a year of calls
 * is not paged), so the button says how much has come meanwhile, and why it failed if it did.
 */
export function CsvDownload(props: { query: ReturnType<typeof callsQuery>; view: CallsView }) {
  const request = useReportRequest();
  const [download, setDownload] = useState<Download>({ kind: 'idle' });

  async function start() {
    setDownload({ kind: 'loading', loaded: 0 });
    const { downloadFile, token } = request();
    try {
      const file = await downloadFile(reportRoutes.reportCalls, {
        query: { ...props.query, format: 'csv' },
        ...(token ? { token } : {}),
        onProgress: ({ loaded }) => setDownload({ kind: 'loading', loaded }),
      });
      const name = `calls-${props.view.from}-${props.view.to}.csv`;
      saveFile(file, name);
      setDownload({ kind: 'done', name });
    } catch (error) {
      setDownload({ kind: 'failed', message: describeError(error) });
    }
  }

  const loading = download.kind === 'loading';
  return (
    <div className="csv-download">
      <button
        type="button"
        className="secondary"
        onClick={() => void start()}
        disabled={loading}
        aria-describedby="csv-download-status"
      >
        {loading && <span className="spinner" aria-hidden="true" />}
        {loading ? t('reportCsvPreparing') : t('reportCsvDownload')}
      </button>
      <div id="csv-download-status" aria-live="polite">
        {download.kind === 'loading' && (
          <p className="help">
            {download.loaded > 0
              ? t('reportCsvReceived', { size: formatBytes(download.loaded) })
              : t('reportCsvWaiting')}
          </p>
        )}
        {download.kind === 'done' && (
          <p className="help">{t('reportCsvDone', { name: download.name })}</p>
        )}
      </div>
      {download.kind === 'failed' && (
        <p role="alert" className="csv-error" data-testid="csv-error">
          {t('reportCsvFailed', { reason: download.message })}
        </p>
      )}
    </div>
  );
}
