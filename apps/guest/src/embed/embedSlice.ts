import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { answersSchema, type Answers, type EmbedIdentify } from '@frontdesk/protocol';

/**
 * What the embedding site told the widget (`Frontdesk('identify', …)`, decision 0021): answers
 * to prefill the welcome form with, and the signed token that vouches for them, which only the
 * API can check (the welcome form sends it along).
 */
export type EmbedState = {
  prefill: Answers | null;
  identity: string | null;
};

const initialState: EmbedState = { prefill: null, identity: null };

/** The identity token's answers as the widget may read them: the token's payload, unchecked. */
function tokenAnswers(token: string): Answers {
  try {
    const body = atob((token.split('.')[0] ?? '').replaceAll('-', '+').replaceAll('_', '/'));
    const text = new TextDecoder().decode(Uint8Array.from(body, (c) => c.charCodeAt(0)));
    const json = JSON.parse(text) as { answers?: unknown } | null;
    const answers = answersSchema.safeParse(json?.answers);
    return answers.success ? answers.data : {};
  } catch {
    return {};
  }
}

export const embedSlice = createSlice({
  name: 'embed',
  initialState,
  reducers: {
    identified(state, action: PayloadAction<EmbedIdentify>) {
      const { answers, token } = action.payload;
      // Signed answers win over plain ones of the same name: those are what the API will check.
      state.prefill = { ...answers, ...(token ? tokenAnswers(token) : {}) };
      state.identity = token ?? null;
    },
  },
});

export const { identified } = embedSlice.actions;
