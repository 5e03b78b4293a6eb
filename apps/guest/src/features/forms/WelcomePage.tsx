import { useState, type FormEvent } from 'react';
import type { Answers, FormField } from '@frontdesk/protocol';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { StageActions } from '../../app/StageActions.tsx';
import { FormFields } from './FormFields.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { submitWelcomeForm } from './submitWelcomeForm.ts';
import { validateAnswers, type FieldProblem } from './validate.ts';

/** The prefilled answers that the form has fields for. */
function prefillFor(fields: readonly FormField[], prefill: Answers | null): Answers {
  const names = new Set(fields.map((field) => field.name));
  return Object.fromEntries(Object.entries(prefill ?? {}).filter(([name]) => names.has(name)));
}

/** The company's welcome form (welcomeForm, welcomeFormTitle, welcomeButtonText). */
export function WelcomePage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const company = useAppSelector((state) => state.company.details);
  const [typed, setAnswers] = useState<Answers>({});
  // The embedding site's prefill (Frontdesk('identify'), src/embed), under what the guest types.
  const prefill = useAppSelector((state) => state.embed.prefill);
  const answers = { ...prefillFor(company?.welcomeForm?.fields ?? [], prefill), ...typed };
  const [problems, setProblems] = useState<Record<string, FieldProblem>>({});
  const [state, setState] = useState<'editing' | 'sending' | 'failed'>('editing');
  const form = company?.welcomeForm;
  if (!company || !form) return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form) return;
    const checked = validateAnswers(form.fields, answers);
    if (checked.problems) {
      setProblems(checked.problems);
      const first = form.fields.find((f) => checked.problems[f.name]);
      document.getElementById(`welcome-${first?.name}`)?.focus();
      return;
    }
    setProblems({});
    setState('sending');
    const result = await dispatch(submitWelcomeForm(checked.valid));
    if (submitWelcomeForm.rejected.match(result)) setState('failed');
  }

  return (
    <section className="card" data-testid="stage-welcome" aria-labelledby="welcome-title">
      {/* The company's own words keep their direction on a page shown in another language. */}
      <h1 id="welcome-title">
        <bdi>{company.welcomeFormTitle ?? form.title}</bdi>
      </h1>
      {company.welcomeMsg && (
        <p>
          <bdi>{company.welcomeMsg}</bdi>
        </p>
      )}
      <form noValidate onSubmit={submit}>
        {Object.keys(problems).length > 0 && (
          <p role="alert" className="form-alert">
            {t('formInvalid')}
          </p>
        )}
        <FormFields
          idPrefix="welcome"
          fields={form.fields}
          answers={answers}
          problems={problems}
          ratingStyle={company.ratingStyle}
          onChange={(name, value) => setAnswers((previous) => ({ ...previous, [name]: value }))}
        />
        {state === 'failed' && (
          <p role="alert" className="form-alert">
            {t('submitFailed')}
          </p>
        )}
        <StageActions>
          <SubmitButton busy={state === 'sending'} busyLabel={t('sending')}>
            {company.welcomeButtonText ?? t('continue')}
          </SubmitButton>
        </StageActions>
      </form>
    </section>
  );
}
