import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  answer,
  fakeApi,
  refusal,
  renderRoute,
  signedIn,
  zoeLogin,
} from '../../../test/render.tsx';
import { listedCall } from '../reportFixtures.ts';

const saved: { name: string; text: Promise<string> }[] = [];

/** A file's text (jsdom's Blob has no `text()`). */
const readText = (file: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(file);
  });

beforeEach(() => {
  saved.length = 0;
  // jsdom neither makes object URLs nor saves files: the page's saving is watched here instead.
  vi.spyOn(URL, 'createObjectURL').mockImplementation((file) => {
    saved.push({ name: '', text: readText(file as Blob) });
    return 'blob:calls';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const last = saved.at(-1);
    if (last) last.name = this.download;
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const ANSWERED = 'range=custom&from=2026-03-01&to=2026-03-07&outcome=answered';
const FIRST_PAGE =
  'GET /reports/calls?from=2026-03-01&to=2026-03-07&outcome=answered&shortAbandonSeconds=5';
const STAFF = 'GET /company/12/staff';

describe('the calls page', () => {
  it('lists the calls the address filters, and loads older ones on Load more', async () => {
    const server = fakeApi({
      [STAFF]: answer([]),
      [FIRST_PAGE]: answer({
        calls: [
          listedCall('call-3', { agent: { id: 9, name: 'Zoe Admin' } }),
          listedCall('call-2', {
            poorQuality: true,
            relayed: true,
            callMethod: 'p2p',
            recorded: false,
            rating: null,
          }),
        ],
        nextCursor: 'cursor-2',
      }),
      [`${FIRST_PAGE}&cursor=cursor-2`]: answer({
        calls: [listedCall('call-1', { recorded: false })],
        nextCursor: null,
      }),
    });
    renderRoute(`/console/reports/calls?${ANSWERED}`, signedIn(zoeLogin), { api: server.api });

    const rows = await screen.findAllByTestId('call-row', {}, { timeout: 5000 });
    expect(rows).toHaveLength(2);
    const [newest, poor] = rows;
    if (!newest || !poor) throw new Error('two rows expected');
    // Each value is read with its column's header (the phone shows them as labels).
    const cell = (row: HTMLElement, column: string) =>
      within(row)
        .getAllByRole('cell')
        .find((td) => td.dataset.label === column)?.textContent;
    expect(cell(newest, 'Agent')).toBe('Zoe Admin');
    expect(cell(newest, 'Wait')).toBe('12 s');
    expect(cell(newest, 'Handle time')).toBe('5 min 48 s');
    expect(cell(newest, 'Rating')).toBe('5 of 5');
    expect(cell(newest, 'Outcome')).toBe('Answered');
    expect(cell(poor, 'Quality')).toBe('PoorRelayed');
    expect(cell(newest, 'Method')).toBe('Media server');
    expect(cell(poor, 'Method')).toBe('Peer to peer');
    expect(cell(poor, 'Rating')).toBe('—');
    expect(within(newest).getByRole('link').getAttribute('href')).toBe(
      '/console/reports/calls/call-3',
    );
    expect(screen.getByTestId('calls-count').textContent).toBe('Calls shown: 2');
    // The filters show what the address says.
    expect((screen.getByLabelText('Outcome') as HTMLSelectElement).value).toBe('answered');

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Every call shown: 3')).toBeTruthy();
    expect(
      screen.getAllByTestId('call-row').map((row) => row.querySelector('a')?.getAttribute('href')),
    ).toEqual([
      '/console/reports/calls/call-3',
      '/console/reports/calls/call-2',
      '/console/reports/calls/call-1',
    ]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('takes the holds, transfers, quality and ratings filters from a figure’s link and its form', async () => {
    const held =
      'GET /reports/calls?from=2026-03-01&to=2026-03-07&outcome=answered&held=true&rated=false&shortAbandonSeconds=5';
    const heldAndTransferred =
      'GET /reports/calls?from=2026-03-01&to=2026-03-07&outcome=answered&held=true&transferred=true&rated=false&shortAbandonSeconds=5';
    const server = fakeApi({
      [STAFF]: answer([]),
      [held]: answer({ calls: [listedCall('call-held')], nextCursor: null }),
      [heldAndTransferred]: answer({ calls: [listedCall('call-moved')], nextCursor: null }),
    });
    const { router } = renderRoute(
      `/console/reports/calls?${ANSWERED}&held=true&rated=false`,
      signedIn(zoeLogin),
      { api: server.api },
    );

    const [row] = await screen.findAllByTestId('call-row', {}, { timeout: 5000 });
    expect(row?.querySelector('a')?.getAttribute('href')).toBe('/console/reports/calls/call-held');
    expect(server.requests.map((request) => request.route)).toContain(held);
    // The form shows the link's filters, and offers the others.
    const choice = (label: string) => (screen.getByLabelText(label) as HTMLSelectElement).value;
    expect(choice('Put on hold')).toBe('true');
    expect(choice('Rated by the guest')).toBe('false');
    expect(choice('Transferred')).toBe('');
    expect(choice('Poor quality')).toBe('');

    fireEvent.change(screen.getByLabelText('Transferred'), { target: { value: 'true' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() =>
      expect(screen.getByTestId('call-row').querySelector('a')?.getAttribute('href')).toBe(
        '/console/reports/calls/call-moved',
      ),
    );
    expect(router.state.location.search).toBe(
      `?${ANSWERED}&held=true&transferred=true&rated=false`,
    );
    expect(server.requests.at(-1)?.route).toBe(heldAndTransferred);
  });

  it('says so when no call matches', async () => {
    const server = fakeApi({
      [STAFF]: answer([]),
      [FIRST_PAGE]: answer({ calls: [], nextCursor: null }),
    });
    renderRoute(`/console/reports/calls?${ANSWERED}`, signedIn(zoeLogin), { api: server.api });
    expect((await screen.findByTestId('calls-empty', {}, { timeout: 5000 })).textContent).toBe(
      'No calls match these filters.Widen the dates or clear a filter to see more calls.',
    );
  });

  it('downloads every matching call as a CSV file, and tells why when it cannot', async () => {
    const csv = `${FIRST_PAGE}&format=csv`;
    const answers = {
      [STAFF]: answer([]),
      [FIRST_PAGE]: answer({ calls: [listedCall('call-3')], nextCursor: null }),
      [csv]: refusal(503, 'unavailable', 'The reports are busy: try again in a minute.'),
    } as Parameters<typeof fakeApi>[0];
    const server = fakeApi(answers);
    renderRoute(`/console/reports/calls?${ANSWERED}`, signedIn(zoeLogin), {
      api: server.api,
      downloadFile: server.download,
    });
    await screen.findAllByTestId('call-row', {}, { timeout: 5000 });

    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect((await screen.findByTestId('csv-error')).textContent).toBe(
      'The CSV could not be downloaded: The reports are busy: try again in a minute.',
    );
    expect(saved).toEqual([]);

    answers[csv] = { file: 'call_id,started_at\ncall-3,2026-03-02T09:14:00.000Z\n' };
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Saved as calls-2026-03-01-2026-03-07.csv.')).toBeTruthy();
    expect(screen.queryByTestId('csv-error')).toBeNull();
    expect(saved.map((file) => file.name)).toEqual(['calls-2026-03-01-2026-03-07.csv']);
    expect(await saved[0]?.text).toContain('call-3,');
  });

  it('tells why the calls did not load', async () => {
    const server = fakeApi({
      [STAFF]: answer([]),
      [FIRST_PAGE]: refusal(400, 'invalid_query', 'to: must not be before from'),
    });
    renderRoute(`/console/reports/calls?${ANSWERED}`, signedIn(zoeLogin), { api: server.api });
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toContain(
      'The calls could not be loaded: to: must not be before from',
    );
  });
});
