import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannedReplySchema } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { bearer, buildTestApp, loginStaff, type TestApp } from './helper.ts';

const COMPANY = SEEDED_COMPANY.demo;
const url = (path = '') => `/api/company/${COMPANY}/canned-replies${path}`;

describe('canned replies (issue 19 item 4)', () => {
  let t: TestApp;
  let admin: string;
  let agent: string;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    agent = await loginStaff(t.app, 'ada@frontdesk.demo');
  });
  afterAll(() => t.close());

  const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', path: string, body?: object) =>
    t.app.inject({ method, url: url(path), headers: bearer(admin), ...(body ? { body } : {}) });

  it('lets the admin add, change and delete replies, which the company’s agents read by shortcut', async () => {
    const created = await send('POST', '', {
      title: 'Opening hours',
      shortcut: 'hours',
      text: '  We are open Monday to Friday, 8:00 to 20:00.  ',
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toMatch(/^"\d+"$/);
    const hours = cannedReplySchema.parse(created.json().data);
    expect(hours).toMatchObject({
      shortcut: 'hours',
      text: 'We are open Monday to Friday, 8:00 to 20:00.',
    });
    const greeting = await send('POST', '', { title: 'Greeting', shortcut: 'hi', text: 'Hello!' });
    expect(greeting.statusCode).toBe(201);

    const read = await t.app.inject({ method: 'GET', url: url(), headers: bearer(agent) });
    expect(read.statusCode).toBe(200);
    expect(read.json().data.map((r: { shortcut: string }) => r.shortcut)).toEqual(['hi', 'hours']);

    const changed = await send('PATCH', `/${hours.id}`, { text: 'Open every day.' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({
      id: hours.id,
      title: 'Opening hours',
      text: 'Open every day.',
    });

    expect((await send('DELETE', `/${hours.id}`)).statusCode).toBe(204);
    expect((await send('DELETE', `/${hours.id}`)).json().error.code).toBe('canned_reply_not_found');
    const audit = await t.app.db
      .selectFrom('audit_entries')
      .select(['action', 'target'])
      .where('company_id', '=', COMPANY)
      .where('action', 'like', 'cannedReply.%')
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual([
      'cannedReply.create',
      'cannedReply.create',
      'cannedReply.update',
      'cannedReply.delete',
    ]);
  });

  it('refuses a taken shortcut and bad fields, naming the field', async () => {
    await send('POST', '', { title: 'Thanks', shortcut: 'thanks', text: 'Thank you!' });
    const taken = await send('POST', '', { title: 'Thanks 2', shortcut: 'thanks', text: 'Cheers' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({
      code: 'shortcut_taken',
      fields: { shortcut: expect.any(String) },
    });
    const other = cannedReplySchema.parse(
      (await send('POST', '', { title: 'Bye', shortcut: 'bye', text: 'Goodbye' })).json().data,
    );
    const renamed = await send('PATCH', `/${other.id}`, { shortcut: 'thanks' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().error.code).toBe('shortcut_taken');

    const bad = await send('POST', '', { title: 'X', shortcut: 'Has Spaces', text: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/shortcut/);
    const empty = await send('PATCH', `/${other.id}`, {});
    expect(empty.statusCode).toBe(400);
    const long = await send('POST', '', {
      title: 'Long',
      shortcut: 'long',
      text: 'x'.repeat(4001),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toMatch(/text/);
  });
});
