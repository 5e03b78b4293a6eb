import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { company, renderWithState } from '../../test/render.tsx';
import { StageView } from '../../app/StageView.tsx';
import { NoticePage, type NoticeKind } from './NoticePage.tsx';

afterEach(cleanup);

describe('refusal stages', () => {
  const titles: [NoticeKind, string][] = [
    ['inactive', 'Calls are not available'],
    ['outOfQuota', 'We cannot take more calls this month'],
    ['blocked', 'Calls are not available'],
    ['bot', 'We could not verify your browser'],
    ['abandoned', 'You left the queue'],
  ];
  it.each(titles)(
    '%s tells the guest why, with the heading focused for screen readers',
    (kind, title) => {
      renderWithState(<NoticePage kind={kind} />, { company: { details: company() } });
      const heading = screen.getByRole('heading', { name: title });
      expect(document.activeElement).toBe(heading);
    },
  );

  const refusedMedia = {
    mediaEnabled: false,
    browserSupported: true,
    internetSupported: true,
    failurePage: 'disabledCamera' as const,
    cameraId: null,
    microphoneId: null,
    voiceOnly: false,
  };

  // Without a preview screen the camera is refused as the call sets up (callFlow.ts): the same page.
  it.each([
    [true, 'preview'],
    [false, 'selection'],
  ] as const)(
    'says a refused camera was refused, and offers a voice call where the company allows it (preview screen %s: on to %s)',
    (previewScreen, next) => {
      const { store } = renderWithState(<StageView />, {
        company: { details: company({ callType: 'userSelect', previewScreen }) },
        flow: { stage: 'unsupported', failure: null },
        browserCheck: refusedMedia,
      });
      expect(screen.getByRole('heading', { name: 'We cannot use your camera' })).toBeTruthy();
      expect(screen.queryByText(/This browser cannot make calls/)).toBeNull();
      expect(screen.getByText(/did not let this page use the camera/)).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Make a voice call instead' }));
      expect(store.getState().browserCheck.voiceOnly).toBe(true);
      expect(store.getState().flow.stage).toBe(next);
    },
  );

  it('offers no voice call where the company takes video calls only; Try again asks again', () => {
    const onRetryMedia = vi.fn();
    renderWithState(
      <NoticePage kind="unsupported" onRetryMedia={onRetryMedia} onVoiceCall={vi.fn()} />,
      {
        company: { details: company({ callType: 'video', previewScreen: true }) },
        browserCheck: refusedMedia,
      },
    );
    expect(screen.queryByRole('button', { name: 'Make a voice call instead' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetryMedia).toHaveBeenCalledOnce();
  });

  it('speaks of the microphone in a voice call', () => {
    renderWithState(<NoticePage kind="unsupported" />, {
      company: { details: company({ callType: 'voice' }) },
      browserCheck: refusedMedia,
    });
    expect(screen.getByRole('heading', { name: 'We cannot use your microphone' })).toBeTruthy();
  });

  it('a browser without WebRTC is told so', () => {
    renderWithState(<NoticePage kind="unsupported" />, {
      company: { details: company() },
      browserCheck: { ...refusedMedia, mediaEnabled: null, failurePage: 'noWebRTC' },
    });
    expect(screen.getByRole('heading', { name: 'This browser cannot make calls' })).toBeTruthy();
  });

  it('a location the browser did not share is not "outside our area"', () => {
    renderWithState(<NoticePage kind="outofzone" />, {
      company: { details: company({ outOfZoneMsg: 'UK only, sorry.' }) },
      geofence: { outsideGeofence: true, checkingFinished: true, reason: 'noLocation' },
    });
    expect(screen.getByRole('heading', { name: 'We need your location' })).toBeTruthy();
    expect(screen.queryByText('UK only, sorry.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('an unknown company link says so, with nothing to retry', () => {
    renderWithState(<NoticePage kind="failed" />, {
      flow: { stage: 'failed', failure: 'notFound' },
    });
    expect(screen.getByRole('heading', { name: 'We do not know this link' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('out of zone shows the company message and the area it serves', () => {
    renderWithState(<NoticePage kind="outofzone" />, {
      company: {
        details: company({ outOfZoneMsg: 'UK only, sorry.', locationOfService: 'Great Britain' }),
      },
    });
    expect(screen.getByText('UK only, sorry.')).toBeTruthy();
    expect(screen.getByText('We serve: Great Britain')).toBeTruthy();
  });

  it('a failed service says what happened and offers a retry', () => {
    renderWithState(<NoticePage kind="failed" />, {
      flow: { stage: 'failed', failure: 'unreachable' },
    });
    expect(screen.getByText(/could not reach our service/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
