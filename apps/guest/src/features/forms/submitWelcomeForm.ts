import { routes, type Answers } from '@frontdesk/protocol';
import { createAppThunk } from '../../app/hooks.ts';
import { stageReached } from '../flow/flowSlice.ts';
import { stageAfterWelcome } from '../flow/startVisit.ts';

/** Sends the welcome form's answers, then moves on; the caller shows a failure and keeps them. */
export const submitWelcomeForm = createAppThunk(
  'forms/submitWelcomeForm',
  async (answers: Answers, { dispatch, getState, extra }) => {
    const { company, guestAuth, page, embed } = getState();
    const form = company.details?.welcomeForm;
    // spec §5: a submission is sent only with a company id and a guest username.
    if (!company.details || !form || !guestAuth.username) throw new Error('not signed in');
    await extra.api(routes.submitWelcomeForm, {
      token: guestAuth.access_token ?? undefined,
      body: {
        company: company.details.id,
        guestUsername: guestAuth.username,
        serviceType: page.serviceType,
        form: form.id,
        answers,
        // The embedding site's signed prefill: the API checks it and marks what it vouches for.
        ...(embed.identity ? { identity: embed.identity } : {}),
      },
    });
    dispatch(stageReached(stageAfterWelcome(company.details)));
  },
);
