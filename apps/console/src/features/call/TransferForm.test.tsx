import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { Occupant } from '@frontdesk/chat';
import { renderWithState, signedIn } from '../../test/render.tsx';
import { TransferForm } from './TransferForm.tsx';

afterEach(cleanup);

const COMPANY_ROOM = 'clock@conference.frontdesk.localhost';
const agent = (nick: string, show: Occupant['show'], self = false): Occupant => ({
  nick,
  status: undefined,
  waitingSince: undefined,
  show,
  self,
});

it('offers the agents whose show says available, by name when the API named them', () => {
  renderWithState(<TransferForm onCancel={() => undefined} />, {
    ...signedIn(),
    queue: {
      rooms: {
        [COMPANY_ROOM]: {
          jid: COMPANY_ROOM,
          kind: 'company',
          categoryId: null,
          callId: null,
          guest: null,
          joined: true,
          error: null,
          occupants: [
            agent('staff-1', 'chat', true),
            agent('staff-2', 'chat'),
            agent('staff-3', 'away'),
            agent('staff-4', 'dnd'),
            agent('staff-5', undefined),
          ],
          waiting: [],
        },
      },
      calls: {},
      callsError: null,
      claim: null,
    },
    availability: {
      chosen: 'available',
      colleagues: [{ id: 2, name: 'Bo Agent', jabberUsername: 'staff-2', role: 'agent' }],
    },
  });
  const agents = within(screen.getByRole('group', { name: 'To an agent' }));
  expect(
    agents.getAllByRole('option').map((o) => [o.getAttribute('value'), o.textContent]),
  ).toEqual([
    ['agent:staff-2', 'Bo Agent'],
    ['agent:staff-5', 'staff-5'],
  ]);
});
