import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError } from '@frontdesk/protocol';
import { adminApi } from '../../../test/adminApi.ts';
import { staffEntry } from '../../../test/staffEntry.ts';
import {
  answer,
  clockCompany,
  refusal,
  renderRoute,
  signedIn,
  zoeLogin,
  type FakeAnswer,
} from '../../../test/render.tsx';

afterEach(cleanup);

const member = staffEntry;
const zoe = member({ id: 9, email: 'zoe@frontdesk.demo', name: 'Zoe Admin', role: 'admin' });
const ada = member({});
const categories = [
  {
    id: 40,
    name: 'General',
    roomName: 'clock-general',
    position: 0,
    textColor: null,
    backgroundColor: null,
    agentIds: [1],
  },
  {
    id: 41,
    name: 'Billing',
    roomName: 'clock-billing',
    position: 1,
    textColor: null,
    backgroundColor: null,
    agentIds: [],
  },
];

async function openStaff(answers: Record<string, FakeAnswer> = {}) {
  const server = adminApi({
    'GET /company/12': answer(clockCompany),
    'GET /company/12/staff': answer([zoe, ada]),
    'GET /company/12/categories': answer(categories),
    ...answers,
  });
  renderRoute('/console/admin/staff', signedIn(zoeLogin), { api: server.api });
  await screen.findByRole('table');
  return server;
}

const row = (name: string) => {
  const found = screen
    .getAllByTestId('staff-row')
    .find((candidate) => within(candidate).queryByText(name));
  if (!found) throw new Error(`no row for ${name}`);
  return found;
};

describe('the team page', () => {
  it('lists every member with role, status and categories, the admin marked as themselves', async () => {
    await openStaff();
    expect(screen.getByRole('heading', { name: 'Team' })).toBeTruthy();
    expect(within(row('Ada Agent')).getByText('ada@frontdesk.demo')).toBeTruthy();
    expect(within(row('Ada Agent')).getByText('General')).toBeTruthy();
    expect(within(row('Ada Agent')).getByText('Active')).toBeTruthy();
    expect(within(row('Zoe Admin')).getByText('you')).toBeTruthy();
    expect(within(row('Zoe Admin')).getByText('Admin')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Settings' });
    expect(within(nav).getByRole('link', { name: 'Team' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('invites a member with If-Match and shows the one-time password once, to hand over', async () => {
    const server = await openStaff({
      'POST /company/12/staff': answer({
        member: member({
          id: 30,
          email: 'eve@example.org',
          name: 'Eve New',
          oneTimePasswordExpiresAt: '2099-01-01T00:00:00.000Z',
        }),
        oneTimePassword: 'Wq7-pass-Zk2m-41xy',
        expiresAt: '2099-01-01T00:00:00.000Z',
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Invite a member' }));
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'Eve@Example.org' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Eve New' } });
    server.answers['GET /company/12'] = answer({ ...clockCompany, version: 2 });
    fireEvent.click(screen.getByRole('button', { name: 'Create the invitation' }));

    const notice = await screen.findByTestId('one-time');
    expect(within(notice).getByTestId('one-time-password').textContent).toBe('Wq7-pass-Zk2m-41xy');
    expect(notice.textContent).toContain('It works once');
    expect(notice.textContent).toContain('It is shown only now');
    expect(within(notice).getByRole('button', { name: 'Copy the password' })).toBeTruthy();
    // The notice takes the focus, so the admin (and a screen reader) lands on it — once the
    // dialog has opened (Radix moves the focus after it mounts; a loaded machine shows the gap).
    const heading = within(notice).getByRole('heading', { name: 'One-time password for Eve New' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(server.writes()).toEqual([
      {
        route: 'POST /company/12/staff',
        body: { email: 'eve@example.org', name: 'Eve New', role: 'agent' },
        ifMatch: 1,
      },
    ]);

    fireEvent.click(within(notice).getByRole('button', { name: 'Done: I have handed it over' }));
    expect(screen.queryByTestId('one-time')).toBeNull();
    expect(screen.queryByText('Wq7-pass-Zk2m-41xy')).toBeNull();
  });

  it('checks an invitation before sending it, and shows the API’s refusal at its field', async () => {
    const server = await openStaff({
      'POST /company/12/staff': {
        refuse: new ApiRequestError(
          409,
          'email_taken',
          'This e-mail already signs someone in: choose another.',
          {
            email: 'already signs someone in',
          },
        ),
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Invite a member' }));
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'not an address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create the invitation' }));
    await waitFor(() =>
      expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(server.writes()).toEqual([]);

    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'cy@frontdesk.demo' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Cy Again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create the invitation' }));
    expect(await screen.findByText('already signs someone in')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This e-mail already signs someone in',
    );
  });

  it('asks before deactivating, says the member is signed out, then sends PATCH active:false', async () => {
    const server = await openStaff({
      'PATCH /company/12/staff/1': answer(member({ active: false })),
    });
    const deactivate = within(row('Ada Agent')).getByRole('button', {
      name: 'Deactivate Ada Agent',
    });
    // As a keyboard user would: the button has the focus, and gets it back.
    deactivate.focus();
    fireEvent.click(deactivate);
    let dialog = screen.getByRole('alertdialog', { name: 'Deactivate Ada Agent?' });
    expect(dialog.textContent).toContain('signed out within a minute');
    // Cancelling is the safe answer: it has the focus, and sends nothing.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // The dialog gives the focus back as its focus scope unmounts, a task later.
    await waitFor(() => expect(document.activeElement).toBe(deactivate));
    expect(server.writes()).toEqual([]);

    fireEvent.click(deactivate);
    dialog = screen.getByRole('alertdialog', { name: 'Deactivate Ada Agent?' });
    server.answers['GET /company/12/staff'] = answer([zoe, member({ active: false })]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe(
      'Ada Agent is deactivated and is being signed out.',
    );
    expect(server.writes()).toEqual([
      { route: 'PATCH /company/12/staff/1', body: { active: false }, ifMatch: 1 },
    ]);
    expect(within(row('Ada Agent')).getByText('Deactivated')).toBeTruthy();
    expect(
      within(row('Ada Agent')).getByRole('button', { name: 'Reactivate Ada Agent' }),
    ).toBeTruthy();
  });

  it('tells clearly why the last admin cannot be deactivated (409)', async () => {
    await openStaff({
      'PATCH /company/12/staff/9': {
        refuse: new ApiRequestError(
          409,
          'last_admin',
          'This is the last active admin of the company: make another member admin first, so someone can still manage it.',
          { active: 'would leave the company without an active admin' },
        ),
      },
    });
    fireEvent.click(within(row('Zoe Admin')).getByRole('button', { name: 'Deactivate Zoe Admin' }));
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This is the last active admin of the company');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(within(row('Zoe Admin')).getByText('Active')).toBeTruthy();
  });

  it('edits name, role and categories, sending only what changed; a 412 keeps the edit and reloads', async () => {
    const server = await openStaff({ 'PATCH /company/12/staff/1': refusal(412, 'stale_version') });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Ada Agent' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Ada Agent' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Name'));
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'admin' } });
    fireEvent.click(within(dialog).getByLabelText('Billing'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    const stale = await within(dialog).findByTestId('stale-version');
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Role').value).toBe('admin');
    server.answers['GET /company/12'] = answer({ ...clockCompany, version: 4 });
    const companyLoads = () => server.sent.filter((sent) => sent.route === 'GET /company/12');
    const loadsBefore = companyLoads().length;
    fireEvent.click(within(stale).getByRole('button', { name: 'Reload the settings' }));
    await waitFor(() => expect(companyLoads()).toHaveLength(loadsBefore + 1));

    server.answers['PATCH /company/12/staff/1'] = answer(
      member({ role: 'admin', categoryIds: [40, 41] }),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe(
      'The changes to Ada Agent are saved.',
    );
    expect(server.writes().at(-1)).toEqual({
      route: 'PATCH /company/12/staff/1',
      body: { role: 'admin', categoryIds: [40, 41] },
      ifMatch: 4,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends the assignment groups chosen for a member; an unknown one is named in the dialog', async () => {
    const groups = [
      { id: 'es', name: 'Spanish speakers' },
      { id: 'vip', name: 'VIP guests' },
    ];
    const server = await openStaff({
      'GET /company/12': answer({ ...clockCompany, assignments: true, assignmentGroups: groups }),
      'GET /company/12/staff': answer([zoe, member({ assignmentGroupIds: ['es'] })]),
      'PATCH /company/12/staff/1': {
        refuse: new ApiRequestError(400, 'invalid_request', 'invalid request', {
          'assignmentGroupIds.0': 'is not one of the company’s assignment groups',
        }),
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Ada Agent' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Ada Agent' });
    const belongs = within(dialog).getByRole('group', { name: 'Assignment groups they belong to' });
    expect(within(belongs).getByLabelText<HTMLInputElement>('Spanish speakers').checked).toBe(true);
    fireEvent.click(within(belongs).getByLabelText('VIP guests'));
    fireEvent.click(within(belongs).getByLabelText('Spanish speakers'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    expect(
      await within(belongs).findByText('is not one of the company’s assignment groups'),
    ).toBeTruthy();
    expect(server.writes()).toEqual([
      { route: 'PATCH /company/12/staff/1', body: { assignmentGroupIds: ['vip'] }, ifMatch: 1 },
    ]);
  });

  it('says when the company does not use assignment groups, with the way to its call settings', async () => {
    await openStaff();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Ada Agent' }));
    const belongs = within(screen.getByRole('dialog')).getByRole('group', {
      name: 'Assignment groups they belong to',
    });
    expect(belongs.textContent).toContain('Assignment groups are off for this company.');
    expect(within(belongs).getByRole('link', { name: 'Call settings' }).getAttribute('href')).toBe(
      '/console/admin/call',
    );
    expect(within(belongs).queryByRole('checkbox')).toBeNull();
  });

  it('shows an invited member as active once they signed in, when the admin comes back to the page', async () => {
    const invited = member({ oneTimePasswordExpiresAt: '2099-01-01T00:00:00.000Z' });
    const server = await openStaff({ 'GET /company/12/staff': answer([zoe, invited]) });
    expect(within(row('Ada Agent')).getByText(/^Invited/)).toBeTruthy();

    server.answers['GET /company/12/staff'] = answer([zoe, ada]);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(await within(row('Ada Agent')).findByText('Active')).toBeTruthy();

    server.answers['GET /company/12/staff'] = answer([zoe, member({ active: false })]);
    fireEvent.focus(window);
    expect(await within(row('Ada Agent')).findByText('Deactivated')).toBeTruthy();
  });

  it('resets a password after asking, and shows the new one-time password once', async () => {
    const server = await openStaff({
      'POST /company/12/staff/1/password-reset': answer({
        oneTimePassword: 'reset-9f8e7d',
        expiresAt: '2099-01-01T00:00:00.000Z',
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reset the password of Ada Agent' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reset the password' }));
    const notice = await screen.findByTestId('one-time');
    expect(within(notice).getByText('reset-9f8e7d')).toBeTruthy();
    expect(notice.textContent).toContain('New one-time password for Ada Agent');
    expect(server.writes()).toEqual([
      { route: 'POST /company/12/staff/1/password-reset', body: undefined, ifMatch: 1 },
    ]);
  });
});
