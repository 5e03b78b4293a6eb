import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, uploadedFileSchema, UPLOAD_LIMIT_BYTES } from '@frontdesk/protocol';
import {
  bearer,
  buildTestApp,
  callApi,
  loginGuest,
  loginStaff,
  multipart,
  newCallId,
  type Part,
  type TestApp,
} from './helper.ts';

const png = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0,
]);
const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

describe('uploads', () => {
  let t: TestApp;
  let guest: { username: string; token: string };
  let agent: string;

  beforeAll(async () => {
    t = await buildTestApp();
    guest = await loginGuest(t.app, 5);
    agent = await loginStaff(t.app, 'ada@frontdesk.demo');
    // A guest sends files during its call.
    const added = await callApi(
      t.app,
      'POST',
      'call-report/add',
      { call_id: newCallId(guest), company: 5, source: 'site' },
      guest.token,
    );
    expect(added.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  const upload = (type: string, parts: Part[], token: string | null = guest.token) => {
    const { payload, contentType } = multipart(parts);
    return t.app.inject({
      method: 'POST',
      url: `/api/upload/${type}`,
      payload,
      headers: { 'content-type': contentType, ...(token ? bearer(token) : {}) },
    });
  };
  const file = (name: string, filename: string, type: string, content: Uint8Array): Part => ({
    name,
    filename,
    type,
    content,
  });
  const company = (value = '5'): Part => ({ name: 'companyId', value });

  describe('POST /api/upload/:type', () => {
    it('stores an image and serves it back with its type, inline, under a generated name', async () => {
      const response = await upload('image', [
        company(),
        file('image', '../../holiday photo.png', 'image/png', png),
      ]);
      expect(response.statusCode).toBe(201);
      const { data } = envelope(uploadedFileSchema).parse(response.json());
      expect(data).toMatchObject({ contentType: 'image/png', size: png.length });
      expect(data.fileUrl).toMatch(/^\/api\/files\/[A-Za-z0-9_-]{22}$/);
      const served = await t.app.inject({ method: 'GET', url: data.fileUrl });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['content-disposition']).toBe(
        `inline; filename="holiday photo.png"; filename*=UTF-8''holiday%20photo.png`,
      );
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(new Uint8Array(served.rawPayload)).toEqual(png);
    });

    it('takes the companyId after the file too, and documents from agents, served as downloads', async () => {
      const response = await upload(
        'document',
        [file('document', 'terms.pdf', 'application/pdf', pdf), company()],
        agent,
      );
      expect(response.statusCode).toBe(201);
      const served = await t.app.inject({ method: 'GET', url: response.json().data.fileUrl });
      expect(served.headers['content-type']).toBe('application/pdf');
      expect(served.headers['content-disposition']).toMatch(/^attachment; filename="terms.pdf"/);
    });

    it('trusts the bytes, not the name or the part header: a PNG named .pdf is no document (415)', async () => {
      const response = await upload('document', [
        company(),
        file('document', 'invoice.pdf', 'application/pdf', png),
      ]);
      expect(response.statusCode).toBe(415);
      expect(response.json().error).toMatchObject({
        code: 'unsupported_file',
        fields: { document: expect.any(String) },
      });
    });

    it('refuses a file over the limit of its type (413)', async () => {
      const big = new Uint8Array(UPLOAD_LIMIT_BYTES.image + 1);
      big.set(png);
      const response = await upload('image', [
        company(),
        file('image', 'big.png', 'image/png', big),
      ]);
      expect(response.statusCode).toBe(413);
      expect(response.json().error).toMatchObject({
        code: 'file_too_large',
        message: 'A image may be at most 10 MB.',
      });
    });

    it('refuses a second file (413)', async () => {
      const image = file('image', 'a.png', 'image/png', png);
      const response = await upload('image', [company(), image, image]);
      expect(response.statusCode).toBe(413);
      expect(response.json().error.code).toBe('too_many_files');
    });

    it.each([
      ['no file', [company()], 'image'],
      [
        'the file under another field',
        [company(), file('photo', 'a.png', 'image/png', png)],
        'photo',
      ],
      ['no company', [file('image', 'a.png', 'image/png', png)], 'companyId'],
      [
        'a company that is no id',
        [company('five'), file('image', 'a.png', 'image/png', png)],
        'companyId',
      ],
    ] as const)('refuses %s with 400 naming the field', async (_name, parts, field) => {
      const response = await upload('image', [...parts]);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty(field);
    });

    it('refuses an unknown type (400) and a body that is not multipart (415)', async () => {
      expect((await upload('spreadsheet', [company()])).json().error.fields).toHaveProperty('type');
      const json = await t.app.inject({
        method: 'POST',
        url: '/api/upload/image',
        body: { companyId: 5 },
        headers: bearer(guest.token),
      });
      expect(json.statusCode).toBe(415);
      expect(json.json().error.code).toBe('multipart_required');
    });

    it('refuses another company (403) and callers without a token (401)', async () => {
      const other = await upload('image', [
        company('10'),
        file('image', 'a.png', 'image/png', png),
      ]);
      expect(other.statusCode).toBe(403);
      expect(other.json().error.code).toBe('other_company');
      expect(
        (await upload('image', [company(), file('image', 'a.png', 'image/png', png)], null))
          .statusCode,
      ).toBe(401);
    });
  });

  describe('GET /api/files/:id', () => {
    it('answers 404 for an unknown file and 400 for a malformed id', async () => {
      const unknown = await t.app.inject({
        method: 'GET',
        url: '/api/files/AAAAAAAAAAAAAAAAAAAAAA',
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('file_not_found');
      const malformed = await t.app.inject({
        method: 'GET',
        url: '/api/files/..%2F..%2Fetc%2Fpasswd',
      });
      expect(malformed.statusCode).toBe(400);
    });
  });
});
