import { describe, expect, it } from 'vitest';
import { captureConstraints, videoConstraints } from './tracks.ts';

describe('captureConstraints (spec §5)', () => {
  it('asks for audio and video in a video call, audio alone in a voice call', () => {
    expect(captureConstraints({ callType: 'video' })).toEqual({
      audio: true,
      video: { width: { ideal: 640 }, height: { ideal: 480 } },
    });
    expect(captureConstraints({ callType: 'voice' })).toEqual({ audio: true, video: false });
  });

  it('uses the spec §9 presets, devices and the back camera', () => {
    expect(
      videoConstraints({ preset: 'hdres', camera: { deviceId: 'cam2' }, framerate: 15 }),
    ).toEqual({
      width: { ideal: 1280 },
      height: { ideal: 720 },
      deviceId: { exact: 'cam2' },
      frameRate: { max: 15 },
    });
    expect(
      videoConstraints({ preset: 'lowres-16:9', camera: { facingMode: 'environment' } }),
    ).toEqual({
      width: { ideal: 320 },
      height: { ideal: 180 },
      facingMode: { ideal: 'environment' },
    });
  });

  it('rejects negative or non-numeric bitrate and framerate, and unknown presets', () => {
    for (const video of [{ bitrate: -1 }, { framerate: -5 }, { bitrate: Number.NaN }]) {
      expect(() => captureConstraints({ callType: 'video', video })).toThrow(
        expect.objectContaining({ code: 'invalidArgument' }),
      );
    }
    expect(() =>
      captureConstraints({ callType: 'video', video: { preset: 'huge' as 'hdres' } }),
    ).toThrow(/unknown video preset/);
    expect(
      captureConstraints({ callType: 'video', video: { bitrate: 0, framerate: 0 } }),
    ).toBeTruthy();
  });
});
