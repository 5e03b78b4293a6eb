import type { DependencyStatus, Health } from '@frontdesk/protocol';
import { t } from '../../i18n/messages.ts';
import type { HealthView } from './useHealth.ts';

/** The services a call depends on, for the sign-in page (why sign-in fails) and for admins. */
export function HealthPanel({ view }: { view: HealthView }) {
  return (
    <section className="health" aria-labelledby="health-title">
      <h2 id="health-title">{t('services')}</h2>
      {view.state === 'loading' && (
        <p role="status" aria-live="polite">
          {t('checkingServices')}
        </p>
      )}
      {view.state === 'failed' && <p role="alert">{view.message}</p>}
      {view.state === 'loaded' && (
        <table>
          <caption className="visually-hidden">{t('services')}</caption>
          <tbody>
            {!view.health.dependencies && (
              // Signed out, the API says only whether everything is up.
              <tr data-testid="dependency-all" data-status={view.health.status}>
                <th scope="row">{t('service_all')}</th>
                <td>{view.health.status === 'up' ? t('serviceRunning') : t('serviceAllDown')}</td>
              </tr>
            )}
            {Object.entries(view.health.dependencies ?? {}).map(
              ([key, dependency]: [string, DependencyStatus]) => {
                const name = key as keyof NonNullable<Health['dependencies']>;
                return (
                  <tr key={key} data-testid={`dependency-${key}`} data-status={dependency.status}>
                    <th scope="row">{t(`service_${name}`)}</th>
                    <td>
                      {dependency.status === 'up'
                        ? t('serviceRunning')
                        : t('serviceDown', { error: dependency.error ?? '' })}
                    </td>
                  </tr>
                );
              },
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
