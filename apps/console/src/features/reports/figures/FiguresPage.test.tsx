import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  adaLogin,
  answer,
  fakeApi,
  refusal,
  type FakeAnswer,
  renderRoute,
  signedIn,
  zoeLogin,
} from '../../../test/render.tsx';
import { staffEntry } from '../../../test/staffEntry.ts';
import { listedCall, weekSummary } from '../reportFixtures.ts';

afterEach(cleanup);

const WEEK = 'range=custom&from=2026-03-01&to=2026-03-07';
const SUMMARY =
  'GET /reports/summary?from=2026-03-01&to=2026-03-07&shortAbandonSeconds=5&serviceLevelSeconds=20&serviceLevelTarget=0.8';
const STAFF = 'GET /company/12/staff';
const staffList = answer([staffEntry()]);

const figure = (testId: string) => screen.getByTestId(testId);

describe('the figures page', () => {
  it('shows each figure of the summary in words', async () => {
    const server = fakeApi({ [SUMMARY]: answer(weekSummary), [STAFF]: staffList });
    renderRoute(`/console/reports?${WEEK}`, signedIn(zoeLogin), { api: server.api });

    // The first page to open loads the charting library too.
    await screen.findByTestId('figure-calls', {}, { timeout: 5000 });
    // Each figure in words; short abandons are told apart, not counted.
    const words: Record<string, string[]> = {
      'figure-calls': ['12', '1 still waiting or in a call'],
      'figure-answered': ['8'],
      'figure-abandoned': ['2', '1 more gave up within 5 s'],
      'figure-abandonment-rate': ['20%'],
      'figure-asa': ['18 s'],
      'figure-service-level': ['70%', 'Below the target of 80%'],
      'figure-handle-time': ['4 min 05 s'],
      'figure-holds': ['Calls held: 2 · 30 s on average'],
      'figure-csat': ['60%'],
      'figure-csat-responses': ['62.5% of answered calls'],
      'figure-csat-average': ['3.8'],
      'figure-poor': ['1'],
      'figure-recordings': ['1 being merged, 1 failed'],
    };
    for (const [testId, texts] of Object.entries(words)) {
      for (const text of texts) expect(figure(testId).textContent, testId).toContain(text);
    }
    expect(figure('figure-service-level').getAttribute('data-tone')).toBe('bad');
    expect(screen.getByText('1 blocked')).toBeTruthy();

    // Each chart says the same in a table: the ratings given, one row per rating.
    const ratings = within(screen.getByTestId('csat-chart')).getByRole('table');
    const fiveStars = within(ratings).getByRole('row', { name: /5 of 5/ });
    expect(
      within(fiveStars)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2', '40%']);
    const heatmap = screen.getByTestId('heatmap');
    expect(within(heatmap).getByTitle('Monday 09:00–10:00, calls: 5').textContent).toBe('5');
    const agentTable = screen.getByTestId('agent-table');
    const agents = within(agentTable).getAllByRole('row');
    expect(agents[1]?.textContent).toContain('Ada Agent');
    expect(agents[1]?.textContent).toContain('3 min 20 s');
    expect(agents[1]?.textContent).toContain('67% of 3');
    // Busiest first; another column sorts by it, highest first, and again the other way.
    const agentOrder = () =>
      within(agentTable)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent);
    expect(agentOrder()).toEqual(['Ada Agent', 'Zoe Admin']);
    fireEvent.click(within(agentTable).getByRole('button', { name: 'Average handle time' }));
    expect(agentOrder()).toEqual(['Zoe Admin', 'Ada Agent']);
    expect(
      within(agentTable).getByRole('columnheader', { name: /Average handle time/ }).ariaSort,
    ).toBe('descending');
    fireEvent.click(within(agentTable).getByRole('button', { name: 'Average handle time' }));
    expect(agentOrder()).toEqual(['Ada Agent', 'Zoe Admin']);
    const form = screen.getByTestId('rating-form');
    expect(form.textContent).toContain('Yes3 (75%)');
    expect(form.textContent).toContain('Average 4.25 (answers: 4)');
    // The area's nav leads to its other pages.
    const nav = screen.getByRole('navigation', { name: 'Reports' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Figures', '/console/reports'],
      ['Calls', '/console/reports/calls'],
      ['Live wallboard', '/console/reports/wallboard'],
      ['Supervisor', '/console/supervisor'],
    ]);
    // The admin's agent filter lists the company's members.
    expect(await screen.findByRole('option', { name: 'Ada Agent' })).toBeTruthy();
  });

  it('leads from a figure, a chart, a heatmap cell and an agent to the calls behind them', async () => {
    const server = fakeApi({
      [SUMMARY]: answer(weekSummary),
      [STAFF]: staffList,
      'GET /reports/calls?from=2026-03-01&to=2026-03-07&agentId=1&shortAbandonSeconds=5': answer({
        calls: [listedCall('c-ada')],
        nextCursor: null,
      }),
    });
    const { router } = renderRoute(`/console/reports?${WEEK}`, signedIn(zoeLogin), {
      api: server.api,
    });
    await screen.findByTestId('figure-calls');
    const link = (name: string | RegExp, within_: HTMLElement = document.body) =>
      within(within_).getByRole('link', { name }).getAttribute('href');

    expect(link(/^Abandoned/)).toBe(`/console/reports/calls?${WEEK}&outcome=abandoned`);
    expect(link('1 more gave up within 5 s (not counted)')).toBe(
      `/console/reports/calls?${WEEK}&outcome=shortAbandoned`,
    );
    expect(link(/^Relayed/)).toBe(`/console/reports/calls?${WEEK}&relayed=true`);
    expect(link(/^Holds/)).toBe(`/console/reports/calls?${WEEK}&held=true`);
    expect(link(/^Transfers/)).toBe(`/console/reports/calls?${WEEK}&transferred=true`);
    expect(link(/^Poor calls/)).toBe(`/console/reports/calls?${WEEK}&poorQuality=true`);
    // The satisfaction figures are worked out from the answered calls the guests rated.
    for (const name of [/^Satisfaction score/, /^Ratings \d/, /^Average rating/]) {
      expect(link(name)).toBe(`/console/reports/calls?${WEEK}&outcome=answered&rated=true`);
    }
    expect(
      link('1', within(screen.getByTestId('csat-chart')).getByRole('row', { name: /1 of 5/ })),
    ).toBe(`/console/reports/calls?${WEEK}&rating=1`);
    expect(screen.getByTitle('Wednesday 14:00–15:00, calls: 2').getAttribute('href')).toBe(
      `/console/reports/calls?${WEEK}&weekday=3&hour=14`,
    );

    fireEvent.click(screen.getByRole('link', { name: 'Ada Agent' }));
    expect(await screen.findByTestId('call-table', {}, { timeout: 5000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/console/reports/calls');
    expect(router.state.location.search).toBe(`?${WEEK}&agentId=1`);
    expect(server.requests.at(-1)?.route).toBe(
      'GET /reports/calls?from=2026-03-01&to=2026-03-07&agentId=1&shortAbandonSeconds=5',
    );
  });

  it('keeps the chosen range, filters and cut-offs in the address, and loads the figures for them', async () => {
    const narrowed =
      'GET /reports/summary?from=2026-03-01&to=2026-03-07&categoryId=41&businessHours=true&shortAbandonSeconds=10&serviceLevelSeconds=30&serviceLevelTarget=0.9';
    const server = fakeApi({
      [SUMMARY]: answer(weekSummary),
      [STAFF]: staffList,
      [narrowed]: answer({ ...weekSummary, calls: 4 }),
    });
    const { router } = renderRoute(`/console/reports?${WEEK}`, signedIn(zoeLogin), {
      api: server.api,
    });
    await screen.findByTestId('figure-calls');
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: '41' } });
    fireEvent.click(screen.getByLabelText('Opening hours only'));
    fireEvent.change(screen.getByLabelText('Short abandon (seconds)'), { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText('Answered within (seconds)'), {
      target: { value: '30' },
    });
    fireEvent.change(screen.getByLabelText('Service level target (%)'), {
      target: { value: '90' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));

    await screen.findByText(/short abandons under 10 s · service level 90 % within 30 s/);
    expect(router.state.location.search).toBe(
      `?${WEEK}&categoryId=41&businessHours=true&shortAbandonSeconds=10&serviceLevelSeconds=30&serviceLevelTarget=0.9`,
    );
    await waitFor(() =>
      expect(figure('figure-calls').querySelector('.figure-value')?.textContent).toBe('4'),
    );
    expect(server.requests.map((request) => request.route)).toContain(narrowed);
  });

  it('counts a preset range back from today in the company’s time zone', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date());
    const server = fakeApi({
      [`GET /reports/summary?from=${today}&to=${today}&shortAbandonSeconds=5&serviceLevelSeconds=20&serviceLevelTarget=0.8`]:
        answer({
          ...weekSummary,
          calls: 0,
          answered: 0,
          abandoned: 0,
          shortAbandoned: 0,
          live: 0,
          refused: { blocked: 0, outOfQuota: 0 },
        }),
      [STAFF]: staffList,
    });
    renderRoute('/console/reports?range=today', signedIn(zoeLogin), { api: server.api });
    expect((await screen.findByTestId('figures-empty')).textContent).toContain(
      'No calls in these dates',
    );
  });

  it('tells why the figures did not load, and loads them again on Retry', async () => {
    const answers: Record<string, FakeAnswer> = {
      [SUMMARY]: refusal(500, 'internal', 'The server failed.'),
      [STAFF]: staffList,
    };
    const server = fakeApi(answers);
    renderRoute(`/console/reports?${WEEK}`, signedIn(zoeLogin), { api: server.api });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The figures could not be loaded: The server failed.',
    );
    answers[SUMMARY] = answer(weekSummary);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('figure-calls')).textContent).toContain('12');
  });

  it('turns an agent away without asking the API for anything', async () => {
    const server = fakeApi({});
    renderRoute(`/console/reports?${WEEK}`, signedIn(adaLogin), { api: server.api });
    expect((await screen.findByTestId('admins-only')).textContent).toContain(
      'Reports are for admins',
    );
    expect(server.requests).toEqual([]);
  });
});
