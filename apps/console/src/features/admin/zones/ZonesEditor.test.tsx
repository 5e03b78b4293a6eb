import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError, type GeofenceZone } from '@frontdesk/protocol';
import {
  answer,
  clockCompany,
  fakeApi,
  refusal,
  renderRoute,
  signedIn,
  zoeLogin,
  type FakeAnswer,
} from '../../../test/render.tsx';

afterEach(cleanup);

/** The old town of company 12, saved at version 5: a triangle (longitude first, ring closed). */
const oldTown: GeofenceZone = {
  id: 3,
  name: 'Old town',
  area: {
    type: 'Polygon',
    coordinates: [
      [
        [-0.1, 51.5],
        [-0.09, 51.5],
        [-0.095, 51.51],
        [-0.1, 51.5],
      ],
    ],
  },
};

/**
 * The zones page of Zoe, admin of company 12, over a fake API; a test changes its `answers` to
 * answer the next requests otherwise.
 */
async function openZones(zones: GeofenceZone[], more: Record<string, FakeAnswer> = {}) {
  const answers: Record<string, FakeAnswer> = {
    'GET /company/12/geofence': answer(zones),
    'GET /company/12': answer({ ...clockCompany, version: 5, requestLocation: true }),
    ...more,
  };
  const server = fakeApi(answers);
  renderRoute('/console/admin/zones', signedIn(zoeLogin), { api: server.api });
  // The page loads lazily: a busy machine takes its time.
  await screen.findByRole('form', { name: 'Service area' }, { timeout: 10_000 });
  return { ...server, answers };
}

const type = (box: HTMLElement, value: string) => {
  fireEvent.change(box, { target: { value } });
  fireEvent.blur(box);
};

const zone = (name: string) => within(screen.getByRole('group', { name }));

/** Types a corner's latitude and longitude, in the zone named so. */
function typeCorner(zoneName: string, n: number, lat: string, lng: string) {
  const corner = within(zone(zoneName).getByRole('group', { name: `Corner ${n}` }));
  type(corner.getByLabelText('Latitude'), lat);
  type(corner.getByLabelText('Longitude'), lng);
}

describe('the service area editor', () => {
  it('adds a zone of four corners and saves every zone, closed as GeoJSON, against the version it was made from', async () => {
    const harbour: GeofenceZone = {
      id: 8,
      name: 'Harbour',
      area: {
        type: 'Polygon',
        coordinates: [
          [
            [-0.12, 51.49],
            [-0.11, 51.49],
            [-0.11, 51.495],
            [-0.12, 51.495],
            [-0.12, 51.49],
          ],
        ],
      },
    };
    const server = await openZones([oldTown], {
      'PUT /company/12/geofence': answer([{ ...oldTown, id: 7 }, harbour]),
    });
    // Whether guests are checked at all is a setting of the Location page.
    expect(
      within(screen.getByTestId('location-note'))
        .getByRole('link', { name: 'Location settings' })
        .getAttribute('href'),
    ).toBe('/console/admin/location');

    fireEvent.click(screen.getByRole('button', { name: 'Add a zone' }));
    const name = screen.getAllByLabelText('Name')[1];
    expect(document.activeElement).toBe(name);
    type(name as HTMLElement, ' Harbour ');
    fireEvent.click(zone('Zone 2: Harbour').getByRole('button', { name: 'Add a corner' }));
    // The new corner takes the focus, so a keyboard user types it at once.
    expect(document.activeElement).toBe(
      within(zone('Zone 2: Harbour').getByRole('group', { name: 'Corner 4' })).getByLabelText(
        'Latitude',
      ),
    );
    typeCorner('Zone 2: Harbour', 1, '51.49', '-0.12');
    typeCorner('Zone 2: Harbour', 2, '51.49', '-0.11');
    typeCorner('Zone 2: Harbour', 3, '51.495', '-0.11');
    typeCorner('Zone 2: Harbour', 4, '51.495', '-0.12');
    expect(screen.getByTestId('unsaved-count').textContent).toBe('Unsaved changes');
    // The version the save makes.
    server.answers['GET /company/12'] = answer({ ...clockCompany, version: 6 });

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const summary = await screen.findByTestId('save-summary');
    expect(server.requests.find((r) => r.route === 'PUT /company/12/geofence')).toEqual({
      route: 'PUT /company/12/geofence',
      body: {
        zones: [
          { name: 'Old town', area: oldTown.area },
          { name: 'Harbour', area: harbour.area },
        ],
      },
      ifMatch: 5,
    });
    expect(within(summary).getByRole('listitem').textContent).toBe('Harbour no zone → 4 corners');
    expect(screen.getByTestId('unsaved-count').textContent).toBe('All changes saved');
    expect(zone('Zone 2: Harbour').getByLabelText('Name')).toHaveProperty('value', 'Harbour');

    // Undo puts back the zones as they were, against the version the save made.
    server.answers['PUT /company/12/geofence'] = answer([{ ...oldTown, id: 9 }]);
    fireEvent.click(within(summary).getByRole('button', { name: 'Undo' }));

    await screen.findByText('Undone: the settings are as they were.');
    expect(server.requests.at(-2)).toEqual({
      route: 'PUT /company/12/geofence',
      body: { zones: [{ name: 'Old town', area: oldTown.area }] },
      ifMatch: 6,
    });
    expect(screen.getAllByTestId('zone')).toHaveLength(1);
  });

  it('shows an impossible latitude at its field, in words, and does not send it', async () => {
    const server = await openZones([oldTown]);

    const corner = within(zone('Zone 1: Old town').getByRole('group', { name: 'Corner 2' }));
    const latitude = corner.getByLabelText('Latitude');
    type(latitude, '95');

    const message = await corner.findByText('A latitude is between -90 (south) and 90 (north).');
    expect(latitude.getAttribute('aria-invalid')).toBe('true');
    expect(latitude.getAttribute('aria-describedby')).toContain(message.id);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Some values need fixing before saving; they are marked below.');
    expect(server.requests.some((r) => r.route.startsWith('PUT'))).toBe(false);
  });

  it("shows the API's refusal of a corner at that corner (the ring's closing position is its first corner)", async () => {
    await openZones([oldTown], {
      'PUT /company/12/geofence': {
        refuse: new ApiRequestError(
          400,
          'invalid_request',
          'Invalid zones.0.area.coordinates.0.3.1.',
          {
            'zones.0.area.coordinates.0.3.1': 'Too big: expected number to be <=90',
          },
        ),
      },
    });
    type(screen.getByLabelText('Name'), 'Old town centre');

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const first = within(zone('Zone 1: Old town centre').getByRole('group', { name: 'Corner 1' }));
    expect(await first.findByText('Too big: expected number to be <=90')).toBeTruthy();
    expect(first.getByLabelText('Latitude').getAttribute('aria-invalid')).toBe('true');
  });

  it('says whether a point is inside, and in which zone, as the API answers', async () => {
    const server = await openZones([oldTown], {
      'POST /company/12/geofence/check-point': answer({
        inside: true,
        zones: [{ id: 3, name: 'Old town' }],
      }),
    });
    const check = within(screen.getByRole('form', { name: 'Is this point inside?' }));
    type(check.getByLabelText('Latitude'), '51.503');
    type(check.getByLabelText('Longitude'), '-0.095');

    fireEvent.click(check.getByRole('button', { name: 'Check' }));

    await waitFor(() =>
      expect(screen.getByTestId('check-answer').textContent).toBe(
        'Inside “Old town”: a guest here may call.',
      ),
    );
    expect(server.requests.at(-1)).toEqual({
      route: 'POST /company/12/geofence/check-point',
      body: { lat: 51.503, lng: -0.095 },
    });
    expect(screen.getByTestId('checked-point').getAttribute('fill')).toBe('#047857');

    server.answers['POST /company/12/geofence/check-point'] = answer({ inside: false, zones: [] });
    type(check.getByLabelText('Latitude'), '48.85');
    fireEvent.click(check.getByRole('button', { name: 'Check' }));

    await waitFor(() =>
      expect(screen.getByTestId('check-answer').textContent).toBe(
        'Outside every zone: a guest here sees your message instead of a call.',
      ),
    );
    expect(server.requests.at(-1)?.body).toEqual({ lat: 48.85, lng: -0.095 });
  });

  it('keeps the draft when someone else saved first (412), and saves it again against their version', async () => {
    const server = await openZones([oldTown], {
      'PUT /company/12/geofence': refusal(412, 'stale_version'),
    });
    type(screen.getByLabelText('Name'), 'Old town centre');

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await screen.findByTestId('stale-version');
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'Old town centre');

    // The other admin's save: version 6.
    server.answers['GET /company/12'] = answer({
      ...clockCompany,
      version: 6,
      requestLocation: true,
    });
    server.answers['PUT /company/12/geofence'] = answer([
      { ...oldTown, id: 9, name: 'Old town centre' },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Reload the settings' }));
    await waitFor(() => expect(screen.queryByTestId('stale-version')).toBeNull());
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'Old town centre');

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const summary = await screen.findByTestId('save-summary');
    expect(within(summary).getByRole('listitem').textContent).toBe(
      'Zone renamed “Old town” → “Old town centre”',
    );
    const puts = server.requests.filter((r) => r.route === 'PUT /company/12/geofence');
    expect(puts.map((r) => r.ifMatch)).toEqual([5, 6]);
  });

  it('takes a pasted GeoJSON Feature as the zone’s corners, and says what is wrong with a bad one', async () => {
    await openZones([oldTown]);
    const old = zone('Zone 1: Old town');
    fireEvent.click(old.getByText('Paste its shape as GeoJSON'));
    const box = old.getByLabelText('GeoJSON of Zone 1: Old town');

    fireEvent.change(box, {
      target: {
        value: '{"type":"Polygon","coordinates":[[[-0.1,51.5],[-0.09,51.5],[1,95],[-0.1,51.5]]]}',
      },
    });
    fireEvent.click(old.getByRole('button', { name: 'Use this shape' }));
    expect(old.getByRole('alert').textContent).toBe(
      'In the outline, position 3: the latitude (the second number) must be between -90 and 90.',
    );
    expect(box.getAttribute('aria-invalid')).toBe('true');

    const square = {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [2.33, 48.85, 0],
            [2.36, 48.85, 0],
            [2.36, 48.87, 0],
            [2.33, 48.87, 0],
            [2.33, 48.85, 0],
          ],
        ],
      },
    };
    fireEvent.change(box, { target: { value: JSON.stringify(square) } });
    fireEvent.click(old.getByRole('button', { name: 'Use this shape' }));

    expect(
      old.getByText('The shape is in: 4 corners. Check it in the drawing, then save.'),
    ).toBeTruthy();
    const fourth = within(old.getByRole('group', { name: 'Corner 4' }));
    expect(fourth.getByLabelText('Latitude')).toHaveProperty('value', '48.87');
    expect(fourth.getByLabelText('Longitude')).toHaveProperty('value', '2.33');
    expect(screen.getByTestId('unsaved-count').textContent).toBe('Unsaved changes');
  });
});
