import { describe, expect, it } from 'vitest';
import { callsQuery, readCallsView, readReportView, viewParams } from './reportView.ts';

// 23:30 in London on 31 March 2026 is already 1 April in Tokyo.
const now = new Date('2026-03-31T22:30:00Z');
const read = (search: string, zone = 'Europe/London') =>
  readReportView(new URLSearchParams(search), zone, now);

describe('a report view as its address says', () => {
  it('counts presets back from today on the company’s calendar', () => {
    expect(read('range=today')).toMatchObject({ from: '2026-03-31', to: '2026-03-31' });
    expect(read('range=today', 'Asia/Tokyo')).toMatchObject({
      from: '2026-04-01',
      to: '2026-04-01',
    });
    expect(read('range=7d')).toMatchObject({ from: '2026-03-25', to: '2026-03-31' });
    expect(read('range=30d')).toMatchObject({ from: '2026-03-02', to: '2026-03-31' });
    expect(read('range=month')).toMatchObject({ from: '2026-03-01', to: '2026-03-31' });
    expect(read('range=month', 'Asia/Tokyo')).toMatchObject({
      from: '2026-04-01',
      to: '2026-04-01',
    });
  });

  it('drops what the API would refuse, so a mistyped link still shows a report', () => {
    expect(read('range=custom&from=2026-03-09&to=2026-03-02')).toMatchObject({
      range: '7d',
      from: '2026-03-25',
    });
    expect(read('range=custom&from=2026-02-30&to=2026-03-02').range).toBe('7d');
    const view = readCallsView(
      new URLSearchParams(
        'range=yesterday&categoryId=abc&agentId=7&serviceLevelTarget=2&shortAbandonSeconds=9&outcome=lost&rating=6&hour=23&weekday=0&recorded=false&held=no&transferred=true',
      ),
      'UTC',
      now,
    );
    expect(view).toEqual({
      range: '7d',
      from: '2026-03-25',
      to: '2026-03-31',
      agentId: 7,
      businessHours: false,
      shortAbandonSeconds: 9,
      serviceLevelSeconds: 20,
      serviceLevelTarget: 0.8,
      hour: 23,
      weekday: 0,
      recorded: false,
      transferred: true,
    });
  });

  it('writes a view back as a short address, and asks the API only what it takes', () => {
    const view = readCallsView(
      new URLSearchParams(
        'range=custom&from=2026-03-01&to=2026-03-07&serviceLevelSeconds=20&poorQuality=false&relayed=true&rating=2',
      ),
      'UTC',
      now,
    );
    expect(viewParams(view).toString()).toBe(
      'range=custom&from=2026-03-01&to=2026-03-07&rating=2&relayed=true&poorQuality=false',
    );
    // The calls list takes no service-level cut-offs: its query is strict.
    expect(callsQuery(view)).toEqual({
      from: '2026-03-01',
      to: '2026-03-07',
      rating: 2,
      relayed: 'true',
      poorQuality: 'false',
      shortAbandonSeconds: 5,
    });
  });
});
