import { useId, useRef, useState } from 'react';
import {
  categoryUpdateBodySchema,
  type AdminCategory,
  type CategoryUpdateBody,
  type StaffAdminEntry,
} from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { ListField } from '../listPage/ListField.tsx';
import { EditDialog, type Refusal } from '../listPage/EditDialog.tsx';
import { sameIds, toggled } from '../listPage/idLists.ts';
import type { WriteResult } from '../listPage/useAdminResource.ts';

type Draft = {
  name: string;
  textColor: string;
  backgroundColor: string;
  agentIds: number[];
};

const colourOrNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** What the edit changes, as `PATCH /company/:id/categories/:categoryId` takes it; null: nothing. */
export function categoryChanges(category: AdminCategory, draft: Draft): CategoryUpdateBody | null {
  const body: CategoryUpdateBody = {};
  if (draft.name.trim() !== category.name) body.name = draft.name;
  if (colourOrNull(draft.textColor) !== category.textColor) {
    body.textColor = colourOrNull(draft.textColor);
  }
  if (colourOrNull(draft.backgroundColor) !== category.backgroundColor) {
    body.backgroundColor = colourOrNull(draft.backgroundColor);
  }
  if (!sameIds(draft.agentIds, category.agentIds)) body.agentIds = draft.agentIds;
  return Object.keys(body).length > 0 ? body : null;
}

/** A colour: typed as `#rrggbb` or picked, or left empty for the company's own. */
function ColourField(props: {
  label: string;
  value: string;
  fallback: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <div className="colour">
        <input
          type="color"
          aria-label={t('colourPicker', { field: props.label })}
          value={props.value || props.fallback}
          onChange={(event) => props.onChange(event.target.value)}
        />
        <input
          id={id}
          type="text"
          dir="ltr"
          size={9}
          placeholder={t('defaultPlaceholder')}
          value={props.value}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={`${id}-help${props.error ? ` ${id}-error` : ''}`}
          onChange={(event) => props.onChange(event.target.value)}
        />
        {props.value && (
          <button type="button" className="secondary" onClick={() => props.onChange('')}>
            {t('useDefault')}
          </button>
        )}
      </div>
      <p id={`${id}-help`} className="help">
        {t('categoryColourHelp')}
      </p>
      {props.error && (
        <p id={`${id}-error`} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

/**
 * Renames a category, sets its colours (with a sample of the guest's button) and the agents who
 * take its calls. Stays open on a refusal, keeping what was typed.
 */
export function CategoryDialog(props: {
  category: AdminCategory;
  staff: readonly StaffAdminEntry[];
  /** The company's button colours, for the sample when a colour is left empty. */
  buttonColours: { text: string; background: string };
  busy: boolean;
  onSave: (body: CategoryUpdateBody) => Promise<WriteResult<unknown>>;
  onReload: () => void;
  onClose: () => void;
}) {
  const { category } = props;
  const id = useId();
  const nameBox = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState<Draft>({
    name: category.name,
    textColor: category.textColor ?? '',
    backgroundColor: category.backgroundColor ?? '',
    agentIds: category.agentIds,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const edit = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));

  async function save(): Promise<Refusal | null> {
    const body = categoryChanges(category, draft);
    if (!body) {
      props.onClose();
      return null;
    }
    const parsed = categoryUpdateBodySchema.safeParse(body);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message])),
      );
      return null;
    }
    setErrors({});
    const result = await props.onSave(body);
    if (result.ok) {
      props.onClose();
      return null;
    }
    return result;
  }

  const sampleColours = {
    color: /^#[0-9a-f]{6}$/i.test(draft.textColor) ? draft.textColor : props.buttonColours.text,
    backgroundColor: /^#[0-9a-f]{6}$/i.test(draft.backgroundColor)
      ? draft.backgroundColor
      : props.buttonColours.background,
  };
  const agents = props.staff.filter((member) => member.active);

  return (
    <EditDialog
      title={t('editCategoryTitle', { name: category.name })}
      testId="category-dialog"
      initialFocus={nameBox}
      busy={props.busy}
      onSubmit={save}
      onReload={props.onReload}
      onClose={props.onClose}
    >
      <ListField label={t('categoryName')} error={errors.name}>
        {(control) => (
          <input
            {...control}
            ref={nameBox}
            type="text"
            value={draft.name}
            onChange={(event) => edit({ name: event.target.value })}
          />
        )}
      </ListField>
      <ColourField
        label={t('categoryBackgroundColour')}
        value={draft.backgroundColor}
        fallback={props.buttonColours.background}
        error={errors.backgroundColor}
        onChange={(backgroundColor) => edit({ backgroundColor })}
      />
      <ColourField
        label={t('categoryTextColour')}
        value={draft.textColor}
        fallback={props.buttonColours.text}
        error={errors.textColor}
        onChange={(textColor) => edit({ textColor })}
      />
      <p className="category-sample" style={sampleColours} aria-hidden="true">
        {draft.name || category.name}
      </p>
      <fieldset className="choices" aria-describedby={`${id}-agents-help`}>
        <legend>{t('categoryAgents')}</legend>
        <p id={`${id}-agents-help`} className="help">
          {t('categoryAgentsHelp')}
        </p>
        {agents.map((member) => (
          <label key={member.id} className="choice">
            <input
              type="checkbox"
              checked={draft.agentIds.includes(member.id)}
              onChange={(event) =>
                edit({ agentIds: toggled(draft.agentIds, member.id, event.target.checked) })
              }
            />
            {member.name}
            <span className="help"> · {t(`role_${member.role}`)}</span>
          </label>
        ))}
      </fieldset>
    </EditDialog>
  );
}
