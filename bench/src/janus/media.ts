import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { RtpHeader, RtpPacket } from 'werift';
import { cacheDir } from '../paths.ts';

export const VIDEO_FPS = 30;
export const VIDEO_KBPS = 500;
export const AUDIO_KBPS = 48;
/** Opus frames of 20 ms, at the 48 kHz RTP clock of Opus. */
export const AUDIO_FRAME_MS = 20;
/** RTP payload budget per packet: below any path MTU once SRTP and headers are added. */
const MAX_PAYLOAD = 1200;

/** Pre-encoded frames, looped by the load generator: nobody encodes while it runs. */
export type Clip = { video: Buffer[]; audio: Buffer[] };

/**
 * Makes the clip once with ffmpeg (VP8 in IVF, Opus in Ogg) into bench/.cache: 10 s of a moving
 * test pattern with noise, so the encoder really spends ~500 kbit/s, and a tone.
 */
export function ensureClipFiles(): { ivf: string; ogg: string } {
  mkdirSync(cacheDir, { recursive: true });
  const ivf = join(cacheDir, `clip-vp8-${VIDEO_KBPS}k.ivf`);
  const ogg = join(cacheDir, `clip-opus-${AUDIO_KBPS}k.ogg`);
  const encode = (output: string, args: string[]) => {
    if (existsSync(output)) return;
    // Written under another name and renamed, so a killed run never leaves half a file behind.
    const partial = `${output}.partial`;
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, partial]);
    renameSync(partial, output);
  };
  const rate = `${VIDEO_KBPS}k`;
  encode(ivf, [
    ...['-f', 'lavfi', '-i', `testsrc2=size=640x480:rate=${VIDEO_FPS},noise=alls=12:allf=t`],
    ...['-t', '10', '-c:v', 'libvpx', '-b:v', rate, '-minrate', rate, '-maxrate', rate],
    ...['-bufsize', `${VIDEO_KBPS / 2}k`, '-g', String(VIDEO_FPS * 2), '-deadline', 'realtime'],
    ...['-cpu-used', '8', '-f', 'ivf'],
  ]);
  encode(ogg, [
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '10', '-ac', '2'],
    ...['-c:a', 'libopus', '-b:a', `${AUDIO_KBPS}k`, '-frame_duration', String(AUDIO_FRAME_MS)],
    ...['-f', 'ogg'],
  ]);
  return { ivf, ogg };
}

/** The frames of an IVF file: a 32-byte file header, then per frame a 12-byte header and data. */
export function readIvfFrames(file: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = file.readUInt16LE(6); at + 12 <= file.length;) {
    const size = file.readUInt32LE(at);
    frames.push(file.subarray(at + 12, at + 12 + size));
    at += 12 + size;
  }
  return frames;
}

/**
 * The Opus packets of an Ogg file (RFC 3533 pages, RFC 7845 mapping): segments are joined until a
 * lacing value below 255 ends a packet; the first two packets are the OpusHead and OpusTags
 * headers, not audio.
 */
export function readOggOpusPackets(file: Buffer): Buffer[] {
  const packets: Buffer[] = [];
  let pending: Buffer[] = [];
  for (let at = 0; at + 27 <= file.length && file.toString('latin1', at, at + 4) === 'OggS';) {
    const segments = file.readUInt8(at + 26);
    let data = at + 27 + segments;
    for (let i = 0; i < segments; i += 1) {
      const lacing = file.readUInt8(at + 27 + i);
      pending.push(file.subarray(data, data + lacing));
      data += lacing;
      if (lacing < 255) {
        packets.push(Buffer.concat(pending));
        pending = [];
      }
    }
    at = data;
  }
  return packets.slice(2);
}

export function loadClip(): Clip {
  const { ivf, ogg } = ensureClipFiles();
  return {
    video: readIvfFrames(readFileSync(ivf)),
    audio: readOggOpusPackets(readFileSync(ogg)),
  };
}

/**
 * RFC 7741 payloads of one VP8 frame: each starts with the payload descriptor, X=1 with a 15-bit
 * picture id (I=1, M=1) as browsers send it, S=1 on the first packet of the frame (PID 0).
 */
export function packetizeVp8(frame: Buffer, pictureId: number): Buffer[] {
  const descriptorSize = 4;
  const payloads: Buffer[] = [];
  for (let at = 0; at < frame.length; at += MAX_PAYLOAD - descriptorSize) {
    const chunk = frame.subarray(at, at + MAX_PAYLOAD - descriptorSize);
    const descriptor = Buffer.from([
      0x80 | (at === 0 ? 0x10 : 0),
      0x80,
      0x80 | ((pictureId >> 8) & 0x7f),
      pictureId & 0xff,
    ]);
    payloads.push(Buffer.concat([descriptor, chunk]));
  }
  return payloads;
}

/** Numbers the packets of one outgoing stream; every sender rewrites SSRC and payload type. */
export class RtpStream {
  private sequenceNumber = 0;

  packet(payload: Buffer, timestamp: number, marker: boolean): Buffer {
    this.sequenceNumber = (this.sequenceNumber + 1) & 0xffff;
    const header = new RtpHeader({
      sequenceNumber: this.sequenceNumber,
      timestamp: timestamp >>> 0,
      marker,
      payloadType: 96,
    });
    return new RtpPacket(header, payload).serialize();
  }
}
