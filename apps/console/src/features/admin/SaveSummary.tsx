import { ApiRequestError } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { hasMessage, t } from '../../i18n/messages.ts';
import type { FieldChange } from './settingsDraft.ts';
import type { SettingsField } from './settingsGroups.ts';

/**
 * Where a save or an undo stands; `saved` keeps what it changed (a settings field's change, or
 * another page's own kind) for the summary and Undo.
 */
export type SaveStatus<Change = FieldChange> =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; changes: Change[] }
  | { kind: 'undoing'; changes: Change[] }
  | { kind: 'undone' }
  | { kind: 'stale' }
  | { kind: 'failed'; message: string };

/** A save the API refused: someone changed the company since (412), or any other refusal. */
export type Refused = { kind: 'stale' } | { kind: 'failed'; message: string };

/**
 * The API's refusal of a save as an admin page tells it: a 412 offers to reload, anything else
 * is said in the API's words; each field the API names goes to `atField`, to show at its field.
 */
export function refusalOf(
  error: unknown,
  atField: (field: string, message: string) => void = () => undefined,
): Refused {
  if (error instanceof ApiRequestError && error.status === 412) return { kind: 'stale' };
  if (error instanceof ApiRequestError) {
    for (const [field, message] of Object.entries(error.fields)) atField(field, message);
  }
  return { kind: 'failed', message: t('saveFailed', { reason: describeError(error) }) };
}

const SHOWN_TEXT = 60;

/** A setting's value in a few words: its option's name, on/off, or the start of its text. */
export function formatValue(field: SettingsField, value: unknown): string {
  if (value === null || value === undefined) return t('valueDefault');
  if (typeof value === 'boolean') return value ? t('valueYes') : t('valueNo');
  if (Array.isArray(value)) {
    const names = value.map((item: { name?: unknown }) => String(item.name ?? ''));
    return names.length > 0 ? names.join(', ') : t('valueNone');
  }
  const text = String(value);
  const option = `option_${field}_${text}`;
  if (hasMessage(option)) return t(option);
  return `“${text.length > SHOWN_TEXT ? `${text.slice(0, SHOWN_TEXT)}…` : text}”`;
}

/** One line of a save's summary, in words: what changed, and its value before and after. */
export type ChangeLine = { key: string; label: string; before: string; after: string };

/** A settings field's change as the summary words it. */
export const settingsChangeLine = (change: FieldChange): ChangeLine => ({
  key: change.field,
  label: t(`field_${change.field}`),
  before: formatValue(change.field, change.before),
  after: formatValue(change.field, change.after),
});

/**
 * What the last save did (each field, before → after, with Undo) or why it failed. A stale
 * version (412) keeps the draft and offers to reload what the other admin saved.
 */
export function SaveSummary<Change = FieldChange>(props: {
  status: SaveStatus<Change>;
  /** How each change reads in the summary; without it, a change is a settings field's. */
  describe?: (change: Change) => ChangeLine;
  onUndo: (changes: Change[]) => void;
  onReload: () => void;
  onDismiss: () => void;
}) {
  const { status } = props;
  const describe = (change: Change) =>
    props.describe ? props.describe(change) : settingsChangeLine(change as FieldChange);
  switch (status.kind) {
    case 'idle':
    case 'saving':
      return null;
    case 'failed':
      return (
        <div role="alert" className="banner">
          <p>{status.message}</p>
        </div>
      );
    case 'stale':
      return (
        <div role="alert" className="banner" data-testid="stale-version">
          <p>{t('staleVersion')}</p>
          <button type="button" className="secondary" onClick={props.onReload}>
            {t('reloadSettings')}
          </button>
        </div>
      );
    case 'undone':
      return (
        <div role="status" className="saved">
          <p>{t('undone')}</p>
          <button type="button" className="secondary" onClick={props.onDismiss}>
            {t('dismiss')}
          </button>
        </div>
      );
    case 'saved':
    case 'undoing':
      return (
        <div role="status" className="saved" data-testid="save-summary">
          <p>{t('savedTitle', { count: String(status.changes.length) })}</p>
          <ul>
            {status.changes.map(describe).map((line) => (
              <li key={line.key}>
                <strong>{line.label}</strong>{' '}
                <span dir="auto">
                  {t('changeArrow', { before: line.before, after: line.after })}
                </span>
              </li>
            ))}
          </ul>
          <div className="actions">
            <button
              type="button"
              className="secondary"
              disabled={status.kind === 'undoing'}
              onClick={() => props.onUndo(status.changes)}
            >
              {status.kind === 'undoing' ? t('undoing') : t('undo')}
            </button>
            <button type="button" className="secondary" onClick={props.onDismiss}>
              {t('dismiss')}
            </button>
          </div>
        </div>
      );
  }
}
