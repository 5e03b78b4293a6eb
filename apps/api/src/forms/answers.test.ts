import { describe, expect, it } from 'vitest';
import type { FormField } from '@frontdesk/protocol';
import { InvalidInputError } from '../domain-errors.ts';
import { checkAnswers } from './answers.ts';

const fields: FormField[] = [
  { type: 'text', name: 'name', label: 'Name', required: true, maxLength: 10 },
  { type: 'email', name: 'email', label: 'E-mail', required: true, maxLength: 100 },
  {
    type: 'select',
    name: 'topic',
    label: 'Topic',
    required: false,
    options: [{ value: 'a', label: 'A' }],
  },
  { type: 'rating', name: 'score', label: 'Score', required: false },
  { type: 'checkbox', name: 'consent', label: 'I agree', required: true },
];

function refusal(answers: Record<string, unknown>): Record<string, string> | undefined {
  try {
    checkAnswers(fields, answers as never);
    return undefined;
  } catch (error) {
    if (error instanceof InvalidInputError) return error.fields;
    throw error;
  }
}

describe('checkAnswers', () => {
  it('accepts answers that fit, trimming text', () => {
    expect(
      checkAnswers(fields, { name: ' Ada ', email: 'ada@example.org', consent: true, score: 5 }),
    ).toEqual({
      name: 'Ada',
      email: 'ada@example.org',
      consent: true,
      score: 5,
    });
  });

  it('names every field that is missing or wrong', () => {
    expect(
      Object.keys(
        refusal({ name: '', email: 'nope', topic: 'b', score: 6, consent: false }) ?? {},
      ).sort(),
    ).toEqual([
      'answers.consent',
      'answers.email',
      'answers.name',
      'answers.score',
      'answers.topic',
    ]);
  });

  it('refuses answers to fields the form does not have', () => {
    expect(refusal({ name: 'Ada', email: 'ada@example.org', consent: true, extra: 'x' })).toEqual({
      'answers.extra': 'is not a field of the form',
    });
  });

  it('refuses a text longer than the field allows', () => {
    expect(
      refusal({ name: 'A'.repeat(11), email: 'ada@example.org', consent: true }),
    ).toHaveProperty('answers.name');
  });
});
