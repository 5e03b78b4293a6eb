import { RATING_SCALE_MAX, type Answers, type FormField } from '@frontdesk/protocol';
import { useT } from '../../i18n/useT.ts';
import { RatingInput } from './RatingInput.tsx';
import type { FieldProblem } from './validate.ts';

type Props = {
  idPrefix: string;
  fields: readonly FormField[];
  answers: Answers;
  problems: Record<string, FieldProblem>;
  ratingStyle: 'stars' | 'emojies';
  onChange: (name: string, value: Answers[string]) => void;
};

/** From this share of a one-line answer's limit on, its counter shows (a long text's always). */
const COUNTER_FROM = 0.8;

/**
 * The characters used of a text answer's limit (issue 18: a limit is shown, never a silent cut):
 * always for a long text, for a one-line answer once it nears the limit. `full` at the limit,
 * where the browser takes no more.
 */
export function counterOf(
  field: FormField,
  value: Answers[string] | undefined,
): { used: number; max: number; full: boolean } | null {
  if (!('maxLength' in field)) return null;
  const used = typeof value === 'string' ? value.length : 0;
  const max = field.maxLength;
  if (field.type !== 'textarea' && used < max * COUNTER_FROM) return null;
  return { used, max, full: used >= max };
}

/**
 * A company-defined form's fields, each labelled, with the company's help under it and its error
 * announced beside it, both tied to the control (`aria-describedby`).
 */
export function FormFields({ idPrefix, fields, answers, problems, ratingStyle, onChange }: Props) {
  const t = useT();
  const describe = (field: FormField, problem: FieldProblem) =>
    problem === 'required'
      ? t('errorRequired')
      : field.type === 'email'
        ? t('errorEmail')
        : field.type === 'tel'
          ? t('errorPhone')
          : t('errorInvalid');
  return fields.map((field) => {
    const id = `${idPrefix}-${field.name}`;
    const problem = problems[field.name];
    const error = problem && describe(field, problem);
    const value = answers[field.name];
    const counter = counterOf(field, value);
    const describedBy = [
      field.help && `${id}-help`,
      counter && `${id}-count`,
      error && `${id}-error`,
    ].filter(Boolean);
    const described = {
      ...(error ? { 'aria-invalid': true } : {}),
      ...(describedBy.length > 0 ? { 'aria-describedby': describedBy.join(' ') } : {}),
    };
    const notes = (
      <>
        {field.help && (
          <p id={`${id}-help`} className="field-help">
            {field.help}
          </p>
        )}
        {counter && (
          <p
            id={`${id}-count`}
            className={counter.full ? 'field-count field-count-full' : 'field-count'}
            data-testid={`${id}-count`}
          >
            <span aria-hidden="true">
              {t('charactersUsed', { used: counter.used, max: counter.max })}
            </span>
            <span className="visually-hidden">
              {t('charactersUsedLabel', { used: counter.used, max: counter.max })}
            </span>
          </p>
        )}
        {counter && (
          <p className="field-count-limit" role="status">
            {counter.full ? t('charactersLimit', { max: counter.max }) : ''}
          </p>
        )}
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </>
    );
    const label = (
      <>
        {/* The company's own words, in their own direction whatever the page's (an English
            label on a page shown in Arabic keeps its question mark at its end). */}
        <bdi>{field.label}</bdi>
        {field.required && <span className="required"> ({t('requiredField')})</span>}
      </>
    );
    // Text-valued controls share their wiring; only the element differs.
    const textProps = {
      id,
      name: field.name,
      required: field.required,
      value: typeof value === 'string' ? value : '',
      onChange: (e: { target: { value: string } }) => onChange(field.name, e.target.value),
      ...described,
    };
    let control;
    switch (field.type) {
      case 'textarea':
        control = <textarea {...textProps} maxLength={field.maxLength} />;
        break;
      case 'select':
        control = (
          <select {...textProps}>
            <option value="">—</option>
            {field.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label || o.value}
              </option>
            ))}
          </select>
        );
        break;
      case 'checkbox':
        return (
          <div className="field field-checkbox" key={field.name}>
            <input
              id={id}
              type="checkbox"
              name={field.name}
              checked={value === true}
              onChange={(e) => onChange(field.name, e.target.checked)}
              {...described}
            />
            <label htmlFor={id}>{label}</label>
            {notes}
          </div>
        );
      case 'rating':
        return (
          <fieldset className="field" key={field.name} {...described}>
            <legend>{label}</legend>
            <RatingInput
              name={id}
              style={ratingStyle}
              max={RATING_SCALE_MAX}
              value={typeof value === 'number' ? value : null}
              onChange={(v) => onChange(field.name, v)}
            />
            {notes}
          </fieldset>
        );
      default:
        control = (
          <input
            {...textProps}
            type={field.type}
            maxLength={field.maxLength}
            autoComplete={
              field.type === 'email' ? 'email' : field.type === 'tel' ? 'tel' : undefined
            }
          />
        );
    }
    return (
      <div className="field" key={field.name}>
        <label htmlFor={id}>{label}</label>
        {control}
        {notes}
      </div>
    );
  });
}
