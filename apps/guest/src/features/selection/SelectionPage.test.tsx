import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient, CompanyDetails } from '@frontdesk/protocol';
import { company, offlineServices, renderWithState } from '../../test/render.tsx';
import { SelectionPage } from './SelectionPage.tsx';

afterEach(cleanup);

const GROUPS = [
  { id: 'es', name: 'Spanish speakers' },
  { id: 'enterprise', name: 'Enterprise customers' },
];
const GUEST = `g${'a'.repeat(25)}`;

/** The selection stage of a signed-in guest of `details`, whose API records what it is sent. */
function guestChoosing(details: CompanyDetails) {
  const bodies: unknown[] = [];
  const api = (async (_route, options?: { body?: unknown }) => {
    bodies.push(options?.body);
    return { data: { status: 'blocked', id: 1 } };
  }) as ApiClient;
  const rendered = renderWithState(
    <SelectionPage />,
    {
      company: { details },
      guestAuth: {
        username: GUEST,
        credential: 'secret',
        access_token: 'token',
        accessTokenExpiresAt: null,
        jabberusername: `5-${GUEST}`,
        services: null,
        location: null,
      },
      flow: { stage: 'selection', failure: null },
    },
    offlineServices({ api }),
  );
  return { ...rendered, bodies };
}

describe('selection stage', () => {
  it('offers each category and both call types when the guest may choose', () => {
    renderWithState(<SelectionPage />, { company: { details: company() } });
    const sales = screen.getByRole('radio', { name: 'Sales' }) as HTMLInputElement;
    const support = screen.getByRole('radio', { name: 'Support' }) as HTMLInputElement;
    expect(sales.checked).toBe(true);
    fireEvent.click(support);
    expect(support.checked).toBe(true);
    expect(screen.getByRole('radio', { name: 'Video call' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Voice call' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start the call' })).toBeTruthy();
  });

  it('asks nothing about the call type when the company fixes it', () => {
    renderWithState(<SelectionPage />, { company: { details: company({ callType: 'voice' }) } });
    expect(screen.queryByRole('radio', { name: 'Video call' })).toBeNull();
  });

  it('lays categories out as the company styles them', () => {
    renderWithState(<SelectionPage />, {
      company: { details: company({ categoryStyle: 'list' }) },
    });
    expect(screen.getByRole('group', { name: 'What can we help you with?' }).className).toContain(
      'categories-list',
    );
  });

  it("paints a category in its own colours, the others in the company's", () => {
    renderWithState(<SelectionPage />, {
      company: {
        details: company({
          categories: [
            {
              id: 1,
              name: 'Sales',
              roomName: 'sales',
              textColor: '#101010',
              backgroundColor: '#7a1f5c',
              averageWaitMs: 60_000,
            },
            {
              id: 2,
              name: 'Support',
              roomName: 'support',
              textColor: null,
              // Not a colour: left to the company's.
              backgroundColor: 'red; background: url(x)',
              averageWaitMs: 60_000,
            },
          ],
        }),
      },
    });
    const sales = screen.getByTestId('category-1').style;
    expect(sales.getPropertyValue('--fd-category-bg')).toBe('#7a1f5c');
    expect(sales.getPropertyValue('--fd-category-text')).toBe('#101010');
    const support = screen.getByTestId('category-2').style;
    expect(support.getPropertyValue('--fd-category-bg')).toBe('');
    expect(support.getPropertyValue('--fd-category-text')).toBe('');
  });

  it('offers the assignment groups only when the company uses them', () => {
    renderWithState(<SelectionPage />, {
      company: { details: company({ assignments: false, assignmentGroups: GROUPS }) },
    });
    expect(screen.queryByRole('group', { name: 'Which of these fits you best?' })).toBeNull();
    expect(screen.queryByRole('radio', { name: 'Spanish speakers' })).toBeNull();
    cleanup();

    renderWithState(<SelectionPage />, {
      company: { details: company({ assignments: true, assignmentGroups: GROUPS }) },
    });
    const groups = screen.getByRole('group', { name: 'Which of these fits you best?' });
    const radios = [...groups.querySelectorAll('input')] as HTMLInputElement[];
    expect(radios.map((radio) => radio.labels?.[0]?.textContent)).toEqual([
      'Spanish speakers',
      'Enterprise customers',
    ]);
    // Nobody is put in a group for not looking.
    expect(radios.some((radio) => radio.checked)).toBe(false);
  });

  it('sends the group the guest picked with the call', async () => {
    const { bodies, store } = guestChoosing(
      company({ assignments: true, assignmentGroups: GROUPS }),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Enterprise customers' }));
    fireEvent.click(screen.getByRole('button', { name: 'Start the call' }));
    await waitFor(() => expect(store.getState().flow.stage).toBe('blocked'));
    expect(bodies).toEqual([
      expect.objectContaining({ category_id: 1, assignmentGroup: 'enterprise' }),
    ]);
  });

  it('asks for a group before starting, and sends none when the company uses none', async () => {
    const withGroups = guestChoosing(company({ assignments: true, assignmentGroups: GROUPS }));
    fireEvent.click(screen.getByRole('button', { name: 'Start the call' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Please choose one.');
    const groups = screen.getByRole('group', { name: 'Which of these fits you best?' });
    expect(groups.getAttribute('aria-describedby')).toBe(alert.id);
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Spanish speakers' }));
    expect(withGroups.bodies).toEqual([]);
    cleanup();

    const without = guestChoosing(company());
    fireEvent.click(screen.getByRole('button', { name: 'Start the call' }));
    await waitFor(() => expect(without.bodies).toHaveLength(1));
    expect(without.bodies[0]).not.toHaveProperty('assignmentGroup');
  });

  it('offers to call unrecorded only where the company allows it, and says so with the call', async () => {
    const optional = guestChoosing(company({ recordCalls: true, recordingOptional: true }));
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Record this call' });
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Start the call' }));
    await waitFor(() => expect(optional.bodies).toHaveLength(1));
    expect(optional.bodies[0]).toEqual(expect.objectContaining({ recording: 'declined' }));
    cleanup();

    const always = guestChoosing(company({ recordCalls: true, recordingOptional: false }));
    expect(screen.queryByRole('checkbox', { name: 'Record this call' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Start the call' }));
    await waitFor(() => expect(always.bodies).toHaveLength(1));
    expect(always.bodies[0]).not.toHaveProperty('recording');
  });
});
