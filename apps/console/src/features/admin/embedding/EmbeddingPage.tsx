import { useId, useState } from 'react';
import { Link } from 'react-router';
import { adminRoutes, type EmbedSecret } from '@frontdesk/protocol';
import { useAppSelector } from '../../../app/hooks.ts';
import { t } from '../../../i18n/messages.ts';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { CopyButton } from '../../../ui/CopyButton.tsx';
import { useAdminResource, type AdminRequest } from '../listPage/useAdminResource.ts';

const loadEmbedding = async ({ api, params, token }: AdminRequest) => {
  const [origins, secret] = await Promise.all([
    api(adminRoutes.companyAllowedOrigins, { params, token }),
    api(adminRoutes.companyEmbedSecret, { params, token }),
  ]);
  return { origins: origins.data.allowedOrigins, secret: secret.data };
};

/**
 * The snippet a company puts on its site (docs/embed.md): `Frontdesk(…)` queues its calls until
 * this installation's loader (apps/guest/src/embed/loader.ts) has loaded, then boots the
 * launcher, which takes the company's colours itself.
 */
export function embedSnippet(origin: string, companyId: number): string {
  return [
    '<script>',
    '  (function (w, d, u) {',
    '    var f = (w.Frontdesk = w.Frontdesk || function () { (f.q = f.q || []).push(arguments); });',
    "    var s = d.createElement('script'); s.type = 'module'; s.src = u; d.head.appendChild(s);",
    `  })(window, document, '${origin}/embed.js');`,
    `  Frontdesk('boot', { company: ${companyId}, label: 'Talk to us' });`,
    '</script>',
  ].join('\n');
}

/** The key the company's server signs its visitors' identity with (decision 0021). */
function SecretCard(props: { secret: EmbedSecret; busy: boolean; onRotate: () => void }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const { secret } = props.secret;
  return (
    <div className="card">
      <h3 id={`${id}-title`}>{t('embedSecretTitle')}</h3>
      <p className="help">{t('embedSecretHelp')}</p>
      {secret === null ? (
        <p>{t('embedSecretNone')}</p>
      ) : (
        <>
          <p dir="ltr">
            <code aria-labelledby={`${id}-title`} data-testid="embed-secret">
              {shown ? secret : '•'.repeat(24)}
            </code>
          </p>
          <p className="actions">
            <button
              type="button"
              className="secondary"
              aria-pressed={shown}
              onClick={() => setShown(!shown)}
            >
              {t('embedSecretShow')}
            </button>
            <CopyButton text={secret} label={t('embedSecretCopy')} />
          </p>
        </>
      )}
      <p className="actions">
        <button type="button" disabled={props.busy} onClick={props.onRotate}>
          {secret === null ? t('embedSecretMake') : t('embedSecretRotate')}
        </button>
      </p>
      {secret !== null && <p className="help">{t('embedSecretRotateHelp')}</p>}
    </div>
  );
}

/**
 * Embedding (`/console/admin/embedding`): the line to add to the company's site, and the sites
 * allowed to show the guest page, which are edited with the website settings (one place only).
 */
export function EmbeddingPage() {
  const id = useId();
  const resource = useAdminResource(loadEmbedding);
  const company = useAppSelector((state) => state.auth.company);
  const snippet = company ? embedSnippet(window.location.origin, company.id) : '';
  const rotate = () =>
    resource.write(
      ({ api, params, token }, ifMatch) =>
        api(adminRoutes.rotateCompanyEmbedSecret, { params, token, ifMatch }),
      () => t('embedSecretRotated'),
    );
  return (
    <AdminPage
      title={t('group_embedding')}
      intro={<p>{t('embeddingIntro')}</p>}
      resource={resource}
      testId="embedding-page"
    >
      {({ origins, secret }) => (
        <>
          <div className="card snippet">
            <h3 id={`${id}-snippet`}>{t('snippetLabel')}</h3>
            <pre aria-labelledby={`${id}-snippet`} dir="ltr">
              <code data-testid="embed-snippet">{snippet}</code>
            </pre>
            <CopyButton text={snippet} label={t('copySnippet')} />
            <p className="help">{t('embeddingApi')}</p>
          </div>
          <div className="card">
            <h3>{t('embeddingSites')}</h3>
            <p className="help">{t('embeddingSitesHelp')}</p>
            {origins.length === 0 ? (
              <p>{t('embeddingSitesNone')}</p>
            ) : (
              <ul className="origins" dir="ltr">
                {origins.map((origin) => (
                  <li key={origin}>
                    <code>{origin}</code>
                  </li>
                ))}
              </ul>
            )}
            <p>
              <Link to="/admin/website">{t('embeddingSitesChange')}</Link>
            </p>
          </div>
          <SecretCard secret={secret} busy={resource.busy} onRotate={() => void rotate()} />
        </>
      )}
    </AdminPage>
  );
}
