import type { Health } from '@frontdesk/protocol';
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
            {(Object.keys(view.health.dependencies) as (keyof Health['dependencies'])[]).map(
              (key) => {
                const dependency = view.health.dependencies[key];
                return (
                  <tr key={key} data-testid={`dependency-${key}`} data-status={dependency.status}>
                    <th scope="row">{t(`service_${key}`)}</th>
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
