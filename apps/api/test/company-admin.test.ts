import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  adminCategorySchema,
  auditPageSchema,
  companyDetailsSchema,
  companySettingsSchema,
  envelope,
  formSchema,
  guestBlockSchema,
  minimalAnswers,
  quotaSchema,
  uploadedFileSchema,
  type CompanyUpdateBody,
  type FormField,
} from '@frontdesk/protocol';
import { changeCompany } from '../src/audit/company-changes.ts';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { keyedFingerprint } from '../src/guests/guest-identity.ts';
import { staffJabberUsername } from '../src/xmpp/addresses.ts';
import { square } from './areas.ts';
import {
  bearer,
  buildReplica,
  buildTestApp,
  callApi,
  guestWithCall,
  loginGuest,
  loginStaff,
  multipart,
  newBrowserUsername,
  newCallId,
  staffIdOf,
  type TestApp,
} from './helper.ts';

const COMPANY = SEEDED_COMPANY.demo;
const png = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0,
]);

/** A value for every field PATCH takes, none of them the default. */
const EVERY_FIELD = {
  name: 'Frontdesk Demo Renamed',
  callMethod: 'p2p',
  callType: 'video',
  language: 'ar',
  pageDirection: 'rtl',
  logoImageUrl: 'https://cdn.example/logo.png',
  websiteUrl: 'https://shop.example/',
  websiteTitle: 'Shop',
  welcomeMsg: 'Hello there',
  waitingMsg: 'One moment',
  outOfHoursMsg: 'We are closed',
  backgroundImgUrl: 'https://cdn.example/bg.jpg',
  backgroundColor: '#102030',
  waterMarkLogo: 'https://cdn.example/mark.png',
  recordCalls: false,
  recordAlertText: 'This call is recorded',
  recordingOptional: true,
  consentRequired: true,
  consentText: 'May we process your details for this call?',
  privacyNoticeUrl: 'https://shop.example/privacy',
  keepIpAddresses: true,
  flipCamera: true,
  poweredByLogo: false,
  locationOfService: 'Greater London',
  requestLocation: true,
  outOfZoneMsg: 'Not here',
  showRatingPage: false,
  ratingPageMsg: 'Rate us',
  thanksMsg: 'Thanks!',
  previewScreen: false,
  fontFamily: '"Open Sans", Arial, sans-serif',
  faviconUrl: 'https://cdn.example/favicon.ico',
  waitingImageUrl: 'https://cdn.example/wait.png',
  textColor: '#AABBCC',
  categoryTextColor: '#000000',
  categoryBackgroundColor: '#ffffff',
  categoryStyle: 'list',
  ratingSubmitMsg: 'Send',
  ratingPageImage: 'https://cdn.example/rate.png',
  ratingThanksMsg: 'Much obliged',
  hideTimetable: true,
  holdPageImage: 'https://cdn.example/hold.png',
  holdPageText: 'Please hold',
  videoOnHoldText: 'Video paused',
  audioOnHoldText: 'Audio paused',
  assignments: true,
  assignmentGroups: [{ id: 'vip', name: 'VIP customers' }],
  welcomeButtonText: 'Start',
  ratingStyle: 'emojies',
  advanceRating: true,
  streamWatermark: 'visible',
  roundRobin: false,
  details: 'Open to all',
} satisfies Required<CompanyUpdateBody>;

describe('company admin API', () => {
  let t: TestApp;
  let admin: string;

  let guestAppDir: string;

  beforeAll(async () => {
    // A guest app to serve, whose page's policy names the sites that may frame it.
    guestAppDir = await mkdtemp(join(tmpdir(), 'frontdesk-admin-'));
    await writeFile(
      join(guestAppDir, 'index.html'),
      '<!doctype html><html lang="en"><head><title>guest</title></head><body></body></html>',
    );
    // A long cache: what guests see changes only because the change was announced.
    t = await buildTestApp({
      COMPANY_DETAILS_CACHE_MS: '3600000',
      GUEST_APP_DIR: guestAppDir,
      CONSOLE_APP_DIR: guestAppDir,
    });
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
  });
  afterAll(async () => {
    await t.close();
    await rm(guestAppDir, { recursive: true, force: true });
  });

  const send = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    { token = admin, ifMatch }: { token?: string; ifMatch?: string } = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/company/${COMPANY}${path}`,
      ...(body === undefined ? {} : { body: body as object }),
      headers: { ...bearer(token), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
    });
  const publicDetails = async (app = t.app) => {
    const response = await app.inject({ method: 'GET', url: `/api/company/${COMPANY}` });
    return {
      etag: response.headers.etag,
      ...envelope(companyDetailsSchema).parse(response.json()).data,
    };
  };
  const latestAudit = async () =>
    envelope(auditPageSchema).parse((await send('GET', '/audit?limit=1')).json()).data.entries[0];

  describe('PATCH /api/company/:id', () => {
    it('sets every field, answers the new details and ETag, and guests see each at once', async () => {
      const before = await publicDetails();
      const response = await send('PATCH', '', EVERY_FIELD);
      expect(response.statusCode, response.body).toBe(200);
      const answered = envelope(companyDetailsSchema).parse(response.json()).data;
      expect(answered).toMatchObject(EVERY_FIELD);
      expect(answered.version).toBe(before.version + 1);
      expect(response.headers.etag).toBe(`"${answered.version}"`);

      const seen = await publicDetails();
      expect(seen).toMatchObject(EVERY_FIELD);
      expect(seen.etag).toBe(`"${answered.version}"`);
      // The later tests' guests pick no assignment group, which assignments would require, and
      // register without the consent step of the guest page (decision 0030).
      expect(
        (await send('PATCH', '', { assignments: false, consentRequired: false })).statusCode,
      ).toBe(200);
    });

    it('resets a field given as null to the app default', async () => {
      const response = await send('PATCH', '', {
        welcomeMsg: null,
        ratingStyle: null,
        callType: null,
      });
      expect(response.statusCode).toBe(200);
      const defaults = companySettingsSchema.parse({});
      expect(await publicDetails()).toMatchObject({
        welcomeMsg: defaults.welcomeMsg,
        ratingStyle: 'stars',
        callType: 'userSelect',
        // Untouched fields stay.
        textColor: EVERY_FIELD.textColor,
      });
    });

    it('takes back the pictures the guest app ships, which the demo companies start with', async () => {
      const response = await send('PATCH', '', {
        logoImageUrl: '/brand/frontdesk-logo.svg',
        faviconUrl: '/brand/favicon.svg',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(await publicDetails()).toMatchObject({
        logoImageUrl: '/brand/frontdesk-logo.svg',
        faviconUrl: '/brand/favicon.svg',
      });
    });

    it('keeps in the audit log only the fields that changed, before and after, by whom', async () => {
      await send('PATCH', '', { textColor: '#123456', thanksMsg: EVERY_FIELD.thanksMsg });
      expect(await latestAudit()).toMatchObject({
        actor: 'admin@frontdesk.demo',
        action: 'company.update',
        target: `company ${COMPANY}`,
        before: { textColor: EVERY_FIELD.textColor },
        after: { textColor: '#123456' },
      });
    });

    it.each<[string, unknown]>([
      ['textColor', 'red'],
      ['textColor', '#12345'],
      ['backgroundColor', 'red; background: url(x)'],
      ['logoImageUrl', 'http://cdn.example/logo.png'],
      ['logoImageUrl', 'javascript:alert(1)'],
      ['faviconUrl', 'data:image/svg+xml,<svg/>'],
      ['backgroundImgUrl', '//evil.example/bg.png'],
      ['websiteUrl', 'https://user:pass@evil.example/'],
      ['waterMarkLogo', '/api/files/../secrets'],
      ['holdPageImage', '/brand/../index.html'],
      ['ratingPageImage', '/brand/elsewhere.svg'],
      ['websiteTitle', 'x'.repeat(201)],
      ['welcomeMsg', 'x'.repeat(2001)],
      ['welcomeMsg', '   '],
      ['name', ''],
      ['name', null],
      ['callType', 'fax'],
      ['callMethod', 'carrier-pigeon'],
      ['language', 'fr'],
      ['pageDirection', 'up'],
      ['ratingStyle', 'hearts'],
      ['streamWatermark', 'loud'],
      ['categoryStyle', 'grid'],
      ['recordCalls', 'yes'],
      ['fontFamily', 'Arial; color: red'],
      ['fontFamily', 'url(https://evil.example/font)'],
      [
        'assignmentGroups',
        [
          { id: 'a', name: 'A' },
          { id: 'a', name: 'B' },
        ],
      ],
    ])('refuses %s = %j, naming the field', async (field, value) => {
      const response = await send('PATCH', '', { [field]: value });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().error.fields ?? {})).toContain(field);
    });

    it('refuses an unknown field, and allowedOrigins (its own route), naming them', async () => {
      const response = await send('PATCH', '', {
        welcomeMsg: 'Hi',
        colour: '#ffffff',
        allowedOrigins: ['https://evil.example'],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toMatchObject({
        colour: 'is not allowed',
        allowedOrigins: 'is not allowed',
      });
      expect((await publicDetails()).welcomeMsg).not.toBe('Hi');
    });

    it('refuses an empty change', async () => {
      expect((await send('PATCH', '', {})).statusCode).toBe(400);
    });

    it("takes the company's own uploaded image, never another company's", async () => {
      const upload = async (token: string, companyId: number) => {
        const { payload, contentType } = multipart([
          { name: 'image', filename: 'logo.png', type: 'image/png', content: png },
          { name: 'companyId', value: String(companyId) },
        ]);
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/upload/image',
          payload,
          headers: { 'content-type': contentType, ...bearer(token) },
        });
        return envelope(uploadedFileSchema).parse(response.json()).data.fileUrl;
      };
      const own = await upload(admin, COMPANY);
      expect((await send('PATCH', '', { logoImageUrl: own })).statusCode).toBe(200);
      expect((await publicDetails()).logoImageUrl).toBe(own);

      const theirs = await upload(
        await loginStaff(t.app, 'cy@frontdesk.demo'),
        SEEDED_COMPANY.aroundTheClock,
      );
      const refused = await send('PATCH', '', { backgroundImgUrl: theirs });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields).toHaveProperty('backgroundImgUrl');
    });

    it('applies an edit against the current If-Match, and refuses one against a stale one (412)', async () => {
      const { version } = await publicDetails();
      const fresh = await send('PATCH', '', { waitingMsg: 'fresh' }, { ifMatch: `"${version}"` });
      expect(fresh.statusCode).toBe(200);
      const stale = await send('PATCH', '', { waitingMsg: 'stale' }, { ifMatch: `"${version}"` });
      expect(stale.statusCode).toBe(412);
      expect(stale.json().error.code).toBe('stale_version');
      expect((await publicDetails()).waitingMsg).toBe('fresh');
    });

    it('lets exactly one of two concurrent edits made from the same version through', async () => {
      const { version } = await publicDetails();
      const answers = await Promise.all(
        ['first', 'second'].map((holdPageText) =>
          send('PATCH', '', { holdPageText }, { ifMatch: `"${version}"` }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 412]);
      const winner = answers.find((a) => a.statusCode === 200);
      const details = await publicDetails();
      expect(details.holdPageText).toBe(
        envelope(companyDetailsSchema).parse(winner?.json()).data.holdPageText,
      );
      expect(details.version).toBe(version + 1);
    });

    it('refuses a malformed If-Match, naming it', async () => {
      const response = await send('PATCH', '', { waitingMsg: 'x' }, { ifMatch: 'yesterday' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty('if-match');
    });

    it("reaches another API replica's guests at once (its cache is told at commit)", async () => {
      const replica = await buildReplica(t, { companyDetailsCacheMs: 3_600_000 });
      try {
        // The replica keeps the details for an hour unless told otherwise.
        expect((await publicDetails(replica.app)).welcomeMsg).not.toBe('From the other replica');
        const response = await send('PATCH', '', { welcomeMsg: 'From the other replica' });
        expect(response.statusCode).toBe(200);
        await vi.waitFor(async () => {
          expect((await publicDetails(replica.app)).welcomeMsg).toBe('From the other replica');
        });
      } finally {
        await replica.close();
      }
    });
  });

  describe('categories', () => {
    const categories = async () =>
      envelope(adminCategorySchema.array()).parse((await send('GET', '/categories')).json()).data;

    it('creates one last, with its colours, agents and a room named as the seed names them', async () => {
      const bo = await staffIdOf(t.app, 'bo@frontdesk.demo');
      const response = await send('POST', '/categories', {
        name: 'Returns & Refunds',
        textColor: '#111111',
        backgroundColor: '#eeeeee',
        agentIds: [bo],
      });
      expect(response.statusCode, response.body).toBe(201);
      const created = envelope(adminCategorySchema).parse(response.json()).data;
      expect(created).toMatchObject({
        name: 'Returns & Refunds',
        roomName: 'frontdesk-demo-returns-refunds',
        textColor: '#111111',
        backgroundColor: '#eeeeee',
        agentIds: [bo],
      });
      const all = await categories();
      expect(all.at(-1)?.id).toBe(created.id);
      expect((await publicDetails()).categories.at(-1)).toMatchObject({
        id: created.id,
        name: 'Returns & Refunds',
        textColor: '#111111',
      });
      // A second of the same name gets a room of its own.
      const again = await send('POST', '/categories', { name: 'Returns & Refunds' });
      expect(envelope(adminCategorySchema).parse(again.json()).data.roomName).toBe(
        'frontdesk-demo-returns-refunds-2',
      );
      expect(await latestAudit()).toMatchObject({ action: 'category.create', before: null });
    });

    it('refuses agents of another company and bad colours, naming the field', async () => {
      const cy = await staffIdOf(t.app, 'cy@frontdesk.demo');
      const stranger = await send('POST', '/categories', { name: 'X', agentIds: [cy] });
      expect(stranger.statusCode).toBe(400);
      expect(stranger.json().error.fields).toHaveProperty('agentIds');
      const colour = await send('POST', '/categories', { name: 'X', textColor: 'blue' });
      expect(colour.json().error.fields).toHaveProperty('textColor');
      const unknown = await send('POST', '/categories', { name: 'X', icon: 'x' });
      expect(unknown.json().error.fields).toMatchObject({ icon: 'is not allowed' });
    });

    it('updates the fields named, and reorders them all', async () => {
      const [first] = await categories();
      if (!first) throw new Error('no category');
      const response = await send('PATCH', `/categories/${first.id}`, {
        name: 'Sales & Offers',
        backgroundColor: '#abcdef',
      });
      expect(response.statusCode).toBe(200);
      expect(envelope(adminCategorySchema).parse(response.json()).data).toMatchObject({
        name: 'Sales & Offers',
        backgroundColor: '#abcdef',
        roomName: first.roomName,
      });
      expect(await latestAudit()).toMatchObject({
        action: 'category.update',
        before: { name: first.name, backgroundColor: null },
        after: { name: 'Sales & Offers', backgroundColor: '#abcdef' },
      });

      const ids = (await categories()).map((c) => c.id);
      const reversed = [...ids].reverse();
      const reordered = await send('PUT', '/categories/order', { categoryIds: reversed });
      expect(reordered.statusCode).toBe(200);
      expect((await publicDetails()).categories.map((c) => c.id)).toEqual(reversed);
      const partial = await send('PUT', '/categories/order', { categoryIds: reversed.slice(1) });
      expect(partial.statusCode).toBe(400);
      expect(partial.json().error.fields).toHaveProperty('categoryIds');
    });

    it("offers a category's waiting calls to its own available agents (round robin)", async () => {
      await send('PATCH', '', { roundRobin: true });
      const [ada, bo] = await Promise.all([
        staffIdOf(t.app, 'ada@frontdesk.demo'),
        staffIdOf(t.app, 'bo@frontdesk.demo'),
      ]);
      const support = (await categories()).find((c) => c.name === 'Support');
      if (!support) throw new Error('no Support category');
      const served = await send('PATCH', `/categories/${support.id}`, { agentIds: [bo] });
      expect(served.statusCode, served.body).toBe(200);
      const adaToken = await loginStaff(t.app, 'ada@frontdesk.demo');
      for (const email of ['ada@frontdesk.demo', 'bo@frontdesk.demo']) {
        const token = email === 'ada@frontdesk.demo' ? adaToken : await loginStaff(t.app, email);
        const put = await callApi(
          t.app,
          'PUT',
          'staff/me/availability',
          { status: 'available' },
          token,
        );
        expect(put.statusCode).toBe(204);
      }
      const calls = await Promise.all(
        Array.from({ length: 3 }, () => guestWithCall(t.app, COMPANY, support.id)),
      );
      const listed = await callApi(
        t.app,
        'GET',
        `calls?status=waiting&categoryId=${support.id}`,
        undefined,
        adaToken,
      );
      const offers = (
        listed.json().data as { callId: string; offer: { agentJabberUsername: string } | null }[]
      )
        .filter((call) => calls.some((c) => c.callId === call.callId))
        .map((call) => call.offer?.agentJabberUsername);
      // Ada is available too, but does not serve Support.
      expect(offers).toEqual([bo, bo, bo].map(staffJabberUsername));
      expect(ada).not.toBe(bo);
    });

    it('refuses to delete a category with a live call (409), then deletes it keeping its reports', async () => {
      const created = envelope(adminCategorySchema).parse(
        (await send('POST', '/categories', { name: 'Short-lived' })).json(),
      ).data;
      const guest = await guestWithCall(t.app, COMPANY, created.id);
      const refused = await send('DELETE', `/categories/${created.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('category_has_live_calls');

      const ended = await callApi(
        t.app,
        'POST',
        `calls/${guest.callId}/end`,
        { reason: 'completed' },
        guest.token,
      );
      expect(ended.statusCode, ended.body).toBe(200);
      expect((await send('DELETE', `/categories/${created.id}`)).statusCode).toBe(204);
      expect((await categories()).map((c) => c.id)).not.toContain(created.id);
      expect((await publicDetails()).categories.map((c) => c.id)).not.toContain(created.id);
      const report = await t.app.db
        .selectFrom('call_reports')
        .select('category_id')
        .where('call_id', '=', guest.callId)
        .executeTakeFirstOrThrow();
      expect(report.category_id).toBe(created.id);
      // No new call can start in it.
      const other = await loginGuest(t.app, COMPANY);
      const added = await callApi(
        t.app,
        'POST',
        'call-report/add',
        { call_id: newCallId(other), company: COMPANY, source: 'site', category_id: created.id },
        other.token,
      );
      expect(added.statusCode).toBe(400);
      expect((await send('DELETE', `/categories/${created.id}`)).statusCode).toBe(404);
    });
  });

  describe('forms', () => {
    const fields: FormField[] = [
      {
        name: 'name',
        label: 'Your name',
        required: true,
        type: 'text',
        maxLength: 80,
        help: 'As on your card',
      },
      {
        name: 'topic',
        label: 'Topic',
        required: false,
        type: 'select',
        options: [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ],
      },
    ];

    it('replaces the welcome form under a new id, keeping the old answers readable', async () => {
      const old = (await publicDetails()).welcomeForm;
      if (!old) throw new Error('the demo company has a welcome form');
      const guest = await loginGuest(t.app, COMPANY);
      const submission = await t.app.db
        .selectFrom('form_submissions')
        .select('id')
        .where('form_id', '=', old.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();

      const saved = await send('PUT', '/forms/welcome', { title: 'Hello first', fields });
      expect(saved.statusCode, saved.body).toBe(200);
      const form = envelope(formSchema).parse(saved.json()).data;
      expect(form.id).not.toBe(old.id);
      expect(form.fields).toEqual(fields);
      expect((await publicDetails()).welcomeForm).toEqual(form);
      expect(
        envelope(formSchema.nullable()).parse((await send('GET', '/forms/welcome')).json()).data,
      ).toEqual(form);

      // The old answers still point at the form they answered, which is kept.
      const kept = await t.app.db
        .selectFrom('form_submissions as s')
        .innerJoin('forms as f', 'f.id', 's.form_id')
        .select(['f.id', 'f.fields'])
        .where('s.id', '=', submission.id)
        .executeTakeFirstOrThrow();
      expect(kept).toEqual({ id: old.id, fields: old.fields });
      // Guests answer the new form now, not the old one.
      const answer = (formId: number, answers: object) =>
        callApi(
          t.app,
          'POST',
          'form-submission',
          {
            company: COMPANY,
            guestUsername: guest.username,
            serviceType: 'Talk',
            form: formId,
            answers,
          },
          guest.token,
        );
      expect((await answer(old.id, minimalAnswers(old))).statusCode).toBe(400);
      expect((await answer(form.id, minimalAnswers(form))).statusCode).toBe(201);
      expect(await latestAudit()).toMatchObject({ action: 'form.save', target: 'welcome form' });
    });

    it('refuses a form the guest app cannot render, naming the field', async () => {
      const response = await send('PUT', '/forms/rating', {
        title: 'Rate',
        fields: [{ name: 'x', label: 'X', required: true, type: 'slider' }],
      });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().error.fields).join()).toContain('fields');
      expect((await send('PUT', '/forms/survey', { title: 'x', fields })).statusCode).toBe(400);
    });

    it('deletes the rating form: guests are no longer asked it', async () => {
      expect((await send('DELETE', '/forms/rating')).statusCode).toBe(204);
      expect((await publicDetails()).ratingForm).toBeNull();
      expect((await send('GET', '/forms/rating')).json().data).toBeNull();
      expect((await send('DELETE', '/forms/rating')).statusCode).toBe(404);
    });
  });

  describe('geofence', () => {
    it('saves named zones and says which of them hold a point', async () => {
      const saved = await send('PUT', '/geofence', {
        zones: [
          { name: 'North', area: square(0, 51) },
          { name: 'East', area: square(0.5, 51) },
        ],
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(
        (await send('GET', '/geofence')).json().data.map((z: { name: string }) => z.name),
      ).toEqual(['North', 'East']);
      const check = async (lat: number, lng: number) =>
        (await send('POST', '/geofence/check-point', { lat, lng })).json().data;
      expect(await check(51.5, 0.7)).toMatchObject({
        inside: true,
        zones: [{ name: 'North' }, { name: 'East' }],
      });
      expect(await check(51.5, 0.2)).toMatchObject({ inside: true, zones: [{ name: 'North' }] });
      expect(await check(48.85, 2.35)).toEqual({ inside: false, zones: [] });
      // The guest's own check follows the new zones.
      const guestCheck = await callApi(t.app, 'PUT', 'geo-fence/check', {
        lat: 48.85,
        lng: 2.35,
        companyID: COMPANY,
      });
      expect(guestCheck.statusCode).toBe(403);
    });

    it('refuses an open ring and an unnamed zone, naming the field', async () => {
      const open = square(0, 51);
      open.coordinates[0]?.pop();
      open.coordinates[0]?.push([5, 5]);
      const response = await send('PUT', '/geofence', { zones: [{ name: '', area: open }] });
      expect(response.statusCode).toBe(400);
      const named = Object.keys(response.json().error.fields);
      expect(named).toContain('zones.0.name');
      expect(named.some((field) => field.startsWith('zones.0.area'))).toBe(true);
    });

    it('serves everywhere again without zones', async () => {
      expect((await send('PUT', '/geofence', { zones: [] })).statusCode).toBe(200);
      expect(
        (await send('POST', '/geofence/check-point', { lat: -33.9, lng: 151.2 })).json().data,
      ).toEqual({
        inside: true,
        zones: [],
      });
    });
  });

  describe('block list', () => {
    it("blocks the guest of a call by the call's id (its fingerprint found by the API), then unblocks", async () => {
      await send('PATCH', '', { requestLocation: false });
      const browser = newBrowserUsername();
      const blockedGuest = await loginGuest(t.app, COMPANY, browser);
      const callId = newCallId(blockedGuest);
      await callApi(
        t.app,
        'POST',
        'call-report/add',
        { call_id: callId, company: COMPANY, source: 'site', category_id: 1 },
        blockedGuest.token,
      );
      const response = await send('POST', '/blocks', { callId, reason: 'Abusive' });
      expect(response.statusCode, response.body).toBe(201);
      const block = envelope(guestBlockSchema).parse(response.json()).data;
      expect(block).toMatchObject({
        fingerprint: keyedFingerprint(
          t.config.secrets.guestFingerprint,
          browser.split('_')[0] ?? '',
        ),
        reason: 'Abusive',
        callId,
      });
      expect((await send('GET', '/blocks')).json().data[0]).toMatchObject({ id: block.id });
      expect(await latestAudit()).toMatchObject({
        action: 'block.create',
        after: { reason: 'Abusive' },
      });

      // The guest's next call is refused as blocked; others' are not.
      const next = await callApi(
        t.app,
        'POST',
        'call-report/add',
        { call_id: newCallId(blockedGuest), company: COMPANY, source: 'site' },
        blockedGuest.token,
      );
      expect(next.json().data.status).toBe('blocked');

      // Blocking again updates the reason.
      const again = await send('POST', '/blocks', { callId, reason: 'Abusive, twice' });
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toMatchObject({ id: block.id, reason: 'Abusive, twice' });

      expect((await send('DELETE', `/blocks/${block.id}`)).statusCode).toBe(204);
      const free = await callApi(
        t.app,
        'POST',
        'call-report/add',
        { call_id: newCallId(blockedGuest), company: COMPANY, source: 'site' },
        blockedGuest.token,
      );
      expect(free.json().data.status).toBe('ok');
      expect((await send('DELETE', `/blocks/${block.id}`)).statusCode).toBe(404);
    });

    it("blocks by fingerprint, and finds no other company's call", async () => {
      const byFingerprint = await send('POST', '/blocks', { fingerprint: 'ABCDEF0123456789' });
      expect(byFingerprint.statusCode).toBe(201);
      // Kept, as a guest's, as its HMAC under the API's key (decision 0033).
      expect(byFingerprint.json().data.fingerprint).toBe(
        keyedFingerprint(t.config.secrets.guestFingerprint, 'abcdef0123456789'),
      );

      const foreignGuest = await guestWithCall(t.app, SEEDED_COMPANY.aroundTheClock, 10);
      const foreign = await send('POST', '/blocks', { callId: foreignGuest.callId });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.fields).toHaveProperty('callId');

      const both = await send('POST', '/blocks', {
        callId: foreignGuest.callId,
        fingerprint: 'abcdef0123456789',
      });
      expect(both.statusCode).toBe(400);
      expect(
        (await send('POST', '/blocks', { fingerprint: 'x' })).json().error.fields,
      ).toHaveProperty('fingerprint');
    });
  });

  describe('quota', () => {
    const quota = async () =>
      envelope(quotaSchema).parse((await send('GET', '/quota')).json()).data;

    it("counts this month's calls, and a quota set to them refuses the next as outOfQuota", async () => {
      const start = await quota();
      expect(start).toMatchObject({ monthlyCallQuota: null, timeZone: 'UTC' });
      await guestWithCall(t.app, COMPANY, 1);
      const used = (await quota()).usedThisMonth;
      expect(used).toBe(start.usedThisMonth + 1);

      const set = await send('PUT', '/quota', { monthlyCallQuota: used });
      expect(set.statusCode).toBe(200);
      expect(set.json().data).toMatchObject({ monthlyCallQuota: used, usedThisMonth: used });
      const guest = await loginGuest(t.app, COMPANY);
      const refused = await callApi(
        t.app,
        'POST',
        'call-report/add',
        { call_id: newCallId(guest), company: COMPANY, source: 'site' },
        guest.token,
      );
      expect(refused.json().data.status).toBe('outOfQuota');
      expect(await latestAudit()).toMatchObject({
        action: 'company.quota',
        before: { monthlyCallQuota: null },
        after: { monthlyCallQuota: used },
      });

      expect(
        (await send('PUT', '/quota', { monthlyCallQuota: null })).json().data.monthlyCallQuota,
      ).toBeNull();
      expect(
        (await send('PUT', '/quota', { monthlyCallQuota: -1 })).json().error.fields,
      ).toHaveProperty('monthlyCallQuota');
    });

    it("counts the month in the company's time zone when it keeps a timetable", async () => {
      await t.app.db
        .insertInto('schedules')
        .values({ company_id: COMPANY, time_zone: 'Pacific/Kiritimati' })
        .execute();
      try {
        const { timeZone, monthStartedAt } = await quota();
        expect(timeZone).toBe('Pacific/Kiritimati');
        // Midnight of the 1st at UTC+14 is 10:00 UTC of the day before.
        expect(new Date(monthStartedAt).getUTCHours()).toBe(10);
      } finally {
        await t.app.db.deleteFrom('schedules').where('company_id', '=', COMPANY).execute();
      }
    });
  });

  describe('allowed origins', () => {
    it('replaces the list, which the guest page may be framed by at once', async () => {
      const frameAncestors = async () => {
        const page = await t.app.inject({ method: 'GET', url: `/?company=${COMPANY}` });
        expect(page.statusCode).toBe(200);
        const policy = String(page.headers['content-security-policy']);
        return /frame-ancestors ([^;]*)/.exec(policy)?.[1];
      };
      expect(await frameAncestors()).not.toContain('https://shop.example');
      const response = await send('PUT', '/allowed-origins', {
        allowedOrigins: ['https://shop.example', 'http://localhost:8000'],
      });
      expect(response.statusCode).toBe(200);
      expect((await send('GET', '/allowed-origins')).json().data).toEqual({
        allowedOrigins: ['https://shop.example', 'http://localhost:8000'],
      });
      expect((await publicDetails()).allowedOrigins).toEqual([
        'https://shop.example',
        'http://localhost:8000',
      ]);
      expect(await frameAncestors()).toBe("'self' https://shop.example http://localhost:8000");
      expect(await latestAudit()).toMatchObject({
        action: 'company.allowedOrigins',
        after: { allowedOrigins: ['https://shop.example', 'http://localhost:8000'] },
      });
    });

    it('refuses anything but origins, naming the entry', async () => {
      for (const origin of [
        'https://shop.example/path',
        'https://*.example',
        'javascript:alert(1)',
      ]) {
        const response = await send('PUT', '/allowed-origins', { allowedOrigins: [origin] });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.fields).toHaveProperty('allowedOrigins.0');
      }
    });
  });

  describe('audit log', () => {
    it('pages newest first with who, what, when, before and after', async () => {
      const first = envelope(auditPageSchema).parse(
        (await send('GET', '/audit?limit=2')).json(),
      ).data;
      expect(first.entries).toHaveLength(2);
      const [newer, older] = first.entries;
      expect(newer?.id).toBeGreaterThan(older?.id ?? Infinity);
      expect(newer).toMatchObject({ actor: 'admin@frontdesk.demo', staffId: expect.any(Number) });
      expect(first.nextBefore).toBe(older?.id);
      const next = envelope(auditPageSchema).parse(
        (await send('GET', `/audit?limit=2&before=${first.nextBefore}`)).json(),
      ).data;
      expect(next.entries[0]?.id).toBeLessThan(older?.id ?? 0);
      expect((await send('GET', '/audit?limit=0')).json().error.fields).toHaveProperty('limit');
    });

    it("keeps each company's log to itself", async () => {
      const other = SEEDED_COMPANY.aroundTheClock;
      await changeCompany(
        t.app.db,
        { companyId: other, actor: { staffId: null, label: 'command line' } },
        async () => ({
          action: 'company.update',
          target: `company ${other}`,
          before: {},
          after: {},
          result: null,
        }),
      );
      const page = await send('GET', '/audit?limit=200');
      const targets = (page.json().data.entries as { target: string }[]).map((e) => e.target);
      expect(targets).toContain(`company ${COMPANY}`);
      expect(targets).not.toContain(`company ${other}`);
    });
  });
});
