import { t } from '../i18n/messages.ts';

/**
 * Beside an answer the company's own site vouched for with a signed identity (decision 0021):
 * a tick and the words, so it does not rest on colour alone.
 */
export function VerifiedMark() {
  return (
    <span className="verified" data-testid="answer-verified">
      {' '}
      ✓ {t('answerVerified')}
    </span>
  );
}
