import { useId, useState } from 'react';
import { adminRoutes, blockBodySchema, type GuestBlock } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { ListField } from '../listPage/ListField.tsx';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { formatDateTime, useCompanyTimeZone } from '../listPage/formatTime.ts';
import { fieldError, useAdminResource, type AdminRequest } from '../listPage/useAdminResource.ts';

const loadBlocks = async ({ api, params, token }: AdminRequest) =>
  (await api(adminRoutes.companyBlocks, { params, token })).data;

/** A fingerprint is long and means nothing to a person: its start tells entries apart. */
const shortFingerprint = (fingerprint: string) => `${fingerprint.slice(0, 10)}…`;

/** Blocks the guest of one of the company's calls, named by its call id. */
function BlockByCall(props: {
  busy: boolean;
  onBlock: (body: { callId: string; reason?: string }) => Promise<Record<string, string>>;
}) {
  const id = useId();
  const [callId, setCallId] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <form
      className="admin-form card"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const body = { callId: callId.trim(), ...(reason.trim() ? { reason } : {}) };
        const parsed = blockBodySchema.safeParse(body);
        if (!parsed.success) {
          setErrors(
            Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message])),
          );
          return;
        }
        setErrors({});
        void props.onBlock(body).then((refused) => {
          setErrors(refused);
          if (Object.keys(refused).length === 0) {
            setCallId('');
            setReason('');
          }
        });
      }}
    >
      <h3 id={`${id}-title`}>{t('blockByCall')}</h3>
      <div className="form-row">
        <ListField label={t('callIdLabel')} help={t('callIdHelp')} error={errors.callId}>
          {(control) => (
            <input
              {...control}
              type="text"
              dir="ltr"
              spellCheck={false}
              autoComplete="off"
              value={callId}
              onChange={(event) => setCallId(event.target.value)}
            />
          )}
        </ListField>
        <ListField label={t('blockReason')} help={t('blockReasonHelp')} error={errors.reason}>
          {(control) => (
            <input
              {...control}
              type="text"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </ListField>
      </div>
      <div className="actions">
        <button type="submit" className="danger" disabled={props.busy}>
          {props.busy ? t('blocking') : t('blockSubmit')}
        </button>
      </div>
    </form>
  );
}

/**
 * The block list (`/console/admin/blocks`): who is blocked, why, since when and from which call;
 * unblock; block the guest of a call by its id.
 */
export function BlocksPage() {
  const resource = useAdminResource(loadBlocks);
  const { write, busy } = resource;
  const timeZone = useCompanyTimeZone();

  async function block(body: { callId: string; reason?: string }) {
    const result = await write(
      ({ api, params, token }, ifMatch) =>
        api(adminRoutes.blockGuest, { params, body, token, ifMatch }),
      () => t('blockedOutcome', { callId: body.callId }),
    );
    if (result.ok) return {};
    const refused: Record<string, string> = {};
    for (const field of ['callId', 'reason']) {
      const message = fieldError(result, field);
      if (message) refused[field] = message;
    }
    return refused;
  }

  async function unblock(entry: GuestBlock) {
    await write(
      ({ api, token, companyId }, ifMatch) =>
        api(adminRoutes.unblockGuest, {
          params: { id: String(companyId), blockId: String(entry.id) },
          token,
          ifMatch,
        }),
      () => t('unblockedOutcome', { fingerprint: shortFingerprint(entry.fingerprint) }),
    );
  }

  return (
    <AdminPage
      title={t('group_blocks')}
      intro={<p>{t('blocksIntro')}</p>}
      resource={resource}
      testId="blocks-page"
    >
      {(blocks) => (
        <>
          <BlockByCall busy={busy} onBlock={block} />
          {blocks.length === 0 ? (
            <EmptyState title={t('noBlocks')} hint={t('blocksEmptyHint')} />
          ) : (
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('blockColumnBrowser')}</th>
                  <th scope="col">{t('blockColumnReason')}</th>
                  <th scope="col">{t('blockColumnWhen')}</th>
                  <th scope="col">{t('blockColumnCall')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('staffColumnActions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {blocks.map((entry) => (
                  <tr key={entry.id} data-testid="block-row">
                    <th scope="row">
                      <code title={entry.fingerprint} dir="ltr">
                        {shortFingerprint(entry.fingerprint)}
                      </code>
                    </th>
                    <td data-label={t('blockColumnReason')}>{entry.reason ?? t('nobody')}</td>
                    <td data-label={t('blockColumnWhen')}>
                      {formatDateTime(entry.createdAt, timeZone)}
                    </td>
                    <td data-label={t('blockColumnCall')}>
                      {entry.callId ? (
                        <code dir="ltr" className="call-id">
                          {entry.callId}
                        </code>
                      ) : (
                        t('nobody')
                      )}
                    </td>
                    <td className="row-actions">
                      <button
                        type="button"
                        className="secondary"
                        disabled={busy}
                        aria-label={t('unblockLabel', {
                          fingerprint: shortFingerprint(entry.fingerprint),
                        })}
                        onClick={() => void unblock(entry)}
                      >
                        {t('unblock')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </AdminPage>
  );
}
