import { expect, test } from './fixtures.ts';

// These tests kill Janus: each gets a Janus of its own.
test.use({ ownJanus: true });

test('Janus killed mid-call and started again: both sides recover the call', async ({
  call,
  janus,
}) => {
  const { guest, agent } = call;
  await call.start({ callType: 'video' });
  for (const who of [guest, agent]) await who.framesGrow();
  const receivedBefore = (await guest.qualityReport())?.packetsReceived ?? 0;

  const killedAt = Date.now();
  await janus.stop();
  for (const who of [guest, agent]) {
    await who.waitForState((s) => s.status === 'reconnecting' && s.peerCall === 'Paused');
    // No frozen last frame: the remote video is taken down while the call reconnects.
    expect(await who.remoteVideos()).toEqual([]);
  }
  const noticedMs = Date.now() - killedAt;

  const restartedAt = Date.now();
  await janus.start();
  await guest.backInCall('agent');
  await agent.backInCall('guest');
  // The quality report counts the reconnect and keeps what the lost session had received.
  const report = await guest.qualityReport();
  expect(report?.reconnects).toBeGreaterThanOrEqual(1);
  expect(report?.packetsReceived).toBeGreaterThan(receivedBefore);
  console.info(
    `Janus restart: both sides showed "reconnecting" ${noticedMs} ms after the kill; ` +
      `frames flowing both ways again ${Date.now() - restartedAt} ms after Janus was back`,
  );
});

test('Janus gone for good: the call ends clearly instead of freezing', async ({ call, janus }) => {
  const { guest, agent } = call;
  await call.start({
    callType: 'video',
    reconnect: { retries: 3, baseDelayMs: 200, maxDelayMs: 500 },
  });

  await janus.stop();
  for (const who of [guest, agent]) {
    await who.waitForState((s) => s.status === 'closed', 30_000);
    const state = await who.state();
    expect(state).toMatchObject({
      endReason: 'failed',
      feeds: [],
      peerCall: 'Paused',
      streamsReady: { local: false, remote: false },
    });
    // The last attempt failed at the API (room) or at Janus itself.
    expect(state?.error?.code).toMatch(/apiCallFailed|serverDown|connectionLost|networkError/);
    expect(await who.remoteVideos()).toEqual([]);
  }
  // Restarted for the fixture's teardown.
  await janus.start();
});
