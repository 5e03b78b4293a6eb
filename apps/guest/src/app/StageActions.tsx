import type { ReactNode } from 'react';
import { useT } from '../i18n/useT.ts';

/**
 * The bar under a stage with its primary action and, where going back makes sense, Back. On a
 * phone it sticks to the bottom of the screen, so the primary action is visible however long the
 * stage above it (stages.css).
 */
export function StageActions({
  onBack,
  children,
}: {
  onBack?: (() => void) | undefined;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <div className="stage-actions">
      {onBack && (
        <button type="button" className="button-secondary" onClick={onBack}>
          {t('back')}
        </button>
      )}
      {children}
    </div>
  );
}
