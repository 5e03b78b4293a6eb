import { callQualityBodySchema } from '@frontdesk/protocol';
import { expect, test } from './fixtures.ts';

test("a video call: each side sees the other's frames", async ({ call }) => {
  const { guest, agent } = call;
  await call.start({ callType: 'video' });

  for (const [who, peer] of [
    [guest, 'agent'],
    [agent, 'guest'],
  ] as const) {
    // What the user sees: a remote <video> with the fake camera's 640x480 frames.
    await expect
      .poll(async () =>
        (await who.remoteVideos()).find((v) => v.display === `remote-video-${peer}`),
      )
      .toMatchObject({ width: 640, height: 480, hasStream: true });
    const figures = await who.framesGrow();
    await who.waitForState(
      (s) =>
        s.status === 'connected' &&
        s.peerCall === 'Resumed' &&
        s.streamsReady.remote &&
        s.stages.remoteStream === true,
    );
    console.info(
      `${who.display}: first remote frame ${Math.round((await who.firstFrameMs()) ?? -1)} ms after start; ` +
        `${figures.frames} frames, ${figures.bytes} bytes so far`,
    );
  }
  // spec §4: every stage succeeded on both sides.
  for (const who of [guest, agent]) {
    expect((await who.state())?.stages).toEqual({
      localStream: true,
      createRoom: true,
      joinRoom: true,
      createOffer: true,
      createAnswer: true,
      remoteStream: true,
    });
  }

  // What each side reports of the call's quality (PUT /api/calls/:callId/quality): a direct
  // route on the test's one interface, media both ways, no reconnect.
  for (const who of [guest, agent]) {
    const report = await who.qualityReport();
    console.info(`${who.display}: quality report ${JSON.stringify(report)}`);
    expect(callQualityBodySchema.parse(report)).toMatchObject({
      localCandidateType: 'host',
      remoteCandidateType: 'host',
      relayProtocol: null,
      reconnects: 0,
      iceFailed: false,
    });
    expect(report?.setupMs).toBeGreaterThan(0);
    expect(report?.packetsReceived).toBeGreaterThan(0);
    expect(report?.sendKbps).toBeGreaterThan(0);
    expect(report?.receiveKbps).toBeGreaterThan(0);
    expect(report?.roundTripMs).not.toBeNull();
  }
});

test('a voice call carries audio only', async ({ call }) => {
  const { guest, agent } = call;
  await call.start({ callType: 'voice' });

  for (const who of [guest, agent]) {
    await who.waitForState((s) => s.peerCall === 'Resumed' && s.feeds.length === 1);
    const first = await who.inbound();
    await expect
      .poll(async () => (await who.inbound()).audio?.bytes ?? 0)
      .toBeGreaterThan(first.audio?.bytes ?? 0);
    const state = await who.state();
    expect(state?.feeds[0]).toMatchObject({ onlyAudio: true, audioMuted: false, videoMuted: true });
    expect(state?.peerVideo).toBe('Paused');
    // No video was negotiated at all: no inbound video stream and nothing to show.
    expect((await who.inbound()).video).toBeNull();
    expect(await who.remoteVideos()).toEqual([
      expect.objectContaining({ width: 0, height: 0, hasStream: true }),
    ]);
  }
});

test('a mute is seen by the peer: no more packets, and the feed reads muted', async ({ call }) => {
  const { guest, agent } = call;
  await call.start({ callType: 'video' });
  await agent.waitForState(
    (s) => s.feeds[0]?.audioMuted === false && s.feeds[0]?.videoMuted === false,
  );
  await agent.framesGrow();

  await guest.page.evaluate(() => window.harness.mute('audio', true));
  await agent.waitForState(
    (s) => s.feeds[0]?.audioMuted === true && s.feeds[0]?.videoMuted === false,
  );
  // Janus stops relaying the muted stream: the agent's audio counter stands still.
  const stalled = (await agent.inbound()).audio?.packets;
  await expect
    .poll(async () => (await agent.inbound()).audio?.packets, { intervals: [1500] })
    .toBe(stalled);
  await agent.framesGrow();
  expect((await guest.state())?.local.audioMuted).toBe(true);

  await guest.page.evaluate(() => window.harness.mute('audio', false));
  await agent.waitForState((s) => s.feeds[0]?.audioMuted === false);
  await expect
    .poll(async () => (await agent.inbound()).audio?.packets ?? 0)
    .toBeGreaterThan(stalled ?? 0);

  await guest.page.evaluate(() => window.harness.mute('video', true));
  await agent.waitForState((s) => s.feeds[0]?.videoMuted === true && s.peerVideo === 'Paused');
  // The call itself goes on: a muted camera is not a hold.
  expect((await agent.state())?.peerCall).toBe('Resumed');
  await guest.page.evaluate(() => window.harness.mute('video', false));
  await agent.waitForState((s) => s.feeds[0]?.videoMuted === false && s.peerVideo === 'Resumed');
  await agent.framesGrow();
});

test('the room destroyed as the call ends: each side ends as a destroyed room', async ({
  call,
}) => {
  const { guest, agent } = call;
  await call.start({ callType: 'video' });
  await call.destroyRoom({ ended: true });
  for (const who of [guest, agent]) {
    await who.waitForState((s) => s.status === 'closed');
    expect(await who.state()).toMatchObject({ endReason: 'roomDestroyed', feeds: [] });
    expect(await who.remoteVideos()).toEqual([]);
  }
});

test('the room destroyed on a server the call moved away from: both sides enter it again', async ({
  call,
}) => {
  const { guest, agent } = call;
  await call.start({ callType: 'video' });
  // decision 0039: the API destroys the room it left on a server taken for lost, which may be
  // alive with the participants still in it; the call goes on.
  await call.destroyRoom({ ended: false });
  await guest.backInCall('agent');
  await agent.backInCall('guest');
  expect((await guest.state())?.endReason).toBeNull();
});
