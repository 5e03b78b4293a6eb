import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  categorySchema,
  previewStageSchema,
  type CompanyDetails,
  type PreviewMessage,
} from '@frontdesk/protocol';
import { company } from '../test/render.tsx';
import { LivePreview } from './LivePreview.tsx';
import { previewServices } from './previewServices.ts';

/** A draft as an admin might be editing it: its own look, texts and forms. */
const draft = (overrides: Partial<CompanyDetails> = {}) =>
  company({
    name: 'Acme Draft',
    textColor: '#123456',
    backgroundColor: '#fafaf0',
    categoryBackgroundColor: '#7a1f5c',
    fontFamily: 'Georgia, serif',
    welcomeMsg: 'Draft welcome text',
    waitingMsg: 'Draft waiting text',
    outOfHoursMsg: 'Draft closed text',
    outOfZoneMsg: 'Draft zone text',
    holdPageText: 'Draft hold text',
    ratingPageMsg: 'Draft rating question',
    ratingThanksMsg: 'Draft thanks',
    recordAlertText: 'Draft recording notice',
    categories: [
      { id: 1, name: 'Billing', roomName: 'billing', averageWaitMs: 90_000 },
      { id: 2, name: 'Repairs', roomName: 'repairs', averageWaitMs: 60_000 },
    ].map((category) => categorySchema.parse(category)),
    welcomeForm: {
      id: 3,
      title: 'About you',
      fields: [
        {
          name: 'fullName',
          label: 'Draft name field',
          type: 'text',
          required: true,
          maxLength: 80,
        },
      ],
    },
    welcomeFormTitle: null,
    ...overrides,
  });

const origin = window.location.origin;

/** A message as the console's frame would send it; `from` changes who seems to send it. */
function send(data: unknown, from: { origin?: string; source?: Window | null } = {}) {
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin: from.origin ?? origin,
        // In a test the page is not framed: its parent is itself.
        source: from.source === undefined ? window.parent : from.source,
      }),
    );
  });
}

const preview = (
  stage: string,
  extra: Record<string, unknown> = {},
  details: object = draft(),
) => ({
  type: 'frontdesk:preview',
  company: details,
  stage,
  ...extra,
});

let services: ReturnType<typeof previewServices>;
let posted: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  services = previewServices();
  // The console would hear these; in a test the page's parent is itself.
  posted = vi.spyOn(window.parent, 'postMessage').mockImplementation(() => undefined);
  render(<LivePreview services={services.services} />);
});
afterEach(() => {
  cleanup();
  posted.mockRestore();
  // Nothing of the guest's own flow ran: no sign-in, no camera, no location, no API call.
  expect(services.reached).toEqual([]);
});

const page = () => screen.getByTestId('guest-page');

describe('the live preview', () => {
  it('says it listens, to our own origin only, and again after each draft it shows', () => {
    const ready: PreviewMessage = { type: 'frontdesk:preview-ready' };
    expect(posted).toHaveBeenLastCalledWith(ready, origin);
    const before = posted.mock.calls.length;
    send(preview('selection'));
    expect(posted.mock.calls.length).toBeGreaterThan(before);
    expect(posted).toHaveBeenLastCalledWith(ready, origin);
  });

  it('shows the draft at the stage it names, in the draft’s look', () => {
    send(preview('selection'));
    expect(page().dataset.stage).toBe('selection');
    expect(screen.getByText('Draft welcome text')).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Billing' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Repairs' })).toBeTruthy();
    expect(screen.getByText('Acme Draft')).toBeTruthy();
    const root = document.documentElement;
    expect(root.style.getPropertyValue('--fd-text')).toBe('#123456');
    expect(root.style.getPropertyValue('--fd-page-bg')).toBe('#fafaf0');
    expect(root.style.getPropertyValue('--fd-category-bg')).toBe('#7a1f5c');
    expect(root.style.getPropertyValue('--fd-font')).toBe('Georgia');
    expect(root.dir).toBe('ltr');
  });

  it('follows each new draft at once: texts, stage, language and direction', () => {
    send(preview('selection'));
    send(
      preview(
        'schedule',
        {},
        draft({
          outOfHoursMsg: 'مغلق الآن',
          language: 'ar',
          pageDirection: 'rtl',
          textColor: null,
        }),
      ),
    );
    expect(page().dataset.stage).toBe('schedule');
    expect(screen.getByText('مغلق الآن')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'نحن مغلقون الآن' })).toBeTruthy();
    expect(screen.queryByText('Draft welcome text')).toBeNull();
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    // A colour the draft no longer sets falls back to the app's own.
    expect(document.documentElement.style.getPropertyValue('--fd-text')).toBe('');
  });

  it('waits second in the queue, with the estimate of the draft’s first category', async () => {
    send(preview('waiting'));
    expect(await screen.findByText('Draft waiting text')).toBeTruthy();
    expect(screen.getByTestId('queue-position').dataset.position).toBe('2');
    // Two places at the category's 1.5 minutes each.
    expect(screen.getByText(/3 min/)).toBeTruthy();
  });

  it('shows the call with the chat closed, and its hold page when asked', async () => {
    send(preview('ongoing'));
    const call = await screen.findByTestId('stage-ongoing');
    expect(within(call).getByTestId('remote-video')).toBeTruthy();
    expect(within(call).getByTestId('local-video')).toBeTruthy();
    expect(within(call).getByText(/Draft recording notice/)).toBeTruthy();
    expect(screen.getByTestId('chat-toggle').getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('hold-page')).toBeNull();

    send(preview('ongoing', { screen: 'hold' }));
    expect(
      within(await screen.findByTestId('hold-page')).getByText('Draft hold text'),
    ).toBeTruthy();
  });

  it('shows the rating in the draft’s style, and the thanks when asked', async () => {
    send(preview('rating', {}, draft({ ratingStyle: 'emojies' })));
    expect(await screen.findByRole('heading', { name: 'Draft rating question' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '5 / 5' }).closest('.rating')?.className).toContain(
      'rating-emojies',
    );
    send(preview('rating', { screen: 'thanks' }));
    expect(await screen.findByRole('heading', { name: 'Draft thanks' })).toBeTruthy();
  });

  it('shows the camera check without asking for a camera', () => {
    send(preview('preview'));
    expect(screen.getByTestId('preview-video')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Camera' })).toBeTruthy();
    expect(screen.getByTestId('connection-test').textContent).toBe('Your connection works.');
  });

  it.each(previewStageSchema.options)('renders stage %s', async (stage) => {
    send(preview(stage));
    expect(page().dataset.stage).toBe(stage);
    expect(await screen.findByTestId(`stage-${stage}`)).toBeTruthy();
  });

  it('keeps the draft out of reach: nothing in it takes clicks or the focus', () => {
    send(preview('welcome'));
    expect(screen.getByTestId('live-preview').hasAttribute('inert')).toBe(true);
    expect(screen.getByText('Draft name field')).toBeTruthy();
  });
});

describe('the live preview refuses', () => {
  it('messages from another origin', () => {
    send(preview('selection'), { origin: 'https://evil.example' });
    expect(page().dataset.stage).toBe('loading');
    expect(document.body.textContent).not.toContain('Draft welcome text');
  });

  it('messages from another window than the one framing it', () => {
    const other = document.createElement('iframe');
    document.body.append(other);
    send(preview('selection'), { source: other.contentWindow });
    send(preview('selection'), { source: null });
    other.remove();
    expect(page().dataset.stage).toBe('loading');
  });

  it('messages the contract does not describe', () => {
    for (const bad of [
      preview('loading'),
      preview('nowhere'),
      preview('waiting', { screen: 'hold' }),
      preview('selection', {}, { ...draft(), textColor: 'red; background: url(x)' }),
      { type: 'frontdesk:preview', stage: 'selection' },
      { type: 'frontdesk:preview-ready' },
      'frontdesk:preview',
      null,
    ]) {
      send(bad);
    }
    expect(page().dataset.stage).toBe('loading');
  });

  it('a bad message after a good one, keeping what it shows', () => {
    send(preview('selection'));
    send(preview('selection', {}, { ...draft(), welcomeMsg: 42 }));
    expect(screen.getByText('Draft welcome text')).toBeTruthy();
  });
});
