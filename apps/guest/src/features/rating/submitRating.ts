import { routes, type Answers } from '@frontdesk/protocol';
import { createAppThunk } from '../../app/hooks.ts';

/**
 * Sends the rating: the score on the call report when the guest gave one (issue 18: a score is
 * not required), and the rating form's answers when the company asks for them. spec §5: the form
 * is sent only with a company id, a guest username and the form's id.
 */
export const submitRating = createAppThunk(
  'rating/submit',
  async (rating: { score: number | null; answers: Answers | null }, { getState, extra }) => {
    const { company, guestAuth, report } = getState();
    const token = guestAuth.access_token ?? undefined;
    if (!report.callID || !report.reportId) throw new Error('no call to rate');
    if (rating.score !== null) {
      await extra.api(routes.updateCallReport, {
        token,
        body: { call_id: report.callID, rating: rating.score },
      });
    }
    const form = company.details?.ratingForm;
    if (rating.answers && company.details?.id && guestAuth.username && form?.id) {
      await extra.api(routes.submitRating, {
        token,
        body: {
          guestUsername: guestAuth.username,
          report: report.reportId,
          form: form.id,
          answers: rating.answers,
        },
      });
    }
  },
);
