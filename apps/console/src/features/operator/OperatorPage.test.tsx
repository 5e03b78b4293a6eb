import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError, type ApiClient, type OperatorCompany } from '@frontdesk/protocol';
import { answer, fakeApi, refusal, renderRoute, type FakeAnswer } from '../../test/render.tsx';

afterEach(cleanup);

const TOKEN = `op_${'a'.repeat(43)}`;
const login = {
  token: TOKEN,
  expiresAt: '2099-01-01T12:00:00.000Z',
  operator: { id: 1, email: 'olga@ops.example', name: 'Olga' },
};
const clock: OperatorCompany = {
  id: 12,
  name: 'Frontdesk Around the Clock',
  activated: true,
  adminEmails: ['zoe@frontdesk.demo'],
  createdAt: '2026-01-05T12:00:00.000Z',
};
const closed: OperatorCompany = {
  id: 9,
  name: 'Always Closed',
  activated: false,
  adminEmails: [],
  createdAt: '2025-12-01T10:00:00.000Z',
};
const acme: OperatorCompany = {
  id: 14,
  name: 'Acme',
  activated: true,
  adminEmails: ['ann@acme.example'],
  createdAt: '2026-02-01T09:00:00.000Z',
};
const acmeCreated = {
  companyId: 14,
  name: 'Acme',
  adminId: 30,
  adminEmail: 'ann@acme.example',
  oneTimePassword: 'K7pQ-one-time-9xYzA1b2C3d',
  expiresAt: '2026-02-08T12:00:00.000Z',
};
const unreachable = refusal(0, 'network', 'The server could not be reached.');

/** The operator's page over a fake API whose answers a test may change as it goes; `tokens` has the token each request carried. */
function openPage(answers: Record<string, FakeAnswer>) {
  const fake = fakeApi(answers);
  const tokens: (string | undefined)[] = [];
  const api: ApiClient = (route, ...options) => {
    tokens.push((options[0] as { token?: string } | undefined)?.token);
    return fake.api(route, ...options);
  };
  renderRoute('/console/operator', {}, { api });
  return { requests: fake.requests, tokens, answers };
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

function signIn(email = 'olga@ops.example', password = 'the-operator-password') {
  type('E-mail', email);
  type('Password', password);
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

/** Signs in and waits for the companies. */
async function signedIn(answers: Record<string, FakeAnswer>) {
  const page = openPage({ 'POST /operator/login': answer(login), ...answers });
  await screen.findByRole('heading', { name: 'Operator sign-in' });
  signIn();
  await screen.findByText('Signed in as Olga (olga@ops.example)');
  return page;
}

function fillNewCompany(values: { name: string; adminEmail: string; adminName?: string }) {
  type('Company name', values.name);
  type('Admin’s e-mail', values.adminEmail);
  if (values.adminName !== undefined) type('Admin’s name (optional)', values.adminName);
  fireEvent.click(screen.getByRole('button', { name: 'Create the company' }));
}

describe('the operator’s sign-in', () => {
  it('is its own page, not the staff sign-in, and signs in with the operator route', async () => {
    const { requests, tokens } = await signedIn({
      'GET /operator/companies': answer([clock, closed]),
    });
    expect(requests[0]).toEqual({
      route: 'POST /operator/login',
      body: { email: 'olga@ops.example', password: 'the-operator-password' },
    });
    await screen.findByText('2 companies, newest first');
    // Every later request carries the operator's token, and only it.
    expect(tokens.slice(1)).toEqual(requests.slice(1).map(() => TOKEN));
  });

  it('says when the password is wrong, or the server is unreachable, and takes the focus', async () => {
    const page = openPage({ 'POST /operator/login': refusal(401, 'invalid_credentials') });
    await screen.findByRole('heading', { name: 'Operator sign-in' });
    signIn('olga@ops.example', 'nope');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The e-mail or the password is wrong.');
    // The focus moves in an effect, which may run just after the alert shows.
    await waitFor(() => expect(document.activeElement).toBe(alert));

    page.answers['POST /operator/login'] = unreachable;
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'The service could not be reached. Check your connection and try again.',
      ),
    );
  });

  it('shows progress while it signs in', async () => {
    openPage({ 'POST /operator/login': answer(login), 'GET /operator/companies': answer([]) });
    await screen.findByRole('heading', { name: 'Operator sign-in' });
    signIn();
    expect(screen.getByRole('button', { name: 'Signing in…' })).toHaveProperty('disabled', true);
    const empty = await screen.findByText('No companies yet.');
    // The shared empty state, with the next step: the form on the same page.
    expect(empty.className).toBe('list-state-title');
    expect(empty.parentElement?.textContent).toContain('Create the first one with “New company”');
  });
});

describe('the companies', () => {
  it('lists each with its id, status, admins and creation date', async () => {
    await signedIn({ 'GET /operator/companies': answer([clock, closed]) });
    const first = await screen.findByRole('listitem', { name: 'Frontdesk Around the Clock' });
    expect(within(first).getByText('12')).toBeTruthy();
    expect(within(first).getByText('Active')).toBeTruthy();
    expect(within(first).getByText('zoe@frontdesk.demo')).toBeTruthy();
    expect(within(first).getByText('5 Jan 2026').getAttribute('datetime')).toBe(clock.createdAt);
    expect(
      within(first).getByRole('link', { name: 'Guest page of Frontdesk Around the Clock' }),
    ).toHaveProperty('href', 'http://localhost:3000/?company=12');
    const second = screen.getByRole('listitem', { name: 'Always Closed' });
    expect(within(second).getByText('Inactive')).toBeTruthy();
    expect(within(second).getByText('No active admin')).toBeTruthy();
  });

  it('says why they could not be loaded, and loads them again on request', async () => {
    const page = await signedIn({ 'GET /operator/companies': unreachable });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The companies could not be loaded: The server could not be reached.',
    );
    page.answers['GET /operator/companies'] = answer([clock]);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('listitem', { name: 'Frontdesk Around the Clock' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('a new company', () => {
  it('shows its admin’s one-time password once, with its expiry and the company’s links', async () => {
    const page = await signedIn({ 'GET /operator/companies': answer([clock]) });
    await screen.findByRole('listitem', { name: 'Frontdesk Around the Clock' });
    page.answers['POST /operator/companies'] = { body: { data: acmeCreated } };
    page.answers['GET /operator/companies'] = answer([acme, clock]);
    fillNewCompany({ name: 'Acme', adminEmail: 'Ann@Acme.example', adminName: ' ' });
    expect(screen.getByRole('button', { name: 'Creating…' })).toHaveProperty('disabled', true);

    const notice = await screen.findByTestId('operator-created');
    const heading = within(notice).getByRole('heading', { name: 'Acme is created (company 14)' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(page.requests.find((r) => r.route === 'POST /operator/companies')?.body).toEqual({
      name: 'Acme',
      adminEmail: 'ann@acme.example',
    });
    expect(within(notice).getByTestId('one-time-password').textContent).toBe(
      acmeCreated.oneTimePassword,
    );
    expect(notice.textContent).toContain('It works once, until 8 Feb 2026');
    expect(notice.textContent).toContain('It is shown only now');
    expect(
      within(notice).getByRole('link', { name: 'http://localhost:3000/?company=14' }),
    ).toBeTruthy();
    expect(
      within(notice).getByRole('link', { name: 'http://localhost:3000/console/' }),
    ).toBeTruthy();
    expect(within(notice).getByRole('button', { name: 'Copy the password' })).toBeTruthy();
    // The list has the new company; the form waits until the password is taken care of.
    await screen.findByRole('listitem', { name: 'Acme' });
    expect(screen.queryByRole('button', { name: 'Create the company' })).toBeNull();

    fireEvent.click(within(notice).getByRole('button', { name: 'Done: I have copied it' }));
    expect(screen.queryByText(acmeCreated.oneTimePassword)).toBeNull();
    expect(document.body.textContent).not.toContain(acmeCreated.oneTimePassword);
    expect((screen.getByLabelText('Company name') as HTMLInputElement).value).toBe('');
  });

  it('shows a taken e-mail at the admin’s e-mail and takes the focus there', async () => {
    const page = await signedIn({ 'GET /operator/companies': answer([clock]) });
    page.answers['POST /operator/companies'] = {
      refuse: new ApiRequestError(
        409,
        'email_taken',
        'zoe@frontdesk.demo already signs in a member of staff (of company 12)',
        { adminEmail: 'already signs someone in (e-mails are unique across the installation)' },
      ),
    };
    fillNewCompany({ name: 'Acme', adminEmail: 'zoe@frontdesk.demo' });
    const field = screen.getByLabelText('Admin’s e-mail');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    await waitFor(() => expect(document.activeElement).toBe(field));
    const describedBy = field.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(
      'already signs someone in (e-mails are unique across the installation)',
    );
    expect(screen.queryByTestId('operator-created')).toBeNull();
    // What was typed stays, to be corrected.
    expect((screen.getByLabelText('Company name') as HTMLInputElement).value).toBe('Acme');
  });

  it('refuses an empty name and a bad e-mail before sending, naming each field', async () => {
    const page = await signedIn({ 'GET /operator/companies': answer([]) });
    fillNewCompany({ name: '  ', adminEmail: 'not-an-e-mail' });
    const name = screen.getByLabelText('Company name');
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('must not be empty')).toBeTruthy();
    expect(screen.getByText('must be an e-mail address')).toBeTruthy();
    expect(page.requests.map((r) => r.route)).not.toContain('POST /operator/companies');
  });

  it('shows the fields the API names in a 400 at those fields, anything else above the button', async () => {
    const page = await signedIn({ 'GET /operator/companies': answer([]) });
    page.answers['POST /operator/companies'] = {
      refuse: new ApiRequestError(400, 'invalid_request', 'Invalid name.', {
        name: 'is reserved',
      }),
    };
    fillNewCompany({ name: 'Frontdesk', adminEmail: 'a@b.example' });
    await screen.findByText('is reserved');
    expect(screen.getByLabelText('Company name').getAttribute('aria-invalid')).toBe('true');

    page.answers['POST /operator/companies'] = unreachable;
    fireEvent.click(screen.getByRole('button', { name: 'Create the company' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The company could not be created: The server could not be reached.',
    );
  });
});

describe('the end of the session', () => {
  it('goes back to the sign-in, saying why, when the token is refused', async () => {
    const page = await signedIn({ 'GET /operator/companies': answer([clock]) });
    await screen.findByRole('listitem', { name: 'Frontdesk Around the Clock' });
    page.answers['POST /operator/companies'] = refusal(401, 'operators_only');
    fillNewCompany({ name: 'Acme', adminEmail: 'ann@acme.example' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your operator session has ended: sign in again.');
    expect(screen.getByRole('heading', { name: 'Operator sign-in' })).toBeTruthy();
    expect(screen.queryByText('Frontdesk Around the Clock')).toBeNull();
  });

  it('goes back to the sign-in when the list is refused', async () => {
    await signedIn({ 'GET /operator/companies': refusal(401, 'operators_only') });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your operator session has ended: sign in again.',
    );
  });

  it('signs out through the API, and says so when the server could not be told', async () => {
    const page = await signedIn({
      'GET /operator/companies': answer([clock]),
      'POST /operator/logout': { body: undefined },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Operator sign-in' });
    expect(page.requests.map((r) => r.route)).toContain('POST /operator/logout');
    expect(screen.queryByRole('alert')).toBeNull();

    page.answers['POST /operator/logout'] = unreachable;
    signIn();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^You are signed out of this page, but the server could not be told \(The server could not be reached\.\): the session ends by itself at 1 Jan 2099/,
    );
  });
});
