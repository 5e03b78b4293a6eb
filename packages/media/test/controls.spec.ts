import { expect, test, type Participant } from './fixtures.ts';

const offersMade = async (p: Participant) =>
  (await p.log()).filter((line) => line.startsWith('stage createOffer')).length;

test('in-call controls: camera preset switch, ICE restart, hold, and live quality', async ({
  call,
}) => {
  const { guest, agent } = call;
  await call.start({ callType: 'video' });
  expect(await guest.page.evaluate(() => window.harness.devices())).toMatchObject({
    cameras: expect.any(Number),
    microphones: expect.any(Number),
  });

  // Quality for the UI: both directions measured, and on this link it is good.
  await guest.waitForState((s) => (s.quality.send?.kbps ?? 0) > 50);
  await agent.waitForState((s) => (s.quality.receive?.kbps ?? 0) > 50);
  const { quality } = (await agent.state()) ?? { quality: null };
  console.info(`agent quality: ${JSON.stringify(quality)}`);
  expect(quality?.receive).toMatchObject({ level: 'good', rttMs: expect.any(Number) });

  // A lower preset through replaceTrack: the agent's picture changes, nothing is renegotiated.
  const offers = await offersMade(guest);
  await guest.page.evaluate(() => window.harness.switchPreset('lowres'));
  await expect
    .poll(async () => (await agent.remoteVideos())[0])
    .toMatchObject({ width: 320, height: 240 });
  expect(await offersMade(guest)).toBe(offers);
  await agent.framesGrow();

  // ICE restart on both PeerConnections: new ICE credentials, media keeps flowing.
  const before = await guest.page.evaluate(() => window.harness.iceUfrags());
  await guest.page.evaluate(() => window.harness.restartIce());
  await expect
    .poll(async () => {
      const after = await guest.page.evaluate(() => window.harness.iceUfrags());
      return after.every((ufrag, i) => ufrag !== null && ufrag !== before[i]);
    })
    .toBe(true);
  await agent.framesGrow();
  await guest.framesGrow();

  // Hold: the guest stops sending and receiving; the agent sees a muted peer still in the call.
  await guest.page.evaluate(() => window.harness.hold(true));
  await agent.waitForState(
    (s) => s.feeds[0]?.audioMuted === true && s.feeds[0]?.videoMuted === true,
  );
  const held = (await guest.inbound()).video?.frames;
  await expect
    .poll(async () => (await guest.inbound()).video?.frames, { intervals: [1500] })
    .toBe(held);
  await guest.page.evaluate(() => window.harness.hold(false));
  await agent.waitForState((s) => s.feeds[0]?.videoMuted === false);
  await guest.framesGrow();
  await agent.framesGrow();
});
