import { t } from '../../i18n/messages.ts';

/**
 * The bar at the foot of an editor: how much is unsaved, Discard and Save (the form's submit).
 * Both buttons wait while nothing is unsaved or a save or undo is under way.
 */
export function SaveBar(props: {
  /** What is unsaved, in words; `null` when nothing is. */
  unsaved: string | null;
  busy: boolean;
  saving: boolean;
  onDiscard: () => void;
}) {
  const idle = props.unsaved === null || props.busy;
  return (
    <div className="save-bar">
      <p role="status" data-testid="unsaved-count">
        {props.unsaved ?? t('noChanges')}
      </p>
      <button type="button" className="secondary" disabled={idle} onClick={props.onDiscard}>
        {t('discard')}
      </button>
      <button type="submit" disabled={idle}>
        {props.saving ? t('saving') : t('save')}
      </button>
    </div>
  );
}
