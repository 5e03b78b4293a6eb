import { useId } from 'react';
import { useFieldArray, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { t } from '../../../i18n/messages.ts';
import { controlId, errorAt, PathInput } from '../PathInput.tsx';
import {
  FIELD_TYPES,
  hasMaxLength,
  hasOptions,
  typeName,
  valueFromLabel,
  type FormValues,
} from './formDraft.ts';

/** The options of a choice field: what the guest reads, and the value kept as the answer. */
function OptionsEditor({ index }: { index: number }) {
  const { control, getValues, setValue } = useFormContext<FormValues>();
  const { fields, append, remove } = useFieldArray({
    control,
    name: `fields.${index}.options`,
    keyName: 'key',
  });
  const { errors } = useFormState<FormValues>({ name: `fields.${index}.options` });
  const listError = errorAt(errors, `fields.${index}.options.root`);
  const headingId = useId();
  const addId = `${controlId(`fields.${index}.options`)}-add`;
  return (
    <fieldset
      className="form-options"
      aria-describedby={listError ? `${headingId}-error` : undefined}
    >
      <legend id={headingId}>{t('formOptions')}</legend>
      <p className="help">{t('formOptionsHelp')}</p>
      {fields.length > 0 && (
        <ol className="form-option-list">
          {fields.map((option, at) => {
            const path = `fields.${index}.options.${at}` as const;
            return (
              <li key={option.key} className="form-option">
                <PathInput
                  path={`${path}.label`}
                  label={t('formOptionLabel', { n: String(at + 1) })}
                  input={{ maxLength: 200 }}
                  register={{
                    // The stored value follows the label until it is given one of its own.
                    onBlur: () => {
                      if (getValues(`${path}.value`).trim() === '') {
                        setValue(`${path}.value`, valueFromLabel(getValues(`${path}.label`)), {
                          shouldValidate: true,
                        });
                      }
                    },
                  }}
                />
                <PathInput
                  path={`${path}.value`}
                  label={t('formOptionValue', { n: String(at + 1) })}
                  input={{ maxLength: 100, spellCheck: false }}
                />
                <button
                  type="button"
                  className="secondary"
                  aria-label={t('formRemoveOption', { n: String(at + 1) })}
                  onClick={() => {
                    remove(at);
                    document.getElementById(addId)?.focus();
                  }}
                >
                  {t('adminRemove')}
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {listError && (
        <p id={`${headingId}-error`} className="field-error">
          {listError}
        </p>
      )}
      <button
        type="button"
        id={addId}
        className="secondary"
        onClick={() =>
          append(
            { label: '', value: '' },
            { focusName: `fields.${index}.options.${fields.length}.label` },
          )
        }
      >
        {t('formAddOption')}
      </button>
    </fieldset>
  );
}

/**
 * One field of the form: its type, label, answer name, help and whether it must be answered;
 * a text's longest answer, a choice's options; and the buttons that move it up, down or out
 * (each named by the field, as every field has them).
 */
export function FieldEditor(props: {
  index: number;
  count: number;
  onMove: (to: number, button: 'up' | 'down') => void;
  onRemove: () => void;
}) {
  const { index, count } = props;
  const { control, register } = useFormContext<FormValues>();
  const type = useWatch({ control, name: `fields.${index}.type` });
  const label = useWatch({ control, name: `fields.${index}.label` });
  const base = controlId(`fields.${index}`);
  const name = label.trim() || t('formUntitledField', { n: String(index + 1) });
  return (
    <li className="form-field-card" data-testid="form-field">
      <fieldset>
        <legend>
          <span className="form-field-number">{index + 1}.</span> <bdi>{name}</bdi>{' '}
          <span className="form-field-type">· {typeName(type)}</span>
        </legend>
        <div className="form-field-grid">
          <div className="field">
            <label htmlFor={`${base}-type`}>{t('formFieldType')}</label>
            <select id={`${base}-type`} {...register(`fields.${index}.type`)}>
              {FIELD_TYPES.map((option) => (
                <option key={option} value={option}>
                  {typeName(option)}
                </option>
              ))}
            </select>
          </div>
          <PathInput
            path={`fields.${index}.label`}
            label={t('formFieldLabel')}
            input={{ maxLength: 200 }}
          />
          <PathInput
            path={`fields.${index}.help`}
            label={t('formFieldHelp')}
            input={{ maxLength: 500 }}
          />
          <PathInput
            path={`fields.${index}.name`}
            label={t('formFieldName')}
            help={t('formFieldNameHelp')}
            input={{ maxLength: 50, spellCheck: false, autoCapitalize: 'off' }}
          />
          {hasMaxLength(type) && (
            <PathInput
              path={`fields.${index}.maxLength`}
              type="number"
              label={t('formFieldMaxLength')}
              input={{ min: 1, max: 5000, inputMode: 'numeric' }}
            />
          )}
          <div className="field inline">
            <input
              id={`${base}-required`}
              type="checkbox"
              {...register(`fields.${index}.required`)}
            />
            <label htmlFor={`${base}-required`}>{t('formFieldRequired')}</label>
          </div>
        </div>
        {hasOptions(type) && <OptionsEditor index={index} />}
        <div className="actions form-field-actions">
          <button
            type="button"
            className="secondary"
            id={`${base}-up`}
            disabled={index === 0}
            aria-label={t('formMoveUp', { name })}
            onClick={() => props.onMove(index - 1, 'up')}
          >
            {t('formMoveUpShort')}
          </button>
          <button
            type="button"
            className="secondary"
            id={`${base}-down`}
            disabled={index === count - 1}
            aria-label={t('formMoveDown', { name })}
            onClick={() => props.onMove(index + 1, 'down')}
          >
            {t('formMoveDownShort')}
          </button>
          <button
            type="button"
            className="secondary danger-text"
            aria-label={t('formRemoveField', { name })}
            onClick={props.onRemove}
          >
            {t('adminRemove')}
          </button>
        </div>
      </fieldset>
    </li>
  );
}
