import type { z } from 'zod';
import { formAnswersSchema, type Answers, type FormField } from '@frontdesk/protocol';
import { InvalidInputError } from '../domain-errors.ts';

/** The field each issue speaks of, under `answers.`; an unknown answer names its own key. */
function fieldsOf(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.join('.')];
    const message =
      issue.code === 'unrecognized_keys' ? 'is not a field of the form' : issue.message;
    for (const key of keys) fields[`answers.${key}`] ??= message;
  }
  return fields;
}

/** The answers, checked against the form's own fields (spec §5 leaves the rules to us), or 400. */
export function checkAnswers(fields: readonly FormField[], answers: Answers): Answers {
  const parsed = formAnswersSchema(fields).safeParse(answers);
  if (!parsed.success) {
    throw new InvalidInputError(
      'invalid_answers',
      'Some answers do not fit the form.',
      fieldsOf(parsed.error.issues),
    );
  }
  return parsed.data as Answers;
}
