import { useId, useRef, useState } from 'react';
import {
  staffUpdateBodySchema,
  type AdminCategory,
  type StaffAdminEntry,
  type StaffRole,
  type StaffUpdateBody,
} from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { Dialog } from '../../../ui/Dialog.tsx';
import { SaveSummary } from '../SaveSummary.tsx';
import { fieldError, type WriteResult } from '../listPage/useAdminResource.ts';

/** The fields of the edit that differ from the member as saved; `null` when none does. */
export function memberChanges(
  member: StaffAdminEntry,
  draft: { name: string; role: StaffRole; categoryIds: number[] },
): StaffUpdateBody | null {
  const body: StaffUpdateBody = {};
  if (draft.name.trim() !== member.name) body.name = draft.name;
  if (draft.role !== member.role) body.role = draft.role;
  const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b).join();
  if (sorted(draft.categoryIds) !== sorted(member.categoryIds))
    body.categoryIds = draft.categoryIds;
  return Object.keys(body).length > 0 ? body : null;
}

/**
 * Edits a member's name, role and the categories they serve. It stays open when the API refuses
 * (a field named, the last admin kept, a stale version to reload), keeping what was typed.
 */
export function MemberDialog(props: {
  member: StaffAdminEntry;
  categories: readonly AdminCategory[];
  busy: boolean;
  onSave: (body: StaffUpdateBody) => Promise<WriteResult<unknown>>;
  onReload: () => void;
  onClose: () => void;
}) {
  const { member } = props;
  const id = useId();
  const nameBox = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(member.name);
  const [role, setRole] = useState<StaffRole>(member.role);
  const [categoryIds, setCategoryIds] = useState(member.categoryIds);
  const [nameError, setNameError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<Extract<WriteResult<unknown>, { ok: false }> | null>(null);

  async function save() {
    const body = memberChanges(member, { name, role, categoryIds });
    if (!body) {
      props.onClose();
      return;
    }
    const parsed = staffUpdateBodySchema.safeParse(body);
    const invalidName = parsed.error?.issues.find((issue) => issue.path[0] === 'name');
    setNameError(invalidName?.message);
    if (!parsed.success) return;
    const result = await props.onSave(body);
    if (result.ok) {
      props.onClose();
      return;
    }
    setRefusal(result);
    setNameError(fieldError(result, 'name'));
  }

  return (
    <Dialog
      title={t('editMemberTitle', { name: member.name })}
      onCancel={props.onClose}
      initialFocus={nameBox}
      testId="member-dialog"
    >
      <form
        className="admin-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {refusal && (
          <SaveSummary
            status={refusal.outcome}
            onUndo={() => undefined}
            onReload={() => {
              setRefusal(null);
              props.onReload();
            }}
            onDismiss={() => setRefusal(null)}
          />
        )}
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('memberName')}</label>
          <input
            id={`${id}-name`}
            ref={nameBox}
            type="text"
            value={name}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          {nameError && (
            <p id={`${id}-name-error`} className="field-error">
              {nameError}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>{t('memberRole')}</label>
          <select
            id={`${id}-role`}
            value={role}
            onChange={(event) => setRole(event.target.value as StaffRole)}
          >
            <option value="agent">{t('role_agent')}</option>
            <option value="admin">{t('role_admin')}</option>
          </select>
        </div>
        <fieldset className="choices" aria-describedby={`${id}-categories-help`}>
          <legend>{t('memberCategories')}</legend>
          <p id={`${id}-categories-help`} className="help">
            {t('memberCategoriesHelp')}
          </p>
          {props.categories.length === 0 && <p>{t('noCategoriesToServe')}</p>}
          {props.categories.map((category) => (
            <label key={category.id} className="choice">
              <input
                type="checkbox"
                checked={categoryIds.includes(category.id)}
                onChange={(event) =>
                  setCategoryIds((ids) =>
                    event.target.checked
                      ? [...ids, category.id]
                      : ids.filter((other) => other !== category.id),
                  )
                }
              />
              {category.name}
            </label>
          ))}
        </fieldset>
        <div className="actions">
          <button type="button" className="secondary" onClick={props.onClose}>
            {t('cancel')}
          </button>
          <button type="submit" disabled={props.busy}>
            {props.busy ? t('saving') : t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
