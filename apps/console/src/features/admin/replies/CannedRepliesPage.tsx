import { useRef, useState } from 'react';
import {
  adminRoutes,
  cannedReplyBodySchema,
  type CannedReply,
  type CannedReplyBody,
} from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import './replies.css';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { EditDialog, type Refusal } from '../listPage/EditDialog.tsx';
import { ListField } from '../listPage/ListField.tsx';
import {
  useAdminResource,
  type AdminRequest,
  type WriteResult,
} from '../listPage/useAdminResource.ts';

const loadReplies = async ({ api, params, token }: AdminRequest): Promise<CannedReply[]> =>
  (await api(adminRoutes.cannedReplies, { params, token })).data;

const EMPTY: CannedReplyBody = { title: '', shortcut: '', text: '' };

/**
 * Adds or edits a reply: its title, its shortcut and its text, checked as the API checks them
 * (each field's error beside it); stays open on a refusal, keeping what was typed.
 */
function ReplyDialog(props: {
  reply: CannedReply | null;
  busy: boolean;
  onSave: (body: CannedReplyBody) => Promise<WriteResult<unknown>>;
  onReload: () => void;
  onClose: () => void;
}) {
  const titleBox = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState<CannedReplyBody>(() => {
    const { title, shortcut, text } = props.reply ?? EMPTY;
    return { title, shortcut, text };
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const edit = (change: Partial<CannedReplyBody>) => setDraft((now) => ({ ...now, ...change }));

  async function save(): Promise<Refusal | null> {
    const parsed = cannedReplyBodySchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message])),
      );
      return null;
    }
    setErrors({});
    const result = await props.onSave(parsed.data);
    if (result.ok) {
      props.onClose();
      return null;
    }
    return result;
  }

  return (
    <EditDialog
      title={
        props.reply ? t('editCannedReplyTitle', { title: props.reply.title }) : t('addCannedReply')
      }
      testId="canned-reply-dialog"
      initialFocus={titleBox}
      busy={props.busy}
      onSubmit={save}
      onReload={props.onReload}
      onClose={props.onClose}
    >
      <ListField label={t('cannedReplyTitle')} error={errors.title}>
        {(control) => (
          <input
            {...control}
            ref={titleBox}
            type="text"
            value={draft.title}
            onChange={(event) => edit({ title: event.target.value })}
          />
        )}
      </ListField>
      <ListField
        label={t('cannedReplyShortcut')}
        help={t('cannedReplyShortcutHelp')}
        error={errors.shortcut}
      >
        {(control) => (
          <input
            {...control}
            type="text"
            dir="ltr"
            autoCapitalize="none"
            spellCheck={false}
            value={draft.shortcut}
            onChange={(event) => edit({ shortcut: event.target.value })}
          />
        )}
      </ListField>
      <ListField label={t('cannedReplyText')} error={errors.text}>
        {(control) => (
          <textarea
            {...control}
            rows={5}
            value={draft.text}
            onChange={(event) => edit({ text: event.target.value })}
          />
        )}
      </ListField>
    </EditDialog>
  );
}

type Asking = { kind: 'add' } | { kind: 'edit' | 'delete'; reply: CannedReply };

/**
 * The company's canned replies (`/console/admin/replies`, issue 19 item 4): the ready answers
 * its agents insert in a chat with `/shortcut` or the Replies picker; added, edited, deleted.
 */
export function CannedRepliesPage() {
  const resource = useAdminResource(loadReplies);
  const { write, busy } = resource;
  const [asking, setAsking] = useState<Asking | null>(null);

  const save = (reply: CannedReply | null, body: CannedReplyBody) =>
    write(
      ({ api, params, token, companyId }, ifMatch) =>
        reply
          ? api(adminRoutes.updateCannedReply, {
              params: { id: String(companyId), replyId: String(reply.id) },
              body,
              token,
              ifMatch,
            })
          : api(adminRoutes.createCannedReply, { params, body, token, ifMatch }),
      ({ data }) =>
        t(reply ? 'cannedReplySavedOutcome' : 'cannedReplyAddedOutcome', { title: data.title }),
      'caller',
    );

  async function remove(reply: CannedReply) {
    await write(
      ({ api, token, companyId }, ifMatch) =>
        api(adminRoutes.deleteCannedReply, {
          params: { id: String(companyId), replyId: String(reply.id) },
          token,
          ifMatch,
        }),
      () => t('cannedReplyDeletedOutcome', { title: reply.title }),
    );
    setAsking(null);
  }

  return (
    <AdminPage
      title={t('group_replies')}
      intro={<p>{t('cannedRepliesIntro')}</p>}
      resource={resource}
      testId="canned-replies-page"
    >
      {(replies) => (
        <>
          {replies.length === 0 && (
            <EmptyState title={t('noCannedRepliesYet')} hint={t('cannedRepliesEmptyHint')} />
          )}
          <ul className="canned-reply-list">
            {replies.map((reply) => (
              <li key={reply.id} data-testid="canned-reply-row">
                <span className="canned-reply-head">
                  <strong>{reply.title}</strong> <code dir="ltr">/{reply.shortcut}</code>
                </span>
                <span className="canned-reply-text">{reply.text}</span>
                <span className="row-actions">
                  <button
                    type="button"
                    className="secondary"
                    aria-label={t('editCannedReplyLabel', { title: reply.title })}
                    onClick={() => setAsking({ kind: 'edit', reply })}
                  >
                    {t('editCannedReply')}
                  </button>
                  <button
                    type="button"
                    className="secondary danger-text"
                    aria-label={t('deleteCannedReplyLabel', { title: reply.title })}
                    onClick={() => setAsking({ kind: 'delete', reply })}
                  >
                    {t('deleteCannedReply')}
                  </button>
                </span>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => setAsking({ kind: 'add' })}>
            {t('addCannedReply')}
          </button>
          {(asking?.kind === 'add' || asking?.kind === 'edit') && (
            <ReplyDialog
              reply={asking.kind === 'edit' ? asking.reply : null}
              busy={busy}
              onSave={(body) => save(asking.kind === 'edit' ? asking.reply : null, body)}
              onReload={() => void resource.reload()}
              onClose={() => setAsking(null)}
            />
          )}
          {asking?.kind === 'delete' && (
            <ConfirmDialog
              title={t('deleteCannedReplyTitle', { title: asking.reply.title })}
              description={<p>{t('deleteCannedReplyText')}</p>}
              confirmLabel={t('deleteCannedReply')}
              cancelLabel={t('cancel')}
              danger
              busy={busy}
              onConfirm={() => void remove(asking.reply)}
              onCancel={() => setAsking(null)}
              testId="confirm-delete-canned-reply"
            />
          )}
        </>
      )}
    </AdminPage>
  );
}
