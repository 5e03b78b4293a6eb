import { describe, expect, it } from 'vitest';
import { formAnswersSchema, minimalAnswers, type Form } from './forms.ts';

describe('minimalAnswers', () => {
  const form: Form = {
    id: 1,
    title: 'Before we start',
    fields: [
      { type: 'text', name: 'name', label: 'Name', required: true, maxLength: 5 },
      { type: 'email', name: 'email', label: 'E-mail', required: true, maxLength: 320 },
      {
        type: 'select',
        name: 'topic',
        label: 'Topic',
        required: true,
        options: [{ value: 'sales', label: 'Sales' }],
      },
      { type: 'checkbox', name: 'terms', label: 'I agree', required: true },
      { type: 'tel', name: 'phone', label: 'Phone', required: true, maxLength: 30 },
      { type: 'rating', name: 'score', label: 'Score', required: true },
      { type: 'textarea', name: 'notes', label: 'Notes', required: false, maxLength: 100 },
    ],
  };

  it("answers every required field as the form's own check accepts, and nothing else", () => {
    const answers = minimalAnswers(form);
    expect(Object.keys(answers).sort()).toEqual([
      'email',
      'name',
      'phone',
      'score',
      'terms',
      'topic',
    ]);
    expect(formAnswersSchema(form.fields).safeParse(answers).success).toBe(true);
  });
});
