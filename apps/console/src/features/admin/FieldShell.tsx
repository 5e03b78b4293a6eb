import { useId, type ReactNode } from 'react';
import { useFormState } from 'react-hook-form';
import { hasMessage, t } from '../../i18n/messages.ts';
import type { SettingsValues } from './settingsDraft.ts';
import type { SettingsField } from './settingsGroups.ts';

/** The ids that tie a control to its help, its error and its caveat (aria-describedby). */
export type FieldIds = { control: string; help: string; error: string; caveat: string };

/** The error react-hook-form holds for a field, as words. */
export function useFieldError(name: SettingsField): string | undefined {
  const { errors } = useFormState<SettingsValues>({ name });
  const error = errors[name];
  if (!error) return undefined;
  return error.message ?? error.root?.message ?? t('saveInvalid');
}

/** What a control says about itself to assistive technology: invalid, and where it is explained. */
export function describedBy(
  ids: FieldIds,
  name: SettingsField,
  error: string | undefined,
  caveated = false,
) {
  const parts = [
    hasMessage(`help_${name}`) ? ids.help : null,
    error ? ids.error : null,
    caveated ? ids.caveat : null,
  ];
  const described = parts.filter(Boolean).join(' ');
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  } as const;
}

/** A field's label, help and error around its control. */
export function FieldShell(props: {
  name: SettingsField;
  ids: FieldIds;
  error: string | undefined;
  children: ReactNode;
  /** A checkbox sits before its label. */
  inline?: boolean;
  /** Shown under the help and the error (an image's fit preview). */
  footer?: ReactNode;
}) {
  const { name, ids, error } = props;
  const help = `help_${name}`;
  return (
    <div className={props.inline ? 'field inline' : 'field'} data-field={name}>
      {props.inline && props.children}
      <label htmlFor={ids.control}>{t(`field_${name}`)}</label>
      {!props.inline && props.children}
      {hasMessage(help) && (
        <p id={ids.help} className="help">
          {t(help)}
        </p>
      )}
      {error && (
        <p id={ids.error} className="field-error">
          {error}
        </p>
      )}
      {props.footer}
    </div>
  );
}

/** Fresh ids for one field's control, help and error. */
export function useFieldIds(): FieldIds {
  const id = useId();
  return {
    control: `${id}-control`,
    help: `${id}-help`,
    error: `${id}-error`,
    caveat: `${id}-caveat`,
  };
}
