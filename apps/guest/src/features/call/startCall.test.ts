import { describe, expect, it } from 'vitest';
import { ApiRequestError, CALL_REFUSAL_STAGES, type CallRefusalCode } from '@frontdesk/protocol';
import { createStore } from '../../app/store.ts';
import { company, offlineServices } from '../../test/render.tsx';
import { startCall } from './startCall.ts';

/** A public guest username as registration makes them. */
const GUEST = `g${'a'.repeat(25)}`;

/** A signed-in guest on the selection stage whose API answers every request with `error`. */
function guestFacing(error: Error) {
  const refusing = (): never => {
    throw error;
  };
  return createStore(
    { companyId: 5, serviceType: 'Talk', webview: false, parentOrigin: null },
    offlineServices({ api: refusing }),
    {
      company: { details: company() },
      guestAuth: {
        username: GUEST,
        credential: 'secret',
        access_token: 'token',
        accessTokenExpiresAt: null,
        jabberusername: `5-${GUEST}`,
        services: null,
        location: null,
      },
      flow: { stage: 'selection', failure: null },
    },
  );
}

describe('startCall', () => {
  it.each(Object.entries(CALL_REFUSAL_STAGES) as [CallRefusalCode, string][])(
    "shows the API's refusal %s as the stage %s",
    async (code, stage) => {
      const store = guestFacing(new ApiRequestError(403, code, 'refused'));
      await store.dispatch(startCall({ categoryId: 1, callType: 'video' }));
      expect(store.getState().flow.stage).toBe(stage);
    },
  );

  it('leaves any other failure to the page, which offers to try again', async () => {
    const store = guestFacing(new ApiRequestError(0, 'network', 'unreachable'));
    const result = await store.dispatch(startCall({ categoryId: 1, callType: 'video' }));
    expect(startCall.rejected.match(result)).toBe(true);
    expect(store.getState().flow.stage).toBe('selection');
  });
});
