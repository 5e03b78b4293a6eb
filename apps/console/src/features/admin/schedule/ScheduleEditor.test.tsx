import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError, type TimetableData } from '@frontdesk/protocol';
import {
  answer,
  clockCompany,
  fakeApi,
  renderRoute,
  signedIn,
  zoeLogin,
  type FakeAnswer,
} from '../../../test/render.tsx';

afterEach(cleanup);

/** Company 12's timetable at version 3: Monday mornings in London (parts in the API's order). */
const mondays: TimetableData = {
  timeZone: 'Europe/London',
  hours: [{ opens: '08:00', closes: '12:00', weekday: 1 }],
  exceptions: [],
};

async function openSchedule(answers: Record<string, FakeAnswer> = {}) {
  const server = fakeApi({
    'GET /company/12/schedule': answer({ version: 3, timetable: mondays }),
    'GET /company/12': answer({ ...clockCompany, version: 3 }),
    ...answers,
  });
  renderRoute('/console/admin/schedule', signedIn(zoeLogin), { api: server.api });
  // The admin pages load lazily: on a busy machine that takes more than findBy's default second.
  await screen.findByRole('form', { name: 'Opening hours' }, { timeout: 10_000 });
  return server;
}

const day = (name: string) => within(screen.getByRole('group', { name }));

const type = (box: HTMLElement, value: string) => {
  fireEvent.change(box, { target: { value } });
  fireEvent.blur(box);
};

/** Friday night 22:00 until 02:00 on Saturday, added with its day's button. */
function addFridayNight() {
  fireEvent.click(screen.getByRole('button', { name: 'Add opening hours on Friday' }));
  const opens = day('Friday').getByLabelText('Opens');
  // The new opening takes the focus, so a keyboard user types its time at once.
  expect(document.activeElement).toBe(opens);
  type(opens, '22:00');
  type(day('Friday').getByLabelText('Closes'), '02:00');
}

// Each test types a whole edit into jsdom, which takes seconds when the machine is shared.
describe('the timetable editor', { timeout: 30_000 }, () => {
  it('saves an overnight opening and a holiday as the whole timetable, against the version it was made from', async () => {
    const saved: TimetableData = {
      ...mondays,
      hours: [...mondays.hours, { weekday: 5, opens: '22:00', closes: '02:00' }],
      exceptions: [{ date: '2026-12-25', label: 'Christmas Day', hours: [] }],
    };
    const server = await openSchedule({
      'PUT /company/12/schedule': answer({ version: 4, timetable: saved }),
    });

    addFridayNight();
    expect(day('Friday').getByText('Until 02:00 the next day')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add a holiday' }));
    const date = screen.getByLabelText('Date');
    expect(document.activeElement).toBe(date);
    type(date, '2026-12-25');
    type(screen.getByLabelText('Name (optional)'), ' Christmas Day ');
    expect(screen.getByRole('checkbox', { name: 'Closed all day' })).toHaveProperty(
      'checked',
      true,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const summary = await screen.findByTestId('save-summary');
    expect(server.requests.find((r) => r.route === 'PUT /company/12/schedule')).toEqual({
      route: 'PUT /company/12/schedule',
      body: saved,
      ifMatch: 3,
    });
    expect(within(summary).getByText('Friday').parentElement?.textContent).toContain(
      'Closed all day → 22:00–02:00',
    );
    expect(within(summary).getByText('2026-12-25').parentElement?.textContent).toContain(
      'Closed all day (Christmas Day)',
    );
    // The API's own answer of "open now" is asked again after the change.
    expect(server.requests.filter((r) => r.route === 'GET /company/12')).toHaveLength(2);
    expect(screen.getByTestId('unsaved-count').textContent).toBe('All changes saved');
  });

  it('shows each field the API refuses at that field', async () => {
    const server = await openSchedule({
      'PUT /company/12/schedule': {
        refuse: new ApiRequestError(400, 'invalid_body', 'The timetable is not valid.', {
          timeZone: 'must be an IANA time zone such as Europe/London',
          'hours.1.opens': 'overlaps hours.0 (Monday 08:00–12:00)',
        }),
      },
    });
    addFridayNight();
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const opens = await waitFor(() => {
      const box = day('Friday').getByLabelText('Opens');
      expect(box.getAttribute('aria-invalid')).toBe('true');
      return box;
    });
    const described = (box: HTMLElement) =>
      (box.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' | ');
    // The schema's "hours.0" is a place in the body the admin never sees: the day says it.
    expect(described(opens)).toBe('Overlaps Monday 08:00–12:00');
    const zone = screen.getByLabelText('Time zone');
    expect(zone.getAttribute('aria-invalid')).toBe('true');
    expect(described(zone)).toContain('must be an IANA time zone such as Europe/London');
    expect(screen.getByRole('alert').textContent).toContain('The timetable is not valid.');
    // The draft stays for the admin to fix.
    expect(screen.getByTestId('unsaved-count').textContent).toBe('Unsaved changes');
    expect(server.requests.filter((r) => r.route.startsWith('PUT'))).toHaveLength(1);
  });

  it('checks the draft with the API’s rules before sending anything', async () => {
    const server = await openSchedule();
    fireEvent.click(screen.getByRole('button', { name: 'Add opening hours on Monday' }));
    const second = day('Monday').getAllByLabelText('Opens')[1];
    if (!second) throw new Error('no second Monday opening');
    type(second, '11:00');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(second.getAttribute('aria-invalid')).toBe('true'));
    expect(day('Monday').getByText('Overlaps Monday 08:00–12:00')).toBeTruthy();
    expect(server.requests.some((r) => r.route.startsWith('PUT'))).toBe(false);
  });
});
