import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { company, renderWithState } from '../../test/render.tsx';
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

  it('explains a refused camera differently from a browser without WebRTC', () => {
    renderWithState(<NoticePage kind="unsupported" />, {
      company: { details: company() },
      browserCheck: {
        mediaEnabled: false,
        browserSupported: true,
        internetSupported: true,
        failurePage: 'disabledCamera',
      },
    });
    expect(screen.getByText(/could not use your camera or microphone/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
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
