import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import type { MediaState } from '../src/index.ts';
import type { P2pConfig, P2pInbound, Side } from './harness/p2p.ts';

// A p2p call (issue 23): the agent's and the guest's P2pSession in one page, one
// RTCPeerConnection between them over host candidates, signals over an in-page chat.

const CALL_ID = 'gabcdefghijklmnopqrstuvwxy--p2p1';
const other = (side: Side): Side => (side === 'agent' ? 'guest' : 'agent');

async function openCall(
  page: Page,
  harnessUrl: string,
  config: Partial<P2pConfig> = {},
  introduce = true,
) {
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(`${harnessUrl}p2p.html`);
  await page.waitForFunction(() => window.p2p !== undefined);
  await page.evaluate(([c, i]) => window.p2p.start(c, i), [
    { callId: CALL_ID, callType: 'video' as const, ...config },
    introduce,
  ] as const);
  const call = {
    state: (side: Side): Promise<MediaState> => page.evaluate((s) => window.p2p.state(s), side),
    inbound: (side: Side): Promise<P2pInbound> => page.evaluate((s) => window.p2p.inbound(s), side),
    waitForState: async (side: Side, predicate: (state: MediaState) => boolean) => {
      await expect.poll(async () => predicate(await call.state(side))).toBe(true);
    },
    /** Frames decoded and packets counted grow between two reads: media flows now. */
    async flowing(side: Side): Promise<void> {
      const first = await call.inbound(side);
      await expect
        .poll(async () => {
          const next = await call.inbound(side);
          return (
            next.video.frames > first.video.frames &&
            next.video.packets > first.video.packets &&
            next.audio.packets > first.audio.packets
          );
        })
        .toBe(true);
    },
    /** A counter of what `side` receives stands still over a poll interval. */
    async stands(side: Side, read: (figures: P2pInbound) => number) {
      await expect
        .poll(
          async () => {
            const before = read(await call.inbound(side));
            await page.waitForTimeout(1500);
            return read(await call.inbound(side)) - before;
          },
          { intervals: [0] },
        )
        .toBe(0);
    },
    /** Both sides have the other's feed, and see its video move. */
    async connected(): Promise<void> {
      for (const side of ['agent', 'guest'] as const) {
        await call.waitForState(
          side,
          (s) =>
            s.status === 'connected' &&
            s.peerCall === 'Resumed' &&
            s.peerVideo === 'Resumed' &&
            s.feeds.length === 1 &&
            s.feeds[0]?.display === other(side),
        );
        await call.flowing(side);
      }
    },
  };
  return call;
}

/**
 * A connected call that `leaver` is to leave without ending it; `asked` reads how often the side
 * that stays has asked for ICE servers, which matters once the API would refuse them.
 */
async function callToLeave(page: Page, harnessUrl: string, leaver: Side) {
  const stayer = other(leaver);
  const call = await openCall(page, harnessUrl);
  await call.connected();
  return {
    call,
    asked: () => page.evaluate((s) => window.p2p.iceRequests(s), stayer),
    /** bye{ended:false}: the side that stays keeps its connection, without the feed. */
    async leave(): Promise<void> {
      await page.evaluate((s) => window.p2p.close(s, false), leaver);
      await call.waitForState(
        stayer,
        (s) => s.feeds.length === 0 && s.peerCall === 'Paused' && s.status === 'connected',
      );
    },
  };
}

test.afterEach(async ({ page }) => {
  await page.evaluate(() => window.p2p.closeAll()).catch(() => undefined);
});

test('two browsers connect straight: each sees the other, and the quality report says how', async ({
  page,
  harnessUrl,
}) => {
  const call = await openCall(page, harnessUrl);
  await call.connected();
  for (const side of ['agent', 'guest'] as const) {
    const state = await call.state(side);
    expect(state.feeds).toEqual([
      {
        janusId: 'p2p',
        display: other(side),
        onlyAudio: false,
        audioMuted: false,
        videoMuted: false,
      },
    ]);
    expect(state.streamsReady).toEqual({ local: true, remote: true });
    expect(state.stages).toMatchObject({ localStream: true, remoteStream: true });
    const report = await page.evaluate((s) => window.p2p.qualityReport(s), side);
    console.info(`${side} quality report: ${JSON.stringify(report)}`);
    expect(report.setupMs).toEqual(expect.any(Number));
    expect(report.localCandidateType).toBe('host');
    expect(['host', 'prflx']).toContain(report.remoteCandidateType);
    expect(report.relayProtocol).toBeNull();
    expect(report.packetsReceived).toBeGreaterThan(0);
  }
  expect((await call.state('agent')).stages.createOffer).toBe(true);
  expect((await call.state('guest')).stages.createAnswer).toBe(true);
});

test('a mute stops what the peer receives; unmuting brings it back', async ({
  page,
  harnessUrl,
}) => {
  const call = await openCall(page, harnessUrl);
  await call.connected();
  await page.evaluate(() => window.p2p.mute('guest', 'audio', true));
  expect((await call.state('guest')).local.audioMuted).toBe(true);
  await call.waitForState('agent', (s) => s.feeds[0]?.audioMuted === true);
  await call.stands('agent', (f) => f.audio.packets);
  // A muted microphone is not a hold: the video goes on.
  await call.waitForState('agent', (s) => s.feeds[0]?.videoMuted === false);
  await page.evaluate(() => window.p2p.mute('guest', 'audio', false));
  await call.waitForState('agent', (s) => s.feeds[0]?.audioMuted === false);
  await call.flowing('agent');

  await page.evaluate(() => window.p2p.mute('agent', 'video', true));
  await call.waitForState(
    'guest',
    (s) => s.feeds[0]?.videoMuted === true && s.peerVideo === 'Paused',
  );
  await call.stands('guest', (f) => f.video.frames);
  expect((await call.state('guest')).peerCall).toBe('Resumed');
  await page.evaluate(() => window.p2p.mute('agent', 'video', false));
  await call.waitForState('guest', (s) => s.peerVideo === 'Resumed');
  await call.flowing('guest');
});

for (const holder of ['agent', 'guest'] as const) {
  test(`hold by the ${holder}: no packets either way while held, media again after`, async ({
    page,
    harnessUrl,
  }) => {
    const call = await openCall(page, harnessUrl);
    await call.connected();
    await page.evaluate((s) => window.p2p.hold(s, true), holder);
    expect((await call.state(holder)).local.onHold).toBe(true);
    for (const side of ['agent', 'guest'] as const) {
      await call.stands(side, (f) => f.video.packets + f.audio.packets);
    }
    // The peer connection stays: a hold is no hang-up.
    await call.waitForState(other(holder), (s) => s.feeds.length === 1 && s.status === 'connected');
    await page.evaluate((s) => window.p2p.hold(s, false), holder);
    await call.connected();
  });
}

test('before it knows its peer, a session sends nothing and heeds nothing', async ({
  page,
  harnessUrl,
}) => {
  const call = await openCall(page, harnessUrl, {}, false);
  for (const side of ['agent', 'guest'] as const) {
    await call.waitForState(side, (s) => s.status === 'connected' && s.streamsReady.local);
  }
  // The peer-to-be's hello and bye, well formed and for this call: no peer yet, so dropped.
  const from = { callId: CALL_ID, session: 'guest-connection-1', to: null };
  await page.evaluate((f) => window.p2p.inject('guest', 'agent', { kind: 'hello', ...f }), from);
  await page.evaluate(
    (f) => window.p2p.inject('agent', 'guest', { kind: 'bye', ended: true, ...f }),
    from,
  );
  await expect.poll(() => page.evaluate(() => window.p2p.signalCount())).toBe(2);
  // An offer the agent made on that hello would be a third signal, and the bye would end the guest.
  await expect
    .poll(
      async () => {
        await page.waitForTimeout(1500);
        return page.evaluate(() => window.p2p.signalCount());
      },
      { intervals: [0] },
    )
    .toBe(2);
  expect((await call.state('guest')).status).toBe('connected');
  expect((await call.state('agent')).feeds).toEqual([]);

  await page.evaluate(() => window.p2p.introduce());
  await call.connected();
});

test('signals from a stranger, for another call, or to an old connection change nothing', async ({
  page,
  harnessUrl,
}) => {
  const call = await openCall(page, harnessUrl);
  await call.connected();
  const agentId = await page.evaluate(() => window.p2p.connectionId('agent'));
  const guestId = await page.evaluate(() => window.p2p.connectionId('guest'));
  const bye = { kind: 'bye', ended: true, callId: CALL_ID, session: agentId, to: guestId };
  const strangers: [string, Record<string, unknown>][] = [
    ['gmallorymallorymallorymall', bye],
    ['agent', { ...bye, callId: 'gabcdefghijklmnopqrstuvwxy--other' }],
    ['agent', { ...bye, to: 'an-old-connection' }],
  ];
  for (const [from, signal] of strangers) {
    await page.evaluate(([f, s]) => window.p2p.inject(f, 'guest', s), [from, signal] as const);
  }
  // An offer from a stranger must not replace the agent's connection either.
  const sdp = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';
  await page.evaluate(
    ([s, c]) =>
      window.p2p.inject('gmallorymallorymallorymall', 'guest', {
        kind: 'description',
        description: { type: 'offer', sdp: s },
        callId: c,
        session: 'mallorys-connection',
        to: null,
      }),
    [sdp, CALL_ID] as const,
  );
  await call.flowing('guest');
  await call.flowing('agent');
  const guest = await call.state('guest');
  expect(guest).toMatchObject({ status: 'connected', endReason: null, error: null });
  expect(guest.feeds).toHaveLength(1);
  expect(await page.evaluate(() => window.p2p.connectionId('guest'))).toBe(guestId);

  // The same bye from the agent's own connection is heeded: the test above could fail.
  await page.evaluate((s) => window.p2p.inject('agent', 'guest', s), bye);
  await call.waitForState('guest', (s) => s.status === 'closed' && s.endReason === 'roomDestroyed');
});

test('the agent hangs up: bye with ended ends the guest as a destroyed room', async ({
  page,
  harnessUrl,
}) => {
  const call = await openCall(page, harnessUrl);
  await call.connected();
  await page.evaluate(() => window.p2p.close('agent', true));
  await call.waitForState(
    'guest',
    (s) =>
      s.status === 'closed' &&
      s.endReason === 'roomDestroyed' &&
      s.feeds.length === 0 &&
      s.peerCall === 'Paused',
  );
  expect((await call.state('agent')).endReason).toBe('left');
});

for (const reloaded of ['guest', 'agent'] as const) {
  test(`a reloaded ${reloaded} page comes back on a fresh connection`, async ({
    page,
    harnessUrl,
  }) => {
    const call = await openCall(page, harnessUrl);
    await call.connected();
    const before = {
      agent: await page.evaluate(() => window.p2p.connectionId('agent')),
      guest: await page.evaluate(() => window.p2p.connectionId('guest')),
    };
    await page.evaluate((s) => window.p2p.reload(s), reloaded);
    await call.connected();
    const after = {
      agent: await page.evaluate(() => window.p2p.connectionId('agent')),
      guest: await page.evaluate(() => window.p2p.connectionId('guest')),
    };
    expect(after.agent).not.toBe(before.agent);
    expect(after.guest).not.toBe(before.guest);
    // The other side's call went on throughout: the path changed, the call did not end.
    expect(await call.state(other(reloaded))).toMatchObject({ status: 'connected', error: null });
  });
}

test('an ICE restart from either side: new credentials, media keeps flowing', async ({
  page,
  harnessUrl,
}) => {
  const call = await openCall(page, harnessUrl);
  await call.connected();
  for (const side of ['agent', 'guest'] as const) {
    const before = await page.evaluate((s) => window.p2p.iceUfrag(s), side);
    await page.evaluate((s) => window.p2p.restartIce(s), side);
    await expect.poll(() => page.evaluate((s) => window.p2p.iceUfrag(s), side)).not.toBe(before);
    await call.connected();
  }
});

test('a candidate the peer connection refuses is no error (around an ICE restart, a normal thing)', async ({
  page,
  harnessUrl,
}) => {
  const call = await openCall(page, harnessUrl, { debug: true });
  await call.connected();
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('candidate refused')) refusals.push(message.text());
  });
  const [sent] = await page.evaluate(() =>
    window.p2p
      .signalsFrom('agent', 'candidate')
      .filter((s) => s.kind === 'candidate' && s.candidate.candidate !== ''),
  );
  if (sent?.kind !== 'candidate') throw new Error('the agent sent no candidate');
  // The agent's candidate for a media section the description does not have.
  const refused = { ...sent, candidate: { ...sent.candidate, sdpMid: 'none', sdpMLineIndex: 9 } };
  await page.evaluate((signal) => window.p2p.inject('agent', 'guest', signal), refused);
  await expect.poll(() => refusals.length).toBeGreaterThan(0);
  expect(await call.state('guest')).toMatchObject({ status: 'connected', error: null });
  await call.flowing('guest');
});

test('after the guest says bye, the agent asks for ICE servers only once a page says hello', async ({
  page,
  harnessUrl,
}) => {
  const { call, asked, leave } = await callToLeave(page, harnessUrl, 'guest');
  const before = await asked();
  await leave();
  // After the call ended the API refuses ICE servers: a new link now would be asked in vain.
  expect(await asked()).toBe(before);
  await page.evaluate(() => window.p2p.reopen('guest'));
  await call.connected();
  expect(await asked()).toBe(before + 1);
  expect((await call.state('agent')).error).toBeNull();
});

test('after the agent says bye (a transfer), the guest asks for ICE servers and says hello only once an offer comes', async ({
  page,
  harnessUrl,
}) => {
  const { call, asked, leave } = await callToLeave(page, harnessUrl, 'agent');
  const hellos = () => page.evaluate(() => window.p2p.signalsFrom('guest', 'hello').length);
  const before = { asked: await asked(), hellos: await hellos() };
  // What the console does on a transfer: it leaves the call's media without ending the call.
  await leave();
  // The API refuses the ICE servers of the leg a transfer ended (409 call_over), and the old
  // agent's console has no session left to hear a hello.
  await page.waitForTimeout(1500);
  expect(await asked()).toBe(before.asked);
  expect(await hellos()).toBe(before.hellos);

  // An agent's console that takes the call up again offers: the guest answers on a new link.
  await page.evaluate(() => window.p2p.reopen('agent'));
  await call.connected();
  expect(await asked()).toBe(before.asked + 1);
  expect(await hellos()).toBe(before.hellos);
  expect((await call.state('guest')).error).toBeNull();
});
