import { describe, expect, it } from 'vitest';
import { ApiRequestError, UPLOAD_LIMIT_BYTES } from '@frontdesk/protocol';
import { translate } from '../i18n/messages.ts';
import { describeUploadProblem, uploadFile, uploadProblemOf } from './upload.ts';

const t = (key: Parameters<typeof translate>[1], values: Record<string, string>) =>
  translate('en', key, values);

describe('why an upload failed', () => {
  it('names the limit of a file too large, before sending it', async () => {
    const video = new File([''], 'holiday.mp4', { type: 'video/mp4' });
    Object.defineProperty(video, 'size', { value: UPLOAD_LIMIT_BYTES.video + 1 });
    const error = await uploadFile(video, {
      companyId: 5,
      token: 'token',
      onProgress: () => undefined,
    }).catch((e: unknown) => e);
    expect(describeUploadProblem(t, uploadProblemOf(error, video), video.name)).toBe(
      'holiday.mp4 is too large: files of this type can be up to 50 MB.',
    );
  });

  it('tells a type the API refuses and a lost connection apart from other failures', () => {
    const file = new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' });
    const say = (error: unknown) =>
      describeUploadProblem(t, uploadProblemOf(error, file), file.name);
    expect(say(new ApiRequestError(415, 'unsupported_file', 'no'))).toBe(
      'setup.exe is not a file type we accept.',
    );
    expect(say(new ApiRequestError(0, 'network', 'offline'))).toBe(
      'Could not send setup.exe: check your connection and try again.',
    );
    expect(say(new ApiRequestError(500, 'internal', 'boom'))).toBe('Could not send setup.exe.');
  });
});
