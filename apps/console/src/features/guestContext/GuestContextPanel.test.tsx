import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { switchLanguage } from '../../i18n/messages.ts';
import type { GuestContext } from '@frontdesk/protocol';
import { answer, fakeApi, refusal, renderWithState, signedIn } from '../../test/render.tsx';
import { GuestContextPanel } from './GuestContextPanel.tsx';

afterEach(async () => {
  cleanup();
  await switchLanguage('en');
});

const GUEST = `g${'b'.repeat(25)}`;
const context: GuestContext = {
  callId: `${GUEST}--c1`,
  guestUsername: GUEST,
  name: 'Grace Hopper',
  answers: [
    { name: 'name', label: 'Your name', value: 'Grace Hopper', verified: true },
    { name: 'topic', label: 'What is it about?', value: 'An existing order', verified: false },
    { name: 'callback', label: 'Call me back', value: true, verified: false },
    { name: 'newsletter', label: 'Send me news', value: false, verified: false },
  ],
  previousCallCount: 12,
  previousCalls: [
    {
      callId: `${GUEST}--c0`,
      at: '2026-02-01T09:00:00.000Z',
      callType: 'voice',
      outcome: 'answered',
      category: 'Billing',
      agent: 'Bo Agent',
      rating: 4,
      notes: 'Refund sent.',
    },
  ],
  location: {
    lat: 51.5074,
    lng: -0.1278,
    accuracy: 35.4,
    at: '2026-03-01T10:00:00.000Z',
    serviceArea: { inside: true, zone: 'Central London' },
  },
  client: { browser: 'Chrome 131', os: 'Android 14', device: 'phone' },
};

function renderPanel(callId: string, api: ReturnType<typeof fakeApi>['api']) {
  return renderWithState(
    <GuestContextPanel callId={callId} guestNick="g12-visitor-abcdef99" />,
    signedIn(),
    { api },
  );
}

describe('the guest’s panel', () => {
  it('shows the name, the answers by label (verified marked), past calls, location and browser', async () => {
    const { api, requests } = fakeApi({
      [`GET /calls/${context.callId}/guest-context`]: answer(context),
    });
    renderPanel(context.callId, api);
    const panel = screen.getByRole('complementary', { name: 'About the guest' });
    expect(await within(panel).findByText('An existing order')).toBeTruthy();
    expect(within(panel).getByTestId('guest-name').textContent).toBe('Grace Hopper · Guest ABCDEF');
    const answers = within(panel).getByTestId('guest-answers');
    expect(within(answers).getAllByTestId('answer-verified')).toHaveLength(1);
    expect(within(answers).getByText('What is it about?')).toBeTruthy();
    const past = within(panel).getByRole('region', { name: 'Previous calls (12)' });
    expect(within(past).getByTestId('past-call').textContent).toContain(
      'Voice call · Billing · answered · with Bo Agent',
    );
    expect(within(past).getByText('Rated 4 out of 5')).toBeTruthy();
    expect(within(past).getByTestId('past-call-notes').textContent).toContain('Refund sent.');
    expect(
      within(past).getByText('12 earlier calls in all; the latest 1 are listed.'),
    ).toBeTruthy();
    // A tick is said in the console's language, not as the API's English.
    const tick = (label: string) =>
      within(answers).getByText(label).nextElementSibling?.textContent;
    expect(tick('Call me back')).toBe('Yes');
    expect(tick('Send me news')).toBe('No');
    const location = within(panel).getByTestId('guest-location');
    expect(within(location).getByTestId('guest-service-area').textContent).toBe(
      'In the service area: Central London',
    );
    expect(location.textContent).toContain('Accurate to about 35 metres');
    const map = within(location).getByRole('link', { name: 'Open the map' });
    expect(map.getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=51.5074&mlon=-0.1278#map=16/51.5074/-0.1278',
    );
    expect(map.getAttribute('target')).toBe('_blank');
    expect(map.getAttribute('rel')).toContain('noopener');
    expect(location.textContent).toContain('Coordinates: 51.50740, -0.12780');
    expect(within(panel).getByTestId('guest-client').textContent).toContain(
      'Chrome 131 on Android 14 · phone',
    );
    expect(requests).toHaveLength(1);
  });

  it('says so when the guest has no answers nor earlier calls, and hides unknown places', async () => {
    const callId = `${GUEST}--c2`;
    const { api } = fakeApi({
      [`GET /calls/${callId}/guest-context`]: answer({
        ...context,
        callId,
        name: null,
        answers: [],
        previousCallCount: 0,
        previousCalls: [],
        location: null,
        client: null,
      }),
    });
    renderPanel(callId, api);
    expect(await screen.findByText('This is the guest’s first call.')).toBeTruthy();
    expect(screen.getByText('The guest did not fill in a welcome form.')).toBeTruthy();
    expect(screen.getByTestId('guest-name').textContent).toBe('Guest ABCDEF');
    expect(screen.queryByTestId('guest-location')).toBeNull();
    expect(screen.getByTestId('guest-client').textContent).toContain('Not known');
  });

  it('says ticks, the service area and the accuracy in Arabic, and a position outside it', async () => {
    await switchLanguage('ar');
    const callId = `${GUEST}--c4`;
    const { api } = fakeApi({
      [`GET /calls/${callId}/guest-context`]: answer({
        ...context,
        callId,
        location: { ...context.location, accuracy: 2, serviceArea: { inside: false, zone: null } },
      }),
    });
    renderPanel(callId, api);
    const answers = await screen.findByTestId('guest-answers');
    expect(within(answers).getByText('Call me back').nextElementSibling?.textContent).toBe('نعم');
    expect(within(answers).getByText('Send me news').nextElementSibling?.textContent).toBe('لا');
    const location = screen.getByTestId('guest-location');
    expect(within(location).getByTestId('guest-service-area').textContent).toBe(
      'خارج منطقة الخدمة',
    );
    expect(location.textContent).toContain('بدقة مترين تقريبًا');
    expect(within(location).getByRole('link', { name: 'افتح الخريطة' })).toBeTruthy();
  });

  it('tells a failure and asks again on Try again', async () => {
    const callId = `${GUEST}--c3`;
    const { api, requests } = fakeApi({
      [`GET /calls/${callId}/guest-context`]: refusal(404, 'call_not_found', 'There is no call.'),
    });
    renderPanel(callId, api);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The guest’s details could not be loaded');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('alert');
    expect(requests).toHaveLength(2);
  });
});
