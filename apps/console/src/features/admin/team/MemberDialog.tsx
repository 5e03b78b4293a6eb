import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  staffUpdateBodySchema,
  type AdminCategory,
  type CompanyDetails,
  type StaffAdminEntry,
  type StaffRole,
  type StaffUpdateBody,
} from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { ListField } from '../listPage/ListField.tsx';
import { EditDialog, type Refusal } from '../listPage/EditDialog.tsx';
import { sameIds, toggled } from '../listPage/idLists.ts';
import { fieldError, type WriteResult } from '../listPage/useAdminResource.ts';

/** Whether the company routes calls to assignment groups, and the groups it lists (decision 0019). */
export type AssignmentGroups = Pick<CompanyDetails, 'assignments' | 'assignmentGroups'>;

/** The fields of the edit that differ from the member as saved; `null` when none does. */
export function memberChanges(
  member: StaffAdminEntry,
  draft: { name: string; role: StaffRole; categoryIds: number[]; assignmentGroupIds: string[] },
): StaffUpdateBody | null {
  const body: StaffUpdateBody = {};
  if (draft.name.trim() !== member.name) body.name = draft.name;
  if (draft.role !== member.role) body.role = draft.role;
  if (!sameIds(draft.categoryIds, member.categoryIds)) body.categoryIds = draft.categoryIds;
  if (!sameIds(draft.assignmentGroupIds, member.assignmentGroupIds))
    body.assignmentGroupIds = draft.assignmentGroupIds;
  return Object.keys(body).length > 0 ? body : null;
}

/**
 * Edits a member's name, role, the categories they serve and, when the company uses them, the
 * assignment groups they belong to. It stays open when the API refuses (a field named, the last
 * admin kept, a stale version to reload), keeping what was typed.
 */
export function MemberDialog(props: {
  member: StaffAdminEntry;
  categories: readonly AdminCategory[];
  groups: AssignmentGroups;
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
  const [assignmentGroupIds, setAssignmentGroupIds] = useState(member.assignmentGroupIds);
  const [nameError, setNameError] = useState<string | undefined>();
  const [groupsError, setGroupsError] = useState<string | undefined>();

  async function save(): Promise<Refusal | null> {
    const body = memberChanges(member, { name, role, categoryIds, assignmentGroupIds });
    if (!body) {
      props.onClose();
      return null;
    }
    const parsed = staffUpdateBodySchema.safeParse(body);
    const invalidName = parsed.error?.issues.find((issue) => issue.path[0] === 'name');
    setNameError(invalidName?.message);
    if (!parsed.success) return null;
    const result = await props.onSave(body);
    if (result.ok) {
      props.onClose();
      return null;
    }
    setNameError(fieldError(result, 'name'));
    setGroupsError(fieldError(result, 'assignmentGroupIds'));
    return result;
  }

  return (
    <EditDialog
      title={t('editMemberTitle', { name: member.name })}
      testId="member-dialog"
      initialFocus={nameBox}
      busy={props.busy}
      onSubmit={save}
      onReload={props.onReload}
      onClose={props.onClose}
    >
      <ListField label={t('memberName')} error={nameError}>
        {(control) => (
          <input
            {...control}
            ref={nameBox}
            type="text"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </ListField>
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
                setCategoryIds((ids) => toggled(ids, category.id, event.target.checked))
              }
            />
            {category.name}
          </label>
        ))}
      </fieldset>
      <fieldset
        className="choices"
        aria-describedby={[`${id}-groups-help`, groupsError && `${id}-groups-error`]
          .filter(Boolean)
          .join(' ')}
      >
        <legend>{t('memberGroups')}</legend>
        <p id={`${id}-groups-help`} className="help">
          {props.groups.assignments ? t('memberGroupsHelp') : t('memberGroupsOff')}{' '}
          {(!props.groups.assignments || props.groups.assignmentGroups.length === 0) && (
            <Link to="/admin/call">{t('memberGroupsSettingsLink')}</Link>
          )}
        </p>
        {props.groups.assignments && props.groups.assignmentGroups.length === 0 && (
          <p>{t('noAssignmentGroups')}</p>
        )}
        {props.groups.assignments &&
          props.groups.assignmentGroups.map((group) => (
            <label key={group.id} className="choice">
              <input
                type="checkbox"
                checked={assignmentGroupIds.includes(group.id)}
                onChange={(event) =>
                  setAssignmentGroupIds((ids) => toggled(ids, group.id, event.target.checked))
                }
              />
              {group.name}
            </label>
          ))}
        {groupsError && (
          <p id={`${id}-groups-error`} className="field-error">
            {groupsError}
          </p>
        )}
      </fieldset>
    </EditDialog>
  );
}
