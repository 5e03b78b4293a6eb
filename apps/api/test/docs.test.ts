import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('documents every REST route from its schemas at /api/docs/json', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths).sort()).toEqual([
      '/api/admin/doctor',
      '/api/auth/janus-token',
      '/api/auth/login',
      '/api/auth/logout',
      '/api/auth/password',
      '/api/auth/refresh',
      '/api/call-bug/by-guest',
      '/api/call-report/add',
      '/api/call-report/admission',
      '/api/call-report/hold-call',
      '/api/call-report/update',
      '/api/call-report/update-timestamp',
      '/api/calls',
      '/api/calls/claim',
      '/api/calls/{callId}',
      '/api/calls/{callId}/end',
      '/api/calls/{callId}/guest-context',
      '/api/calls/{callId}/hold',
      '/api/calls/{callId}/ice',
      '/api/calls/{callId}/notes',
      '/api/calls/{callId}/quality',
      '/api/calls/{callId}/rejoin',
      '/api/calls/{callId}/resume',
      '/api/calls/{callId}/room',
      '/api/calls/{callId}/transfer',
      '/api/calls/{callId}/wrap-up',
      '/api/company/{id}',
      '/api/company/{id}/allowed-origins',
      '/api/company/{id}/audit',
      '/api/company/{id}/blocks',
      '/api/company/{id}/blocks/{blockId}',
      '/api/company/{id}/canned-replies',
      '/api/company/{id}/canned-replies/{replyId}',
      '/api/company/{id}/categories',
      '/api/company/{id}/categories/order',
      '/api/company/{id}/categories/{categoryId}',
      '/api/company/{id}/embed-secret',
      '/api/company/{id}/forms/{kind}',
      '/api/company/{id}/geofence',
      '/api/company/{id}/geofence/check-point',
      '/api/company/{id}/guests',
      '/api/company/{id}/guests/{guestId}',
      '/api/company/{id}/guests/{guestId}/export',
      '/api/company/{id}/outcome-codes',
      '/api/company/{id}/quota',
      '/api/company/{id}/retention',
      '/api/company/{id}/retention/runs',
      '/api/company/{id}/schedule',
      '/api/company/{id}/staff',
      '/api/company/{id}/staff/{staffId}',
      '/api/company/{id}/staff/{staffId}/password-reset',
      '/api/config',
      '/api/embed/{id}',
      '/api/files/{id}',
      '/api/form-submission',
      '/api/form-submission/get-submission',
      '/api/geo-fence/check',
      '/api/guest-auth/guestDetails',
      '/api/guest-auth/login',
      '/api/guest-auth/register',
      '/api/health',
      '/api/monitoring',
      '/api/operator/companies',
      '/api/operator/login',
      '/api/operator/logout',
      '/api/rating-form/submissions',
      '/api/reports/calls',
      '/api/reports/calls/{callId}',
      '/api/reports/recordings/{callId}',
      '/api/reports/summary',
      '/api/reports/supervisor',
      '/api/reports/wallboard',
      '/api/staff',
      '/api/staff/me/availability',
      '/api/upload/{type}',
    ]);
    const register = document.paths['/api/guest-auth/register'].post;
    expect(register.requestBody.content['application/json'].schema.required).toEqual([
      'username',
      'companyId',
    ]);
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(['201', '400', '404']));
    expect(document.paths['/api/call-report/add'].post.security).toEqual([{ bearerAuth: [] }]);
  });

  it('serves the interactive page at /api/docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });
});
