import type { InputHTMLAttributes, ReactNode } from 'react';
import {
  useFormContext,
  useFormState,
  type FieldErrors,
  type RegisterOptions,
} from 'react-hook-form';

/** The message react-hook-form holds at a dotted path (`hours.3.opens`), if any. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** The DOM id of the control at a form path: `hours.3.opens` → `admin-hours-3-opens`. */
export const controlId = (path: string) => `admin-${path.replaceAll('.', '-')}`;

/**
 * One input of an admin page's form at a path of its values (an opening's time, a form field's
 * label): its label, its help and its problem, which the input names (`aria-describedby`) and
 * is marked by (`aria-invalid`). The problem is the page's check's or the API's.
 */
export function PathInput(props: {
  path: string;
  label: string;
  help?: string;
  type?: 'text' | 'date' | 'time' | 'number';
  className?: string;
  input?: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type' | 'name'>;
  register?: RegisterOptions;
  /** After the input (a datalist). */
  children?: ReactNode;
}) {
  const { register } = useFormContext();
  const { errors } = useFormState({ name: props.path });
  const error = errorAt(errors, props.path);
  const id = controlId(props.path);
  const described = [props.help ? `${id}-help` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={props.className ? `field ${props.className}` : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      <input
        {...props.input}
        id={id}
        type={props.type ?? 'text'}
        // What admins type may be in either direction (an Arabic company's texts).
        dir={(props.type ?? 'text') === 'text' ? 'auto' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...register(props.path, props.register)}
      />
      {props.children}
      {props.help && (
        <p id={`${id}-help`} className="help">
          {props.help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
