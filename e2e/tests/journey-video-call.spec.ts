import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/fixtures.ts';
import { AGENT, agentPage } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { expectMovingVideo, inspectScreen, walkToWaiting } from '../support/guest.ts';
import { checkCallScreens, expectChatBesideCall, SCREENS } from '../support/call-screen.ts';

/** Company 12's video call offers these controls, in this order (it lets phones flip camera). */
const VIDEO_CONTROLS = [
  'Mute microphone',
  'Turn camera off',
  'Switch camera',
  'Devices',
  'Chat',
  'End call',
];

/**
 * The merged recording as company 12's admin downloads it (the merge job runs just after the
 * call; until it is done the film answers 404).
 */
async function downloadRecording(callId: string): Promise<string> {
  const login = await fetch(`${process.env.FRONTDESK_URL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'zoe@frontdesk.demo', password: 'frontdesk-demo' }),
  });
  const { data } = (await login.json()) as { data: { access_token: string } };
  let response: Response | undefined;
  await expect
    .poll(
      async () => {
        response = await fetch(
          `${process.env.FRONTDESK_URL}/api/reports/recordings/${encodeURIComponent(callId)}?download=true`,
          { headers: { authorization: `Bearer ${data.access_token}` } },
        );
        return response.status;
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBe(200);
  const file = join(mkdtempSync(join(tmpdir(), 'frontdesk-recording-')), 'call.mp4');
  writeFileSync(file, Buffer.from(await (response as Response).arrayBuffer()));
  return file;
}

/** A small PNG made on the spot: a file to send in the chat. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

test('journeys 1 and 6: a whole recorded video call, from the welcome form to the rating and the recording', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(180_000);
  const agent = await agentPage(browser, AGENT.cy);
  try {
    await walkToWaiting(guest, {
      categoryTestId: 'category-11',
      callType: 'Video call',
      name: 'Vera Video',
    });
    await expect(guest.getByTestId('queue-position')).toHaveAttribute('data-position', '1');
    await inspectScreen(guest, 'journey-guest-waiting');

    const row = agent.getByTestId('queue-guest').filter({ hasText: 'Vera Video' });
    await row.getByRole('button', { name: /^Accept/ }).click();

    // Both see the other's moving video.
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    const guestSees = await expectMovingVideo(guest, 'remote-video');
    expect(guestSees).toMatchObject({ width: 640, height: 480 });
    await expectMovingVideo(agent, 'remote-video');

    // The guest sees who answered: the agent's first name ("Cy Agent").
    await expect(guest.getByTestId('agent-name')).toHaveText('Cy');
    // Issue 18: on a desktop, a phone upright and a phone sideways, every control is in sight
    // without scrolling, and the chat opens over or beside the picture, which stays in sight.
    const remote = guest.getByTestId('remote-video');
    await checkCallScreens(guest, { name: 'call-video', remote, controls: VIDEO_CONTROLS });

    // The agent writes first: the chat control counts the unread message until it opens.
    const agentChat = agent.getByTestId('chat-panel');
    await agentChat.getByLabel('Message').fill('Hello from the agent');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    await expect(guest.getByTestId('unread-badge')).toHaveText('1');
    await expect(guest.getByTestId('chat-toggle')).toHaveAccessibleName('Chat (1 unread message)');
    await inspectScreen(guest, 'call-video-desktop-unread');
    await guest.setViewportSize(SCREENS.phone);
    await expect(guest.getByTestId('unread-badge')).toBeInViewport({ ratio: 1 });
    await inspectScreen(guest, 'call-video-phone-unread');

    // Chat both ways, text and a file each way, on the phone.
    await expectChatBesideCall(guest, remote, VIDEO_CONTROLS);
    await expect(guest.getByTestId('unread-badge')).toHaveCount(0);
    await expect(guest.getByTestId('chat-messages')).toContainText('Hello from the agent');
    await guest.getByLabel('Message').fill('Hello from the guest');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(
      agentChat.getByTestId('chat-message').filter({ hasText: 'Hello from the guest' }),
    ).toBeVisible();
    await guest
      .getByTestId('chat-file')
      .setInputFiles({ name: 'guest-photo.png', mimeType: 'image/png', buffer: PNG });
    await expect(agentChat.getByRole('link', { name: /guest-photo\.png/ })).toBeVisible();
    await agentChat
      .getByLabel('Attach a file')
      .setInputFiles({ name: 'agent-note.png', mimeType: 'image/png', buffer: PNG });
    await expect(guest.getByRole('link', { name: /agent-note\.png/ })).toBeVisible();
    await inspectScreen(guest, 'journey-guest-call');
    await guest.setViewportSize(SCREENS.desktop);
    await expect(guest.getByTestId('chat-messages')).toContainText('Cy');
    await inspectScreen(guest, 'journey-guest-call-desktop');

    // The devices open over the call from their control, even with the chat open; Escape closes
    // them and gives the focus back to the control.
    await guest.setViewportSize(SCREENS.phone);
    const devicesButton = guest.getByRole('button', { name: 'Devices' });
    await devicesButton.click();
    const devices = guest.getByRole('region', { name: 'Devices' });
    await expect(devices).toBeInViewport({ ratio: 1 });
    await expect(devices.getByLabel('Microphone')).toBeVisible();
    await expect(devices.getByLabel('Camera')).toBeVisible();
    await inspectScreen(guest, 'call-video-phone-devices');
    await devices.getByLabel('Volume').focus();
    await guest.keyboard.press('Escape');
    await expect(devices).toHaveCount(0);
    await expect(devicesButton).toBeFocused();

    // The agent ends; the guest rates with stars and the rating form.
    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');
    await guest.getByRole('radio', { name: '4 / 5' }).check();
    await guest.getByLabel(/Did we solve your problem/).selectOption('yes');
    await guest.getByLabel(/Comments/).fill('Quick and friendly.');
    await inspectScreen(guest, 'journey-guest-rating');
    await guest.getByRole('button', { name: 'Send rating' }).click();
    await expect(guest.getByTestId('stage-thanks')).toBeVisible();

    // What the company's reports hold.
    const [report] = await queryRows<{
      id: number;
      call_id: string;
      call_initiated_at: Date | null;
      answered_at: Date | null;
      ended_at: Date | null;
      end_reason: string | null;
      rating: number | null;
    }>(
      `select r.id, r.call_id, r.call_initiated_at, r.answered_at, r.ended_at, r.end_reason, r.rating
         from call_reports r
        where r.company_id = 12 and r.status = 'ok'
        order by r.id desc limit 1`,
    );
    expect(report).toMatchObject({ end_reason: 'completed', rating: 4 });
    expect(report?.call_initiated_at).toBeInstanceOf(Date);
    expect(report?.answered_at).toBeInstanceOf(Date);
    expect(report?.ended_at).toBeInstanceOf(Date);
    const ratings = await queryRows<{ answers: unknown }>(
      'select answers from rating_submissions where call_report_id = $1',
      [report?.id],
    );
    expect(ratings[0]?.answers).toMatchObject({
      score: 4,
      resolved: 'yes',
      comments: 'Quick and friendly.',
    });
    const welcome = await queryRows<{ answers: unknown }>(
      `select s.answers from form_submissions s
        where s.company_id = 12 order by s.id desc limit 1`,
    );
    expect(welcome[0]?.answers).toMatchObject({ name: 'Vera Video', topic: 'existing-order' });

    // Journey 6: the company records calls, so one playable file of the call exists afterwards.
    const film = await downloadRecording(String(report?.call_id));
    const streams = execFileSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_type:format=duration', '-of', 'json', film],
      {
        encoding: 'utf8',
      },
    );
    const probed = JSON.parse(streams) as {
      streams: { codec_type: string }[];
      format: { duration: string };
    };
    expect(probed.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
    expect(Number(probed.format.duration)).toBeGreaterThan(3);
  } finally {
    await agent.context().close();
  }
});
