import { execFileSync } from 'node:child_process';
import { expect, test, type Participant } from './fixtures.ts';

// This test takes the namespace's address away (scripts/isolated: 10.200.0.1 on veth0, the
// only path for media) and gives it back: a network change under a running call.
const ADDRESS = ['10.200.0.1/24', 'dev', 'veth0'];

const ufrags = (p: Participant) => p.page.evaluate(() => window.harness.iceUfrags());

test('a network change: the call shows "reconnecting", then an ICE restart brings the media back', async ({
  call,
}) => {
  const { guest, agent } = call;
  await call.start({ callType: 'video' });
  const before = await ufrags(guest);

  const droppedAt = Date.now();
  let noticedMs = 0;
  execFileSync('ip', ['addr', 'del', ...ADDRESS]);
  try {
    for (const who of [guest, agent]) await who.waitForState((s) => s.status === 'reconnecting');
    noticedMs = Date.now() - droppedAt;
    // Still no path after the grace period: new ICE credentials on both PeerConnections (an
    // ICE restart over the still-working signalling, not a new session).
    await expect
      .poll(async () => (await ufrags(guest)).every((u, i) => u !== null && u !== before[i]))
      .toBe(true);
  } finally {
    execFileSync('ip', ['addr', 'add', ...ADDRESS]);
  }

  const backAt = Date.now();
  for (const who of [guest, agent]) {
    await who.waitForState((s) => s.status === 'connected' && s.reconnects === 0, 20_000);
    const frames = (await who.inbound()).video?.frames ?? 0;
    await expect.poll(async () => (await who.inbound()).video?.frames ?? 0).toBeGreaterThan(frames);
  }
  console.info(
    `network change: "reconnecting" ${noticedMs} ms after the address went away; ` +
      `media flowing both ways ${Date.now() - backAt} ms after it came back`,
  );
});
