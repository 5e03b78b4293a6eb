import { useId, type ReactNode } from 'react';

/** What ties a control to its label, help and error. */
export type ControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

/**
 * A field of a list page or dialog: its label, help and error around the control, which
 * `children` renders with the props that tie it to them, so a screen reader hears both.
 */
export function ListField(props: {
  label: string;
  help?: string;
  error: string | undefined;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const described = [props.help && `${id}-help`, props.error && `${id}-error`].filter(Boolean);
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        'aria-invalid': props.error ? true : undefined,
        'aria-describedby': described.length > 0 ? described.join(' ') : undefined,
      })}
      {props.help && (
        <p id={`${id}-help`} className="help">
          {props.help}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
