import { useId } from 'react';
import { Link } from 'react-router';
import { routes } from '@frontdesk/protocol';
import { useAppSelector } from '../../../app/hooks.ts';
import { t } from '../../../i18n/messages.ts';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { CopyButton } from '../../../ui/CopyButton.tsx';
import { useAdminResource, type AdminRequest } from '../listPage/useAdminResource.ts';

const loadOrigins = async ({ api, params, token }: AdminRequest) =>
  (await api(routes.companyAllowedOrigins, { params, token })).data.allowedOrigins;

/**
 * The line a company puts on its site for the "talk to us" button (apps/guest/src/embed/loader.ts
 * reads its `data-*`), served by this installation, in the company's button colour.
 */
export function embedSnippet(origin: string, companyId: number, colour: string | null): string {
  return [
    '<script',
    '  type="module"',
    `  src="${origin}/embed.js"`,
    `  data-company="${companyId}"`,
    '  data-label="Talk to us"',
    ...(colour ? [`  data-color="${colour}"`] : []),
    '></script>',
  ].join('\n');
}

/**
 * Embedding (`/console/admin/embedding`): the line to add to the company's site, and the sites
 * allowed to show the guest page, which are edited with the website settings (one place only).
 */
export function EmbeddingPage() {
  const id = useId();
  const resource = useAdminResource(loadOrigins);
  const company = useAppSelector((state) => state.auth.company);
  const snippet = company
    ? embedSnippet(window.location.origin, company.id, company.categoryBackgroundColor)
    : '';
  return (
    <AdminPage
      title={t('group_embedding')}
      intro={<p>{t('embeddingIntro')}</p>}
      resource={resource}
      testId="embedding-page"
    >
      {(origins) => (
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
        </>
      )}
    </AdminPage>
  );
}
