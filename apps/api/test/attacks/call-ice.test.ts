import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanySettings } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  addCall,
  buildTestApp,
  callApi,
  claimCall,
  loginActors,
  loginGuest,
  loginStaff,
  setCompanySettings,
  type TestApp,
  type TestGuest,
} from '../helper.ts';

const company = SEEDED_COMPANY.demo;

/**
 * decision 0045: `POST /calls/:callId/ice` hands TURN credentials, which spend the installation's
 * relay for an hour. The call id is no key — colleagues see it in the queue, a supervisor in
 * reports — only the sign-in of the call's guest, or of the agent who took it, is; and only while
 * the call is live and p2p. Each refusal answers as the call's other routes do and hands nothing.
 */
describe('attack: taking a p2p call’s relay credentials', () => {
  let t: TestApp;
  let victim: TestGuest;
  let otherGuest: TestGuest;
  let ada: string;
  let bo: string;
  let cy: string;
  let callId: string;

  const ice = (id: string, token?: string) =>
    callApi(t.app, 'POST', `calls/${id}/ice`, undefined, token);
  const room = (id: string, token?: string) =>
    callApi(t.app, 'POST', `calls/${id}/room`, undefined, token);
  const expectRefused = (
    response: Awaited<ReturnType<typeof ice>>,
    status: number,
    code: string,
  ) => {
    expect(response.statusCode).toBe(status);
    expect(response.json().error.code).toBe(code);
    // No relay credential, nor any server.
    expect(response.body).not.toContain('iceServers');
    expect(response.body).not.toContain('credential');
  };
  const setSettings = (settings: Partial<CompanySettings>) =>
    setCompanySettings(t.app, company, settings);
  const startCall = async (guest: TestGuest) => {
    const { callId: id, response } = await addCall(t.app, guest, company, 1);
    expect(response.statusCode, response.body).toBe(201);
    return id;
  };
  const claim = (guest: TestGuest, token: string) => claimCall(t.app, token, guest, 1);

  beforeAll(async () => {
    // No Janus: a p2p call never needs one.
    t = await buildTestApp({
      TURN_URLS: 'turn:turn.frontdesk.test:3478',
      TURN_SECRET: randomBytes(24).toString('base64url'),
    });
    await setSettings({ callMethod: 'p2p', recordCalls: false });
    let agent: string;
    ({ guest: victim, otherGuest, agent, foreignAgent: cy } = await loginActors(t.app));
    ada = agent;
    bo = await loginStaff(t.app, 'bo@frontdesk.demo');
    callId = await startCall(victim);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('without a sign-in: 401', async () => {
    expectRefused(await ice(callId), 401, 'unauthenticated');
  });

  it('a malformed call id: 400 naming callId', async () => {
    const response = await ice('not-a-call', victim.token);
    expectRefused(response, 400, 'invalid_request');
    expect(response.json().error.fields).toHaveProperty('callId');
  });

  it('an agent, before anyone took the call, is refused like /room refuses', async () => {
    const [fromIce, fromRoom] = await Promise.all([ice(callId, ada), room(callId, ada)]);
    expectRefused(fromIce, 403, 'not_your_call');
    expect(fromRoom.statusCode).toBe(403);
  });

  it('the call’s own guest, while it waits, gets them', async () => {
    expect((await ice(callId, victim.token)).statusCode).toBe(200);
  });

  describe('once Ada took the call', () => {
    beforeAll(async () => {
      await claim(victim, ada);
    });

    it('its guest and Ada get them', async () => {
      for (const token of [victim.token, ada]) {
        expect((await ice(callId, token)).statusCode).toBe(200);
      }
    });

    it('another guest of the company, knowing the call id, is refused as by the other call routes', async () => {
      const [fromIce, fromRoom] = await Promise.all([
        ice(callId, otherGuest.token),
        room(callId, otherGuest.token),
      ]);
      expectRefused(fromIce, fromRoom.statusCode, fromRoom.json().error.code);
      expect(fromIce.statusCode).toBe(403);
    });

    it('another agent of the company, and its admin, who did not take it: 403', async () => {
      const ann = await loginStaff(t.app, 'admin@frontdesk.demo');
      for (const token of [bo, ann]) expectRefused(await ice(callId, token), 403, 'not_your_call');
    });

    it('staff of another company are refused as by the other call routes', async () => {
      const [fromIce, fromRoom] = await Promise.all([ice(callId, cy), room(callId, cy)]);
      expectRefused(fromIce, fromRoom.statusCode, fromRoom.json().error.code);
      expect(fromIce.statusCode).toBe(403);
    });

    it('an unknown call: 404', async () => {
      expectRefused(await ice(`${victim.username}--nosuchcall`, ada), 404, 'call_report_not_found');
    });
  });

  it('a media-server call: 409, its room access carries its servers', async () => {
    await setSettings({ callMethod: 'mediaServer' });
    const guest = await loginGuest(t.app, company);
    const mediaServerCall = await startCall(guest);
    await setSettings({ callMethod: 'p2p' });
    expectRefused(await ice(mediaServerCall, guest.token), 409, 'media_server_call');
  });

  it('an ended call: 409 for its guest and its agent alike', async () => {
    const guest = await loginGuest(t.app, company);
    const ended = await startCall(guest);
    await claim(guest, ada);
    const end = await callApi(t.app, 'POST', `calls/${ended}/end`, { reason: 'completed' }, ada);
    expect(end.statusCode).toBe(200);
    for (const token of [guest.token, ada]) {
      expectRefused(await ice(ended, token), 409, 'call_over');
    }
  });

  it('a call its guest left for a newer one: 409', async () => {
    const guest = await loginGuest(t.app, company);
    const older = await startCall(guest);
    // A guest's newer call ends its older ones.
    await startCall(guest);
    expectRefused(await ice(older, guest.token), 409, 'call_over');
  });
});
