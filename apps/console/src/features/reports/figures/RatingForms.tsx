import type { ReportSummary } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { formatCount, formatDecimal, formatRatio } from '../format.ts';

/**
 * What guests answered on the rating forms of the range: each choice's count as a bar with its
 * number and share in words, a number's or rating's average.
 */
export function RatingForms(props: { forms: ReportSummary['ratingForms'] }) {
  if (props.forms.length === 0) return <p className="report-empty">{t('reportNoRatingForms')}</p>;
  return (
    <div className="rating-forms">
      {props.forms.map((form) => (
        <article key={form.formId} className="rating-form" data-testid="rating-form">
          <h4>
            {form.title}{' '}
            <span className="help">
              {t('reportResponses', { count: formatCount(form.responses) })}
            </span>
          </h4>
          {form.fields.map((field) => (
            <section key={field.name} className="rating-field" aria-label={field.label}>
              <h5>{field.label}</h5>
              {field.counts && field.counts.length > 0 ? (
                <ul className="answer-bars">
                  {field.counts.map((choice) => {
                    const share = field.responses > 0 ? choice.count / field.responses : 0;
                    return (
                      <li key={choice.value}>
                        <span className="answer-label">{choice.label}</span>
                        <span className="answer-bar" aria-hidden="true">
                          <span style={{ inlineSize: `${Math.round(share * 100)}%` }} />
                        </span>
                        <span className="answer-count">
                          {t('reportAnswerCount', {
                            count: formatCount(choice.count),
                            share: formatRatio(share),
                          })}
                        </span>
                      </li>
                    );
                  })}
                </ul>
              ) : (
                <p>
                  {field.average === undefined || field.average === null
                    ? t('reportFieldResponses', { count: formatCount(field.responses) })
                    : t('reportFieldAverage', {
                        average: formatDecimal(field.average),
                        count: formatCount(field.responses),
                      })}
                </p>
              )}
            </section>
          ))}
        </article>
      ))}
    </div>
  );
}
