import { describe, expect, it } from 'vitest';
import { captureChoice } from './captureChoice.ts';

describe('what the call captures', () => {
  it('uses the camera and microphone the guest picked in the preview', () => {
    expect(captureChoice({ cameraId: 'cam-2', microphoneId: 'mic-3' }, true)).toEqual({
      video: { camera: { deviceId: 'cam-2' } },
      audio: { deviceId: 'mic-3' },
    });
  });

  it('without a pick: the front camera where the company offers the back one, else defaults', () => {
    expect(captureChoice({ cameraId: null, microphoneId: null }, true)).toEqual({
      video: { camera: { facingMode: 'user' } },
    });
    expect(captureChoice({ cameraId: null, microphoneId: null }, false)).toEqual({});
  });
});
