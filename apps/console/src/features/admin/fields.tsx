import { useId } from 'react';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { companySettingsPatchShape } from '@frontdesk/protocol';
import { hasMessage, t } from '../../i18n/messages.ts';
import { describedBy, FieldShell, useFieldError, useFieldIds } from './FieldShell.tsx';
import { ImageField } from './ImageField.tsx';
import type { SettingsValues } from './settingsDraft.ts';
import type { Caveat, SettingsField, SettingsFieldSpec } from './settingsGroups.ts';

/** The values a `choice` field offers: its enum in the API's schema. */
function choiceOptions(name: SettingsField): readonly string[] {
  if (name === 'name') return [];
  const inner: unknown = companySettingsPatchShape[name].unwrap();
  return inner instanceof z.ZodEnum ? (inner.options as string[]) : [];
}

function TextField({ name, multiline }: { name: SettingsField; multiline: boolean }) {
  const { register } = useFormContext<SettingsValues>();
  const ids = useFieldIds();
  const error = useFieldError(name);
  const common = {
    id: ids.control,
    ...describedBy(ids, name, error),
    ...(name === 'name' ? {} : { placeholder: t('defaultPlaceholder') }),
    ...register(name),
  };
  return (
    <FieldShell name={name} ids={ids} error={error}>
      {multiline ? <textarea rows={3} {...common} /> : <input type="text" {...common} />}
    </FieldShell>
  );
}

function LinkField({ name }: { name: SettingsField }) {
  const { register } = useFormContext<SettingsValues>();
  const ids = useFieldIds();
  const error = useFieldError(name);
  return (
    <FieldShell name={name} ids={ids} error={error}>
      <input
        id={ids.control}
        type="url"
        inputMode="url"
        dir="ltr"
        placeholder="https://"
        {...describedBy(ids, name, error)}
        {...register(name)}
      />
    </FieldShell>
  );
}

function SwitchField({ name }: { name: SettingsField }) {
  const { register } = useFormContext<SettingsValues>();
  const ids = useFieldIds();
  const error = useFieldError(name);
  return (
    <FieldShell name={name} ids={ids} error={error} inline>
      <input
        id={ids.control}
        type="checkbox"
        {...describedBy(ids, name, error)}
        {...register(name)}
      />
    </FieldShell>
  );
}

/**
 * A field's caveat as the draft changes. The region stays in the page, empty when there is
 * nothing to say, so that a screen reader reads the warning out as it appears.
 */
function FieldCaveat({ id, caveat }: { id: string; caveat: Caveat }) {
  const { control } = useFormContext<SettingsValues>();
  const message = caveat(useWatch({ control }) as SettingsValues);
  return (
    <div id={id} role="status">
      {message && <p className="caveat">{t(message)}</p>}
    </div>
  );
}

function ChoiceField({ name, caveat }: { name: SettingsField; caveat: Caveat | undefined }) {
  const { register } = useFormContext<SettingsValues>();
  const ids = useFieldIds();
  const error = useFieldError(name);
  return (
    <FieldShell
      name={name}
      ids={ids}
      error={error}
      footer={caveat && <FieldCaveat id={ids.caveat} caveat={caveat} />}
    >
      <select
        id={ids.control}
        {...describedBy(ids, name, error, caveat !== undefined)}
        {...register(name)}
      >
        {choiceOptions(name).map((option) => {
          const label = `option_${name}_${option}`;
          return (
            <option key={option} value={option}>
              {hasMessage(label) ? t(label) : option}
            </option>
          );
        })}
      </select>
    </FieldShell>
  );
}

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** A colour: the browser's picker and the `#rrggbb` it stands for, or empty for the default. */
function ColourField({ name }: { name: SettingsField }) {
  const { control } = useFormContext<SettingsValues>();
  const ids = useFieldIds();
  const error = useFieldError(name);
  return (
    <FieldShell name={name} ids={ids} error={error}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => {
          const value = typeof field.value === 'string' ? field.value : '';
          return (
            <div className="colour">
              <input
                type="color"
                aria-label={t('colourPicker', { field: t(`field_${name}`) })}
                value={HEX_COLOUR.test(value) ? value.toLowerCase() : '#ffffff'}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
              />
              <input
                id={ids.control}
                ref={field.ref}
                type="text"
                dir="ltr"
                size={9}
                maxLength={7}
                spellCheck={false}
                placeholder={t('defaultPlaceholder')}
                value={value}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
                {...describedBy(ids, name, error)}
              />
              {value !== '' && (
                <button type="button" className="secondary" onClick={() => field.onChange('')}>
                  {t('useDefault')}
                </button>
              )}
            </div>
          );
        }}
      />
    </FieldShell>
  );
}

/** The named groups calls may be routed to: id and name each, added and removed in place. */
function AssignmentGroupsField() {
  const { control, register, formState } = useFormContext<SettingsValues>();
  const { fields, append, remove } = useFieldArray({
    control,
    name: 'assignmentGroups',
    keyName: 'key',
  });
  const names = useWatch({ control, name: 'assignmentGroups' });
  const listError = formState.errors.assignmentGroups;
  const headingId = useId();
  return (
    <fieldset className="field groups" data-field="assignmentGroups">
      <legend id={headingId}>{t('field_assignmentGroups')}</legend>
      {fields.length === 0 && <p className="help">{t('valueNone')}</p>}
      {fields.map((item, index) => {
        const rowError = listError?.[index];
        return (
          <div className="group-row" key={item.key}>
            {(['id', 'name'] as const).map((part) => {
              const id = `${headingId}-${index}-${part}`;
              const message = rowError?.[part]?.message;
              return (
                <div className="field" key={part}>
                  <label htmlFor={id}>{t(part === 'id' ? 'groupId' : 'groupName')}</label>
                  <input
                    id={id}
                    type="text"
                    aria-invalid={message ? true : undefined}
                    aria-describedby={message ? `${id}-error` : undefined}
                    {...register(`assignmentGroups.${index}.${part}`)}
                  />
                  {message && (
                    <p id={`${id}-error`} className="field-error">
                      {message}
                    </p>
                  )}
                </div>
              );
            })}
            <button type="button" className="secondary" onClick={() => remove(index)}>
              {t('removeGroup', { name: names[index]?.name || String(index + 1) })}
            </button>
          </div>
        );
      })}
      {(listError?.message ?? listError?.root?.message) && (
        <p className="field-error">{listError.message ?? listError.root?.message}</p>
      )}
      <button type="button" className="secondary" onClick={() => append({ id: '', name: '' })}>
        {t('addGroup')}
      </button>
    </fieldset>
  );
}

/** The control of one field, by its kind. */
export function SettingsFieldControl({ spec }: { spec: SettingsFieldSpec }) {
  switch (spec.kind) {
    case 'text':
      return <TextField name={spec.name} multiline={false} />;
    case 'longText':
      return <TextField name={spec.name} multiline />;
    case 'link':
      return <LinkField name={spec.name} />;
    case 'switch':
      return <SwitchField name={spec.name} />;
    case 'choice':
      return <ChoiceField name={spec.name} caveat={spec.caveat} />;
    case 'colour':
      return <ColourField name={spec.name} />;
    case 'image':
      return <ImageField name={spec.name} fit={spec.fit} />;
    case 'assignmentGroups':
      return <AssignmentGroupsField />;
  }
}
