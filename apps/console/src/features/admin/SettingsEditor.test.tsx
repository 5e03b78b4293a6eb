import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompanyDetails, PreviewRequest } from '@frontdesk/protocol';
import {
  answer,
  clockCompany,
  fakeApi,
  refusal,
  renderRoute,
  signedIn,
  zoeLogin,
  type FakeAnswer,
} from '../../test/render.tsx';

afterEach(cleanup);

const company = (changes: Partial<CompanyDetails> = {}) => ({ ...clockCompany, ...changes });

async function openSettings(path: string, answers: Record<string, FakeAnswer>) {
  const table: Record<string, FakeAnswer> = { 'GET /company/12': answer(company()), ...answers };
  const server = fakeApi(table);
  const rendered = renderRoute(path, signedIn(zoeLogin), { api: server.api });
  // The admin pages load lazily: on a busy machine that takes more than findBy's default second.
  await screen.findByRole('form', { name: 'Company settings' }, { timeout: 10_000 });
  return { calls: server.requests, answers: table, ...rendered };
}

/** The preview frame says it listens, as apps/guest/preview.html does once loaded. */
function previewReady() {
  const frame = screen.getByTitle<HTMLIFrameElement>('Preview of the guest page');
  const target = frame.contentWindow;
  if (!target) throw new Error('the preview frame has no window');
  const posted = vi.spyOn(target, 'postMessage');
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'frontdesk:preview-ready' },
        origin: window.location.origin,
        source: target,
      }),
    );
  });
  return posted;
}

const lastPreview = (posted: ReturnType<typeof vi.spyOn>) =>
  posted.mock.calls.at(-1)?.[0] as PreviewRequest | undefined;

const type = (label: string, value: string) => {
  const box = screen.getByLabelText(label);
  fireEvent.change(box, { target: { value } });
  fireEvent.blur(box);
};

describe('the admin area', () => {
  it('tells an agent it is for admins only, and asks the API nothing', async () => {
    const server = fakeApi({});
    renderRoute('/console/admin/brand', signedIn(), { api: server.api });
    expect(
      await screen.findByRole('heading', { name: 'Admins only' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Company settings' })).toBeNull();
    expect(server.requests).toEqual([]);
  });

  it('opens at the brand group and names each group as a link', async () => {
    const { router } = await openSettings('/console/admin', {});
    expect(router.state.location.pathname).toBe('/console/admin/brand');
    const nav = screen.getByRole('navigation', { name: 'Settings' });
    expect(within(nav).getByRole('link', { name: 'Brand' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Company name').value).toBe(
      'Frontdesk Around the Clock',
    );
  });

  it('sends the draft to the preview on each change, before anything is saved', async () => {
    const { calls } = await openSettings('/console/admin/pages', {});
    const posted = previewReady();
    await waitFor(() => expect(lastPreview(posted)?.stage).toBe('welcome'));
    expect(posted.mock.calls.at(-1)?.[1]).toBe(window.location.origin);

    type('Welcome message', 'Hello from the clock');
    await waitFor(() =>
      expect(lastPreview(posted)?.company.welcomeMsg).toBe('Hello from the clock'),
    );

    fireEvent.click(screen.getByRole('link', { name: 'Brand' }));
    type('Button colour', '#aa3300');
    await waitFor(() =>
      expect(lastPreview(posted)?.company.categoryBackgroundColor).toBe('#aa3300'),
    );
    // Moving between groups keeps the draft: both changes are still there.
    expect(lastPreview(posted)?.company.welcomeMsg).toBe('Hello from the clock');

    fireEvent.change(screen.getByLabelText('Page'), { target: { value: 'rating:thanks' } });
    await waitFor(() => expect(lastPreview(posted)?.screen).toBe('thanks'));
    expect(lastPreview(posted)?.stage).toBe('rating');
    fireEvent.click(screen.getByRole('button', { name: 'RTL' }));
    await waitFor(() => expect(lastPreview(posted)?.company.pageDirection).toBe('rtl'));

    expect(calls.map((call) => call.route)).toEqual(['GET /company/12']);
  });

  it('shows the API’s rule at a field typed wrong, and keeps it out of the preview', async () => {
    await openSettings('/console/admin/brand', {});
    const posted = previewReady();
    type('Background colour', '#12');
    const box = screen.getByLabelText('Background colour');
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    const described = box.getAttribute('aria-describedby')?.split(' ') ?? [];
    const messages = described.map((id) => document.getElementById(id)?.textContent);
    expect(messages).toContain('must be a colour like #1a2b3c');
    await waitFor(() => expect(lastPreview(posted)).toBeDefined());
    expect(lastPreview(posted)?.company.backgroundColor).toBe(clockCompany.backgroundColor);
  });

  it('saves only the changed fields with If-Match, says what changed, and undoes it', async () => {
    const { calls, answers } = await openSettings('/console/admin/call', {
      'PATCH /company/12': answer(company({ version: 2, ratingStyle: 'emojies' })),
    });
    fireEvent.change(screen.getByLabelText('Rating style'), { target: { value: 'emojies' } });
    expect(screen.getByTestId('unsaved-count').textContent).toBe('1 unsaved change');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const summary = await screen.findByTestId('save-summary');
    expect(summary.textContent).toContain('Saved: 1 change');
    expect(summary.textContent).toContain('Rating style Stars → Emojis');
    expect(calls.at(-1)).toEqual({
      route: 'PATCH /company/12',
      body: { ratingStyle: 'emojies' },
      ifMatch: 1,
    });
    expect(screen.getByTestId('unsaved-count').textContent).toBe('All changes saved');

    answers['PATCH /company/12'] = answer(company({ version: 3, ratingStyle: 'stars' }));
    fireEvent.click(within(summary).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undone: the settings are as they were.')).toBeTruthy();
    expect(calls.at(-1)).toEqual({
      route: 'PATCH /company/12',
      body: { ratingStyle: 'stars' },
      ifMatch: 2,
    });
    expect(screen.getByLabelText<HTMLSelectElement>('Rating style').value).toBe('stars');
  });

  it('warns beside the call method, as the admin edits, when recording keeps calls off peer to peer', async () => {
    await openSettings('/console/admin/call', {});
    const method = screen.getByLabelText<HTMLSelectElement>('Call method');
    const caveatId = method.getAttribute('aria-describedby')?.split(' ').at(-1) ?? '';
    const caveat = document.getElementById(caveatId);
    expect(caveat?.getAttribute('role')).toBe('status');
    // The company's calls go through the media server and are recorded: nothing to warn of.
    expect(caveat?.textContent).toBe('');

    fireEvent.change(method, { target: { value: 'p2p' } });
    expect(caveat?.textContent).toBe(
      'Every call is recorded, so every call goes through the media server and none goes peer to peer. For peer-to-peer calls, turn off “Record calls” or turn on “Let guests call without recording”.',
    );
    fireEvent.click(screen.getByLabelText('Let guests call without recording'));
    expect(caveat?.textContent).toBe(
      'Calls are recorded, so they go through the media server. Only the calls a guest chooses not to record go peer to peer.',
    );
    fireEvent.click(screen.getByLabelText('Record calls'));
    expect(caveat?.textContent).toBe('');
    fireEvent.click(screen.getByLabelText('Record calls'));
    fireEvent.change(method, { target: { value: 'mediaServer' } });
    expect(caveat?.textContent).toBe('');
  });

  it('keeps the draft when someone else saved first (412), and reloads theirs under it', async () => {
    const { calls, answers } = await openSettings('/console/admin/pages', {
      'PATCH /company/12': refusal(412, 'stale_version'),
    });
    type('Welcome message', 'Hello');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const stale = await screen.findByTestId('stale-version');
    expect(stale.getAttribute('role')).toBe('alert');
    expect(stale.textContent).toContain('Someone else changed these settings');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Welcome message').value).toBe('Hello');

    answers['GET /company/12'] = answer(company({ version: 5, thanksMsg: 'Theirs' }));
    fireEvent.click(within(stale).getByRole('button', { name: 'Reload the settings' }));
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLTextAreaElement>('Thanks message').value).toBe('Theirs'),
    );
    expect(screen.getByLabelText<HTMLTextAreaElement>('Welcome message').value).toBe('Hello');

    answers['PATCH /company/12'] = answer(company({ version: 6, welcomeMsg: 'Hello' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByTestId('save-summary');
    expect(calls.at(-1)).toEqual({
      route: 'PATCH /company/12',
      body: { welcomeMsg: 'Hello' },
      ifMatch: 5,
    });
  });

  it('puts the API’s refusal of a field at that field', async () => {
    await openSettings('/console/admin/website', {
      'GET /company/12/allowed-origins': answer({ allowedOrigins: [] }),
      'PATCH /company/12': {
        refuse: new (await import('@frontdesk/protocol')).ApiRequestError(
          400,
          'invalid_request',
          'websiteUrl must be an https: URL',
          { websiteUrl: 'must be an uploaded file (/api/files/…) or an https: URL' },
        ),
      },
    });
    type('Your website', 'https://shop.example');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/^The changes could not be saved/)).toBeTruthy();
    const box = screen.getByLabelText('Your website');
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
  });

  it('saves the sites that may frame the guest page on their own, then takes the new version', async () => {
    const { calls, answers } = await openSettings('/console/admin/website', {
      'GET /company/12/allowed-origins': answer({ allowedOrigins: [] }),
      'PUT /company/12/allowed-origins': answer({ allowedOrigins: ['https://shop.example'] }),
    });
    type('Website name', 'Our shop');
    const origins = await screen.findByLabelText('Sites that may show the guest page in a frame');
    fireEvent.change(origins, { target: { value: 'https://shop.example/path' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the sites' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Line 1: must be an origin');

    fireEvent.change(origins, { target: { value: 'https://shop.example\n' } });
    answers['GET /company/12'] = answer(
      company({ version: 2, allowedOrigins: ['https://shop.example'] }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save the sites' }));
    expect(await screen.findByText('The sites are saved.')).toBeTruthy();
    expect(calls.find((call) => call.route.startsWith('PUT'))).toEqual({
      route: 'PUT /company/12/allowed-origins',
      body: { allowedOrigins: ['https://shop.example'] },
      ifMatch: 1,
    });
    // The settings' next save names the version the origins made; the typed name is kept.
    await waitFor(() => expect(calls.at(-1)?.route).toBe('GET /company/12'));
    expect(screen.getByLabelText<HTMLInputElement>('Website name').value).toBe('Our shop');
    answers['PATCH /company/12'] = answer(company({ version: 3, websiteTitle: 'Our shop' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByTestId('save-summary');
    expect(calls.at(-1)).toMatchObject({ route: 'PATCH /company/12', ifMatch: 2 });
  });

  it('asks before leaving with unsaved changes, and not between groups', async () => {
    const { router } = await openSettings('/console/admin/brand', {});
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    type('Company name', 'Clockwork');
    expect(unload()).toBe(true);

    fireEvent.click(screen.getByRole('link', { name: 'Pages and texts' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/console/admin/pages'));
    expect(screen.queryByRole('alertdialog')).toBeNull();

    fireEvent.click(screen.getByRole('link', { name: 'Back to the console' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Stay' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/console/admin/pages');
    expect(screen.getByTestId('unsaved-count').textContent).toBe('1 unsaved change');

    fireEvent.click(screen.getByRole('link', { name: 'Back to the console' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }),
    );
    expect(await screen.findByTestId('workspace')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/console/queue');
  });
});
