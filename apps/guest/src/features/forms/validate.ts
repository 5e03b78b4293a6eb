import { formAnswersSchema, type Answers, type FormField } from '@frontdesk/protocol';

export type FieldProblem = 'required' | 'invalid';

/**
 * Checks answers with the form's own schema (the one the API applies too). Empty text counts as
 * no answer. Returns the clean answers, or what is wrong with each field at fault.
 */
export function validateAnswers(
  fields: readonly FormField[],
  answers: Answers,
): { valid: Answers; problems: null } | { valid: null; problems: Record<string, FieldProblem> } {
  const present = Object.fromEntries(Object.entries(answers).filter(([, v]) => v !== ''));
  const result = formAnswersSchema(fields).safeParse(present);
  if (result.success) return { valid: result.data as Answers, problems: null };
  const problems: Record<string, FieldProblem> = {};
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? '');
    problems[name] ??= present[name] === undefined ? 'required' : 'invalid';
  }
  return { valid: null, problems };
}
