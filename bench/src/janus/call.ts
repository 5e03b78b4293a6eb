import { MediaStreamTrack, RTCPeerConnection, useOPUS, useVP8 } from 'werift';
import {
  VIDEOROOM_PLUGIN,
  type JanusHandle,
  type JanusSession,
  type Jsep,
} from '@frontdesk/media/server';
import { AUDIO_FRAME_MS, packetizeVp8, RtpStream, VIDEO_FPS, type Clip } from './media.ts';

/**
 * Counts the packets of one received RTP stream: loss over a window is the growth of the
 * highest (wrap-extended) sequence number minus the packets that arrived meanwhile.
 */
export class LossCounter {
  private received = 0;
  private highest = -1;

  record(sequenceNumber: number): void {
    this.received += 1;
    if (this.highest < 0) {
      this.highest = sequenceNumber;
      return;
    }
    // The candidate nearest to the highest so far, across the 16-bit wrap.
    const base = this.highest - (this.highest & 0xffff);
    const candidates = [base - 0x10000, base, base + 0x10000].map((b) => b + sequenceNumber);
    const extended = candidates.reduce((best, c) =>
      Math.abs(c - this.highest) < Math.abs(best - this.highest) ? c : best,
    );
    this.highest = Math.max(this.highest, extended);
  }

  snapshot(): { received: number; highest: number } {
    return { received: this.received, highest: this.highest };
  }
}

/**
 * One clock for every publisher of a generator process: each due frame is packetised once and
 * the same packets are written into every track (each sender rewrites SSRC, payload type and
 * offsets), so the generator never encodes and its cost grows only with the packets it sends.
 */
export class MediaClock {
  private readonly audio = new Set<MediaStreamTrack>();
  private readonly video = new Set<MediaStreamTrack>();
  private readonly audioStream = new RtpStream();
  private readonly videoStream = new RtpStream();
  private readonly startedAt = performance.now();
  private audioFrames = 0;
  private videoFrames = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly clip: Clip) {
    this.timer = setInterval(() => this.tick(), 5);
  }

  feed(audio: MediaStreamTrack, video: MediaStreamTrack): void {
    this.audio.add(audio);
    this.video.add(video);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    const elapsed = performance.now() - this.startedAt;
    for (; this.audioFrames * AUDIO_FRAME_MS <= elapsed; this.audioFrames += 1) {
      const frame = this.clip.audio[this.audioFrames % this.clip.audio.length] as Buffer;
      const packet = this.audioStream.packet(frame, this.audioFrames * AUDIO_FRAME_MS * 48, false);
      for (const track of this.audio) track.writeRtp(packet);
    }
    for (; (this.videoFrames * 1000) / VIDEO_FPS <= elapsed; this.videoFrames += 1) {
      const frame = this.clip.video[this.videoFrames % this.clip.video.length] as Buffer;
      const payloads = packetizeVp8(frame, this.videoFrames & 0x7fff);
      const timestamp = (this.videoFrames * 90_000) / VIDEO_FPS;
      const packets = payloads.map((payload, i) =>
        this.videoStream.packet(payload, timestamp, i === payloads.length - 1),
      );
      for (const track of this.video) for (const packet of packets) track.writeRtp(packet);
    }
  }
}

/** werift as a browser would be configured here: VP8 and Opus, candidates on the veth pair. */
function newPeer(): RTCPeerConnection {
  return new RTCPeerConnection({
    codecs: { audio: [useOPUS()], video: [useVP8()] },
    // werift skips interfaces named veth*: the namespace's only address must be given.
    iceAdditionalHostAddresses: ['10.200.0.1'],
    iceUseIpv6: false,
  });
}

/** Non-trickle ICE: the description is sent once every candidate is in it. */
async function gathered(pc: RTCPeerConnection): Promise<string> {
  if (pc.iceGatheringState !== 'complete') {
    await pc.iceGatheringStateChange.watch((state) => state === 'complete', 10_000);
  }
  const sdp = pc.localDescription?.sdp;
  if (!sdp) throw new Error('no local description');
  return sdp;
}

type Participant = {
  session: JanusSession;
  feedId: string;
  privateId: number;
  peers: RTCPeerConnection[];
  received: LossCounter[];
};

/**
 * How a participant enters a room the API made (docs/protocol.md): the call's pin, lowercased as
 * the apps send it, and its own token from the room's `allowed` list.
 */
export type RoomEntry = { pin: string; token: string };

const entering = (entry: RoomEntry | undefined) =>
  entry ? { pin: entry.pin.toLowerCase(), token: entry.token } : {};

async function publish(
  session: JanusSession,
  handle: JanusHandle,
  room: string,
  display: string,
  clock: MediaClock,
  entry: RoomEntry | undefined,
): Promise<Participant> {
  const { data } = await handle.message({
    request: 'join',
    ptype: 'publisher',
    room,
    display,
    ...entering(entry),
  });
  const pc = newPeer();
  const audio = new MediaStreamTrack({ kind: 'audio' });
  const video = new MediaStreamTrack({ kind: 'video' });
  pc.addTransceiver(audio, { direction: 'sendonly' });
  pc.addTransceiver(video, { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const offer: Jsep = { type: 'offer', sdp: await gathered(pc) };
  const { jsep } = await handle.message({ request: 'configure', audio: true, video: true }, offer);
  if (!jsep) throw new Error('publisher got no answer');
  await pc.setRemoteDescription(jsep);
  await handle.webrtcUp();
  clock.feed(audio, video);
  return {
    session,
    feedId: String(data.id),
    privateId: Number(data.private_id),
    peers: [pc],
    received: [],
  };
}

async function subscribe(
  me: Participant,
  room: string,
  feed: string,
  entry: RoomEntry | undefined,
): Promise<void> {
  const handle = await me.session.attach(VIDEOROOM_PLUGIN);
  const { jsep } = await handle.message({
    request: 'join',
    ptype: 'subscriber',
    room,
    streams: [{ feed }],
    private_id: me.privateId,
    ...(entry ? { pin: entry.pin.toLowerCase() } : {}),
  });
  if (!jsep) throw new Error('subscriber got no offer');
  const pc = newPeer();
  me.peers.push(pc);
  const firstPackets: Promise<void>[] = [];
  const tracksArrived = new Promise<void>((resolve) => {
    pc.onTrack.subscribe((track) => {
      const counter = new LossCounter();
      me.received.push(counter);
      firstPackets.push(
        new Promise((arrived) =>
          track.onReceiveRtp.subscribe((rtp) => {
            counter.record(rtp.header.sequenceNumber);
            arrived();
          }),
        ),
      );
      if (firstPackets.length === 2) resolve();
    });
  });
  await pc.setRemoteDescription(jsep);
  await pc.setLocalDescription(await pc.createAnswer());
  await handle.message({ request: 'start' }, { type: 'answer', sdp: await gathered(pc) });
  await tracksArrived;
  await Promise.all(firstPackets);
}

/** A 1:1 call as the apps make it: one room, two publishers, each subscribed to the other. */
export type Call = {
  /** One counter per received stream (audio and video of each side). */
  received: LossCounter[][];
  sessions: JanusSession[];
  close: () => Promise<void>;
};

/**
 * How the room of a call comes to be: made here with the admin key (and destroyed after), or
 * made by the API, which each side enters with its own {@link RoomEntry}.
 */
export type RoomSource = { adminKey: string } | { entries: readonly [RoomEntry, RoomEntry] };

/**
 * Sets up one call in `room`: both sides join and publish, then each subscribes to the other;
 * resolves once media flows on all four streams. `open(side)` opens each side's Janus session.
 */
export async function setUpCall(
  open: (side: 0 | 1) => Promise<JanusSession>,
  source: RoomSource,
  room: string,
  clock: MediaClock,
): Promise<Call> {
  const sessions = await Promise.all([open(0), open(1)]);
  const participants: Participant[] = [];
  let roomHandle: JanusHandle | undefined;
  const entries = 'entries' in source ? source.entries : [undefined, undefined];
  const close = async () => {
    for (const participant of participants) for (const pc of participant.peers) await pc.close();
    if ('adminKey' in source) {
      await roomHandle?.message({ request: 'destroy', room }).catch(() => undefined);
    }
    await Promise.all(sessions.map((session) => session.destroy()));
  };
  try {
    const handles = await Promise.all(sessions.map((session) => session.attach(VIDEOROOM_PLUGIN)));
    roomHandle = handles[0] as JanusHandle;
    if ('adminKey' in source) {
      await roomHandle.message({
        request: 'create',
        room,
        admin_key: source.adminKey,
        publishers: 2,
      });
    }
    for (const [i, session] of sessions.entries()) {
      participants.push(
        await publish(session, handles[i] as JanusHandle, room, `p${i}`, clock, entries[i]),
      );
    }
    const [a, b] = participants as [Participant, Participant];
    await Promise.all([
      subscribe(a, room, b.feedId, entries[0]),
      subscribe(b, room, a.feedId, entries[1]),
    ]);
    return { received: [a.received, b.received], sessions, close };
  } catch (error) {
    await close();
    throw error;
  }
}
