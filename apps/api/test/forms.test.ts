import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCallId } from '@frontdesk/protocol';
import {
  buildTestApp,
  callApi,
  loginActors,
  loginGuest,
  type TestApp,
  type TestGuest,
} from './helper.ts';

const welcome = { name: 'Ada', email: 'ada@example.org', topic: 'account' };

describe('forms', () => {
  let t: TestApp;
  let guest: TestGuest;
  let otherGuest: TestGuest;
  let agent: string;
  let foreignAgent: string;

  beforeAll(async () => {
    t = await buildTestApp();
    ({ guest, otherGuest, agent, foreignAgent } = await loginActors(t.app));
  });
  afterAll(() => t.close());

  const post = (path: string, body: object, token?: string) =>
    callApi(t.app, 'POST', path, body, token);
  const submit = (who: TestGuest, body: object = {}, token = who.token) =>
    post(
      'form-submission',
      {
        company: 5,
        guestUsername: who.username,
        serviceType: 'Talk',
        form: 1,
        answers: welcome,
        ...body,
      },
      token,
    );
  const lookup = (who: TestGuest, body: object = {}, token = who.token) =>
    post(
      'form-submission/get-submission',
      { companyId: 5, guestUsername: who.username, serviceType: 'Talk', ...body },
      token,
    );

  describe('POST /api/form-submission and get-submission', () => {
    it('answers {} before the first submission (spec §5: the form is required)', async () => {
      const fresh = await loginGuest(t.app, 5, undefined, { checks: false });
      const response = await lookup(fresh);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: {} });
    });

    it('stores the answers and answers the latest submission per service type', async () => {
      const me = await loginGuest(t.app, 5);
      expect((await submit(me)).statusCode).toBe(201);
      const latest = await submit(me, { answers: { ...welcome, name: 'Ada L.' } });
      const response = await lookup(me);
      expect(response.json().data).toMatchObject({
        id: latest.json().data.id,
        form: 1,
        serviceType: 'Talk',
        answers: { ...welcome, name: 'Ada L.' },
      });
      expect((await lookup(me, { serviceType: 'Widget' })).json()).toEqual({ data: {} });
    });

    it("lets an agent of the company read a guest's submission, not one of another company", async () => {
      await submit(guest);
      expect((await lookup(guest, {}, agent)).json().data.form).toBe(1);
      expect((await lookup(guest, {}, foreignAgent)).statusCode).toBe(403);
    });

    it('checks the answers against the form and names each bad one (400)', async () => {
      const response = await submit(guest, {
        answers: { name: '', email: 'nope', topic: 'weather', mood: 'x' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_answers');
      expect(Object.keys(response.json().error.fields).sort()).toEqual([
        'answers.email',
        'answers.mood',
        'answers.name',
        'answers.topic',
      ]);
    });

    it("refuses a form that is not the company's welcome form (400)", async () => {
      const response = await submit(guest, { form: 2 });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty('form');
    });

    it.each([
      ['an unknown service type', { serviceType: 'Phone' }, 'serviceType'],
      ['no answers', { answers: undefined }, 'answers'],
      ['a malformed username', { guestUsername: 'x' }, 'guestUsername'],
    ])('refuses %s with 400 naming the field', async (_name, body, field) => {
      const response = await submit(guest, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty(field);
    });

    it('refuses acting for another guest or company (403), agents submitting (403), no token (401)', async () => {
      expect((await submit(guest, { guestUsername: otherGuest.username })).json().error.code).toBe(
        'other_guest',
      );
      expect((await submit(guest, { company: 10, form: 3 })).json().error.code).toBe(
        'other_company',
      );
      expect((await submit(guest, {}, agent)).statusCode).toBe(403);
      expect(
        (
          await post('form-submission', {
            company: 5,
            guestUsername: guest.username,
            serviceType: 'Talk',
            form: 1,
            answers: welcome,
          })
        ).statusCode,
      ).toBe(401);
      expect((await lookup(otherGuest, {}, guest.token)).statusCode).toBe(403);
      expect((await lookup(guest, { companyId: 10 })).statusCode).toBe(403);
      expect(
        (
          await post('form-submission/get-submission', {
            companyId: 5,
            guestUsername: guest.username,
            serviceType: 'Talk',
          })
        ).statusCode,
      ).toBe(401);
    });
  });

  describe('POST /api/rating-form/submissions', () => {
    let callCount = 0;
    const newReport = async (who: TestGuest): Promise<number> => {
      const call_id = formatCallId(who.username, `r${(callCount += 1)}`);
      const response = await post(
        'call-report/add',
        { call_id, company: 5, source: 'site' },
        who.token,
      );
      return response.json().data.id;
    };
    const rate = (who: TestGuest, report: number, body: object = {}, token = who.token) =>
      post(
        'rating-form/submissions',
        {
          guestUsername: who.username,
          report,
          form: 2,
          answers: { score: 5, resolved: 'yes' },
          ...body,
        },
        token,
      );

    it('stores the rating of a call once; a second answers 409', async () => {
      const report = await newReport(guest);
      const first = await rate(guest, report, {
        answers: { score: 4, resolved: 'partly', comments: 'Good' },
      });
      expect(first.statusCode).toBe(201);
      const again = await rate(guest, report);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('already_rated');
    });

    it('checks the answers against the rating form (400)', async () => {
      const response = await rate(guest, await newReport(guest), { answers: { score: 9 } });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().error.fields).sort()).toEqual([
        'answers.resolved',
        'answers.score',
      ]);
    });

    it('refuses the welcome form as a rating form (400) and an unknown report (404)', async () => {
      expect((await rate(guest, await newReport(guest), { form: 1 })).statusCode).toBe(400);
      expect((await rate(guest, 999_999)).statusCode).toBe(404);
    });

    it("refuses rating another guest's call (403), for another guest (403), as an agent (403), without a token (401)", async () => {
      const report = await newReport(otherGuest);
      expect((await rate(guest, report)).json().error.code).toBe('not_your_call');
      const mine = await newReport(guest);
      expect((await rate(guest, mine, { guestUsername: otherGuest.username })).statusCode).toBe(
        403,
      );
      expect((await rate(guest, mine, {}, agent)).statusCode).toBe(403);
      expect(
        (
          await post('rating-form/submissions', {
            guestUsername: guest.username,
            report: mine,
            form: 2,
            answers: {},
          })
        ).statusCode,
      ).toBe(401);
    });

    it.each([
      ['a report id as text', { report: 'one' }, 'report'],
      ['a form id of zero', { form: 0 }, 'form'],
    ])('refuses %s with 400 naming the field', async (_name, body, field) => {
      const response = await rate(guest, 1, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty(field);
    });
  });
});
