import { useEffect, useRef, useState, type FormEvent } from 'react';
import { RATING_SCALE_MAX, type Answers } from '@frontdesk/protocol';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { StageActions } from '../../app/StageActions.tsx';
import { CallEndNotice } from '../call/CallEndNotice.tsx';
import { FormFields } from '../forms/FormFields.tsx';
import { RatingInput } from '../forms/RatingInput.tsx';
import { SubmitButton } from '../forms/SubmitButton.tsx';
import { validateAnswers, type FieldProblem } from '../forms/validate.ts';
import { submitRating } from './submitRating.ts';

/**
 * The thanks after the rating (ratingThanksMsg, thanksMsg), or instead of it without a rating
 * page, with what the guest can do next (issue 18): back to the company's site (not inside the
 * company's own site, where the widget is a panel over it) or a new call.
 */
export function Thanks() {
  const t = useT();
  const company = useAppSelector((state) => state.company.details);
  const embedded = useAppSelector((state) => state.page.serviceType === 'Widget');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card" data-testid="stage-thanks" aria-labelledby="thanks-title">
      <h1 id="thanks-title" ref={heading} tabIndex={-1}>
        {company?.ratingThanksMsg ?? t('ratingThanks')}
      </h1>
      <CallEndNotice />
      <p>{company?.thanksMsg ?? t('thanks')}</p>
      <nav className="stage-actions thanks-next" aria-label={t('whatNext')}>
        {company?.websiteUrl && !embedded && (
          <a className="button-secondary" href={company.websiteUrl} rel="noopener">
            {t('visitWebsite', { site: company.websiteTitle ?? company.name })}
          </a>
        )}
        <button type="button" className="button-primary" onClick={() => window.location.reload()}>
          {t('newCall')}
        </button>
      </nav>
    </section>
  );
}

/**
 * spec §2 stage "rating": stars or emojis (ratingStyle), the company's rating form when it asks
 * for more (advanceRating), then thanks. Without a rating page the guest sees the thanks only.
 * Issue 18: the score is optional and the whole stage can be skipped; the company's own form
 * keeps the fields it requires, unless the guest skips it.
 */
export function RatingPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const company = useAppSelector((state) => state.company.details);
  const [score, setScore] = useState<number | null>(null);
  const [answers, setAnswers] = useState<Answers>({});
  const [problems, setProblems] = useState<Record<string, FieldProblem>>({});
  const [state, setState] = useState<'rating' | 'sending' | 'failed' | 'done'>(
    company?.showRatingPage === false ? 'done' : 'rating',
  );
  if (!company) return null;
  if (state === 'done') return <Thanks />;
  const form = company.advanceRating ? company.ratingForm : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    let formAnswers: Answers | null = null;
    let chosen = score;
    if (form) {
      const checked = validateAnswers(form.fields, answers);
      if (checked.problems) return setProblems(checked.problems);
      formAnswers = checked.valid;
      // The form's own score field (if any) is the call's rating.
      const scoreField = form.fields.find((f) => f.type === 'rating');
      const fromForm = scoreField ? formAnswers[scoreField.name] : undefined;
      if (typeof fromForm === 'number') chosen = fromForm;
    }
    setProblems({});
    const answered = formAnswers !== null && Object.keys(formAnswers).length > 0;
    if (chosen === null && !answered) return setState('done');
    setState('sending');
    const result = await dispatch(
      submitRating({ score: chosen, answers: answered ? formAnswers : null }),
    );
    setState(submitRating.fulfilled.match(result) ? 'done' : 'failed');
  }

  return (
    <section className="card" data-testid="stage-rating" aria-labelledby="rating-title">
      <h1 id="rating-title">{company.ratingPageMsg ?? t('ratingTitle')}</h1>
      <CallEndNotice />
      {company.ratingPageImage && (
        <img className="rating-image" src={company.ratingPageImage} alt="" />
      )}
      <form noValidate onSubmit={submit}>
        {form ? (
          <FormFields
            idPrefix="rating"
            fields={form.fields}
            answers={answers}
            problems={problems}
            ratingStyle={company.ratingStyle}
            onChange={(name, value) => setAnswers((previous) => ({ ...previous, [name]: value }))}
          />
        ) : (
          <fieldset className="field" aria-describedby="rating-optional">
            <legend>{t('ratingLabel')}</legend>
            <RatingInput
              name="rating-score"
              style={company.ratingStyle}
              max={RATING_SCALE_MAX}
              value={score}
              onChange={setScore}
            />
            <p id="rating-optional" className="field-help">
              {t('ratingOptional')}
            </p>
          </fieldset>
        )}
        {state === 'failed' && (
          <p role="alert" className="form-alert">
            {t('submitFailed')}
          </p>
        )}
        <StageActions>
          <button
            type="button"
            className="button-secondary"
            disabled={state === 'sending'}
            onClick={() => setState('done')}
          >
            {t('ratingSkip')}
          </button>
          <SubmitButton busy={state === 'sending'} busyLabel={t('sending')}>
            {company.ratingSubmitMsg ?? t('ratingSubmit')}
          </SubmitButton>
        </StageActions>
      </form>
    </section>
  );
}
