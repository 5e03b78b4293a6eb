import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { agentPage } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { inspectScreen, openGuest, acceptFirstGuest } from '../support/guest.ts';
import { checkCallScreens } from '../support/call-screen.ts';

/** What the guest's remote `<video>` element carries: tracks by kind. */
async function remoteTracks(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((element: HTMLVideoElement) => {
    const stream = element.srcObject as MediaStream | null;
    return {
      audio: stream?.getAudioTracks().length ?? 0,
      video: stream?.getVideoTracks().length ?? 0,
    };
  });
}

async function latestRating(companyId: number) {
  const [report] = await queryRows<{ rating: number | null; end_reason: string | null }>(
    'select rating, end_reason from call_reports where company_id = $1 order by id desc limit 1',
    [companyId],
  );
  return report;
}

test('journey 2: a voice-only company: audio without video, rated with emojis', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(150_000);
  const agent = await agentPage(browser, 'dee@frontdesk.demo');
  try {
    await openGuest(guest, 13, 'preview');
    await expect(guest.getByText('Voice only: no camera needed.')).toBeVisible();
    await guest.getByRole('button', { name: 'Continue' }).click();
    // The company fixes the call type: nothing to choose.
    await expect(guest.getByRole('radio', { name: 'Video call' })).toHaveCount(0);
    await guest.getByRole('button', { name: 'Start the call' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
    await acceptFirstGuest(guest, agent);
    await expect(guest.getByTestId('remote-avatar')).toContainText('Voice call');
    await expect(guest.getByTestId('remote-video')).toHaveCount(0);
    await expect
      .poll(() => remoteTracks(guest, 'remote-audio'), { timeout: 15_000 })
      .toEqual({ audio: 1, video: 0 });
    await inspectScreen(guest, 'journey-guest-voice-call');
    await expect(guest.getByTestId('agent-name')).toHaveText('Dee');
    // Issue 18: the voice call's controls in sight on every screen, the chat beside the avatar.
    await checkCallScreens(guest, {
      name: 'call-voice',
      remote: guest.getByTestId('remote-avatar'),
      controls: ['Mute microphone', 'Devices', 'Chat', 'End call'],
    });

    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');
    await expect(guest.locator('.rating-emojies')).toBeVisible();
    await guest.getByRole('radio', { name: '5 / 5' }).check();
    await inspectScreen(guest, 'journey-guest-emoji-rating');
    await guest.getByRole('button', { name: 'Send rating' }).click();
    await expect(guest.getByTestId('stage-thanks')).toBeVisible();
    expect(await latestRating(13)).toEqual({ rating: 5, end_reason: 'completed' });
  } finally {
    await agent.context().close();
  }
});

test('journey 7: the whole guest journey in Arabic, right to left', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(150_000);
  const agent = await agentPage(browser, 'ali@frontdesk.demo');
  try {
    await openGuest(guest, 10, 'welcome');
    await expect(guest.locator('html')).toHaveAttribute('dir', 'rtl');
    await guest.getByLabel(/الاسم/).fill('سارة');
    await guest.getByLabel(/البريد الإلكتروني/).fill('sara@example.org');
    await guest.getByRole('button', { name: 'ابدأ' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
    await guest.getByRole('button', { name: 'متابعة' }).click();
    await guest.getByRole('radio', { name: 'المبيعات' }).check();
    await guest.getByRole('radio', { name: 'مكالمة فيديو' }).check();
    await guest.getByRole('button', { name: 'ابدأ المكالمة' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
    await expect(guest.getByRole('heading', { name: 'جارٍ توصيلك بفريقنا' })).toBeVisible();
    await inspectScreen(guest, 'journey-rtl-waiting');

    await acceptFirstGuest(guest, agent);
    await expect(guest.getByRole('button', { name: 'إنهاء المكالمة' })).toBeVisible();
    await inspectScreen(guest, 'journey-rtl-call');
    await expect(guest.getByTestId('agent-name')).toHaveText('علي');
    // Issue 18: right to left, the same controls in sight on every screen, the chat beside.
    await checkCallScreens(guest, {
      name: 'call-video-rtl',
      remote: guest.getByTestId('remote-video'),
      controls: ['كتم الميكروفون', 'إيقاف الكاميرا', 'الأجهزة', 'الدردشة', 'إنهاء المكالمة'],
    });

    // The guest ends this time, after confirming.
    await guest.getByRole('button', { name: 'إنهاء المكالمة' }).click();
    await guest.getByRole('button', { name: 'نعم، إنهاء' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');
    await guest.getByRole('radio', { name: '4 / 5' }).check();
    await guest.getByRole('button', { name: 'إرسال التقييم' }).click();
    await expect(guest.getByTestId('stage-thanks')).toContainText('شكرًا لاتصالك بنا.');
    await inspectScreen(guest, 'journey-rtl-thanks');
    expect(await latestRating(10)).toEqual({ rating: 4, end_reason: 'completed' });
  } finally {
    await agent.context().close();
  }
});
