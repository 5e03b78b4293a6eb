import { parseTurnUrl, type DoctorCheck, type DoctorStatus } from '@frontdesk/protocol';
import { t } from '../../i18n/messages.ts';
import type { RelayResult } from './relayCheck.ts';
import type { ClockComparison, DoctorView } from './useDoctor.ts';

/** This browser's clock this far from the server's is worth a look, and this far breaks sign-in. */
const CLOCK_WARN_SECONDS = 30;
const CLOCK_FAIL_SECONDS = 300;

function relayCheck(relay: RelayResult): DoctorCheck {
  const via = relay.via.toUpperCase();
  const turn = parseTurnUrl(relay.url);
  const port = `${relay.via === 'udp' ? 'UDP' : 'TCP'} ${turn?.port ?? ''}`.trim();
  return relay.ok
    ? {
        id: `browser.relay.${relay.via}`,
        title: t('relayTitle', { via }),
        status: 'ok',
        detail: t('relayOk', { address: relay.message }),
      }
    : {
        id: `browser.relay.${relay.via}`,
        title: t('relayTitle', { via }),
        status: 'fail',
        detail: t('relayFailed', { reason: relay.message }),
        fix: t('relayFailedFix', { via, port }),
      };
}

function clockCheck({ skewSeconds }: ClockComparison): DoctorCheck {
  const seconds = String(Math.abs(skewSeconds));
  const apart = Math.abs(skewSeconds);
  const base = { id: 'browser.clock', title: t('clockTitle') };
  if (apart < CLOCK_WARN_SECONDS) {
    return {
      ...base,
      status: 'ok',
      detail: t('clockAgrees', { seconds: String(CLOCK_WARN_SECONDS) }),
    };
  }
  const direction = skewSeconds > 0 ? t('clockAhead') : t('clockBehind');
  return {
    ...base,
    status: apart >= CLOCK_FAIL_SECONDS ? 'fail' : 'warn',
    detail: t('clockDiffers', { seconds, direction }),
    fix: t('clockFix'),
  };
}

/** The browser's own checks, as rows like the server's. */
function browserChecks(view: Extract<DoctorView, { state: 'loaded' }>): DoctorCheck[] {
  const clock = clockCheck(view.clock);
  if (view.relays === 'checking') {
    return [
      {
        id: 'browser.relay',
        title: t('relayTitle', { via: 'UDP/TCP/TLS' }),
        status: 'ok',
        detail: t('relayChecking'),
      },
      clock,
    ];
  }
  if (view.relays === 'unsupported') {
    const relay: DoctorCheck = {
      id: 'browser.relay',
      title: t('relayTitle', { via: 'UDP/TCP/TLS' }),
      status: 'warn',
      detail: t('relayUnsupported'),
      fix: t('relayUnsupported'),
    };
    return [relay, clock];
  }
  if (view.report.iceServers.length === 0) return [clock];
  return [...view.relays.map(relayCheck), clock];
}

const statusLabel = (status: DoctorStatus) => t(`doctor_${status}`);

function CheckList({ checks, pending }: { checks: readonly DoctorCheck[]; pending?: string }) {
  return (
    <ul className="doctor-checks">
      {checks.map((check) => (
        <li
          key={check.id}
          data-testid={`doctor-${check.id}`}
          data-status={check.id === pending ? 'pending' : check.status}
        >
          <span className={`doctor-status ${check.status}`}>
            {check.id === pending ? '…' : statusLabel(check.status)}
          </span>
          <div>
            <strong>{check.title}</strong>
            <p>{check.detail}</p>
            {check.fix && <p className="doctor-fix">{t('doctorFix', { fix: check.fix })}</p>}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The admins' self-test: a button, then each check with OK/WARN/FAIL and the fix of each problem. */
export function DoctorPanel({ view, onRun }: { view: DoctorView; onRun: () => void }) {
  const running = view.state === 'running';
  return (
    <section className="health doctor" aria-labelledby="doctor-title" aria-busy={running}>
      <h2 id="doctor-title">{t('doctorTitle')}</h2>
      <p>{t('doctorIntro')}</p>
      <button type="button" className="secondary" onClick={onRun} disabled={running}>
        {view.state === 'idle' ? t('doctorRun') : t('doctorRunAgain')}
      </button>
      {running && (
        <p role="status" aria-live="polite">
          {t('doctorRunning')}
        </p>
      )}
      {view.state === 'failed' && <p role="alert">{t('doctorFailed', { reason: view.message })}</p>}
      {view.state === 'loaded' && (
        <>
          <h3>{t('doctorServerSide')}</h3>
          <CheckList checks={view.report.checks} />
          <h3>{t('doctorBrowserSide')}</h3>
          {view.report.iceServers.length === 0 && <p>{t('relayNone')}</p>}
          <CheckList
            checks={browserChecks(view)}
            {...(view.relays === 'checking' ? { pending: 'browser.relay' } : {})}
          />
          <h3>{t('doctorNotChecked')}</h3>
          <ul className="doctor-not-checked">
            {view.report.notChecked.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
