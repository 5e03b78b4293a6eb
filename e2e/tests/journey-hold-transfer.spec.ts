import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { AGENT, agentPage, transferCall } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { expectMovingVideo, walkToWaiting } from '../support/guest.ts';

async function accept(agent: Page, guestName: string) {
  await agent
    .getByTestId('queue-guest')
    .filter({ hasText: guestName })
    .getByRole('button', { name: /^Accept/ })
    .click();
}

test('journey 3: hold, resume, transfer to a named agent, then to a category: one conversation', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(240_000);
  const [di] = await queryRows<{ id: number }>(
    "select id from staff where email = 'di@frontdesk.demo'",
  );
  const cy = await agentPage(browser, AGENT.cy);
  const diPage = await agentPage(browser, 'di@frontdesk.demo');
  try {
    await walkToWaiting(guest, {
      categoryTestId: 'category-11',
      callType: 'Video call',
      name: 'Theo Transfer',
    });
    await accept(cy, 'Theo Transfer');
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expectMovingVideo(guest, 'remote-video');

    // Hold and resume: the guest sees the hold page, then the call again.
    await cy.getByRole('button', { name: 'Hold' }).click();
    await expect(guest.getByTestId('hold-page')).toBeVisible();
    await cy.getByRole('button', { name: 'Resume' }).click();
    await expect(guest.getByTestId('hold-page')).toBeHidden();

    // Cy hands the guest to Di by name: the guest waits for Di, Di takes it.
    await transferCall(cy, `agent:staff-${di?.id}`);
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
    await accept(diPage, 'Theo Transfer');
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expectMovingVideo(guest, 'remote-video');

    // Di sends the guest to the Sales category, where Cy, back at the queue, takes it again.
    await cy.getByRole('button', { name: 'Back to the queue' }).click();
    await transferCall(diPage, 'category:10');
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
    await accept(cy, 'Theo Transfer');
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await cy.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');

    // The reports keep one conversation: three call ids on one origin, each answered.
    const chain = await queryRows<{
      call_id: string;
      origin_call_id: string;
      previous_call_id: string | null;
      category_id: number;
      answered_at: Date | null;
    }>(
      `select call_id, origin_call_id, previous_call_id, category_id, answered_at from call_reports
        where origin_call_id = (select origin_call_id from call_reports where company_id = 12 order by id desc limit 1)
        order by id`,
    );
    expect(chain).toHaveLength(3);
    expect(new Set(chain.map((r) => r.origin_call_id)).size).toBe(1);
    expect(chain[1]?.previous_call_id).toBe(chain[0]?.call_id);
    expect(chain[2]?.previous_call_id).toBe(chain[1]?.call_id);
    expect(chain.map((r) => r.category_id)).toEqual([11, 11, 10]);
    expect(chain.every((r) => r.answered_at instanceof Date)).toBe(true);
  } finally {
    await cy.context().close();
    await diPage.context().close();
  }
});
