import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportCallDetail } from '@frontdesk/protocol';
import {
  answer,
  fakeApi,
  refusal,
  renderRoute,
  signedIn,
  zoeLogin,
  type FakeAnswer,
} from '../../../test/render.tsx';
import { switchLanguage } from '../../../i18n/messages.ts';
import { callDetail } from '../reportFixtures.ts';

afterEach(async () => {
  cleanup();
  await switchLanguage('en');
});

const CALL_ID = callDetail.call.callId;
const DETAIL = `GET /reports/calls/${CALL_ID}`;

function openCall(answers: Record<string, FakeAnswer>) {
  const server = fakeApi(answers);
  renderRoute(`/console/reports/calls/${CALL_ID}`, signedIn(zoeLogin), { api: server.api });
  return server;
}

const section = (testId: string) => screen.getByTestId(testId);

describe('a call’s page', () => {
  it('shows the agent’s wrap-up: the outcome by its label and the follow-up', async () => {
    const [leg] = callDetail.legs;
    if (!leg) throw new Error('the fixture has a leg');
    const wrapped: ReportCallDetail = {
      ...callDetail,
      legs: [
        {
          ...leg,
          wrapUp: {
            outcomeCode: 'solved',
            outcomeLabel: 'Solved',
            followUp: true,
            followUpNote: 'Send the repair form',
          },
        },
      ],
    };
    openCall({ [DETAIL]: answer(wrapped) });
    const wrapUp = await screen.findByTestId('call-wrap-up', {}, { timeout: 5000 });
    expect(within(wrapUp).getByText('Outcome').nextSibling?.textContent).toBe('Solved');
    const followUp = within(wrapUp).getByText('Send the repair form');
    expect(within(wrapUp).getByText('Follow-up').nextSibling).toBe(followUp.parentElement);
    expect(followUp.tagName).toBe('BDI');
    expect(wrapUp.textContent).toContain('By Ada Agent (General)');
  });

  it('shows the call whole: summary, recording player, timeline, answers, notes, files, rating and quality', async () => {
    openCall({ [DETAIL]: answer(callDetail) });
    await screen.findByTestId('call-summary', {}, { timeout: 5000 });

    const summary = section('call-summary');
    expect(within(summary).getByText('Wait').nextSibling?.textContent).toBe('12 s');
    expect(within(summary).getByText('Guest').nextSibling?.textContent).toBe(
      'guest-8f2a (calls before: 2)',
    );
    expect(summary.textContent).toContain('Poor');
    // A recorded call went through the media server; a side reached it through a TURN relay.
    expect(within(summary).getByText('Method').nextSibling?.textContent).toBe('Media server');
    expect(within(summary).getByText('Path').nextSibling?.textContent).toBe('Relayed');

    const video = within(section('call-recordings')).getByTestId('recording-video');
    expect(video.tagName).toBe('VIDEO');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.getAttribute('src')).toBe(callDetail.recordings[0]?.url);
    expect(
      within(section('call-recordings')).getByTestId('recording-download').getAttribute('href'),
    ).toBe(
      `/api/reports/recordings/${CALL_ID}?company=12&admin=9&expires=1900000000&signature=abc&download=true`,
    );
    expect(section('call-recordings').textContent).toContain('5 min 48 s · 7 MB');

    const steps = within(section('call-timeline')).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([
      '09:14:00Guest started the call',
      '09:14:03Offered · Ada Agent',
      '09:14:12Answered · Ada Agent',
      '09:16:00Put on hold · Ada Agent',
      '09:20:00Ended · by the guest',
    ]);
    expect(section('call-welcome').textContent).toContain('Your nameGrace');
    expect(section('call-notes').textContent).toContain('Asked about the invoice of February.');
    expect(section('call-files').textContent).toContain('invoice.pdf');
    expect(section('call-rating').textContent).toContain('5 of 5');
    expect(section('call-rating').textContent).toContain('Was your problem solved?Yes');
    expect(section('call-bugs').textContent).toContain('The guest reported no problem.');

    // The guest's side lost 9 % of its packets over a 520 ms round trip: flagged, with why.
    const quality = within(section('call-quality')).getByRole('table');
    const [guest, agent] = within(quality).getAllByTestId('poor-reasons');
    expect(guest?.textContent).toBe('loss over 5 %, round trip over 400 ms');
    expect(agent?.textContent).toBe('—');
    expect(within(quality).getByRole('columnheader', { name: /Guest/ }).textContent).toContain(
      'Poor',
    );
    expect(within(quality).getByRole('columnheader', { name: /Agent/ }).textContent).toContain(
      'Good',
    );
  });

  it('in Arabic, keeps a note’s author and date apart, and what the agent or guest wrote in its own direction', async () => {
    await switchLanguage('ar');
    openCall({ [DETAIL]: answer(callDetail) });
    const notes = await screen.findByTestId('call-notes', {}, { timeout: 5000 });
    // Each value is isolated (FSI … PDI), so the bidi algorithm cannot run it into its neighbours.
    const [by] = within(notes).getAllByText(/Ada Agent/);
    expect(by?.textContent).toMatch(
      /^\u2068Ada Agent\u2069 · \u2068General\u2069 · \u2068[^\u2068\u2069]+\u2069$/,
    );
    expect(
      within(notes).getByText('Asked about the invoice of February.').getAttribute('dir'),
    ).toBe('auto');
    // The guest's answers, as they wrote them, each in its own direction.
    expect(within(section('call-welcome')).getByText('Grace').tagName).toBe('BDI');
    expect(within(section('call-rating')).getByText('Yes').tagName).toBe('BDI');
  });

  it('says where a transfer went, who ended the call and its rating in the console’s language', async () => {
    const ada = { id: 1, name: 'Ada Agent' };
    const moment = (at: string) => ({ at: `2026-03-02T${at}.000Z`, callId: CALL_ID });
    const told: ReportCallDetail = {
      ...callDetail,
      timeline: [
        {
          ...moment('09:15:00'),
          kind: 'transfer_requested',
          staff: ada,
          target: { type: 'agent', name: 'Bo Agent' },
        },
        {
          ...moment('09:15:10'),
          kind: 'transferred',
          staff: null,
          target: { type: 'category', name: null },
        },
        { ...moment('09:20:00'), kind: 'ended', staff: null, endedBy: 'agent' },
        { ...moment('09:20:00'), kind: 'rated', staff: null, rating: 4 },
      ],
    };
    const said = async () => {
      const timeline = await screen.findByTestId('call-timeline', {}, { timeout: 5000 });
      return Array.from(timeline.querySelectorAll('.timeline-what'), (what) => what.textContent);
    };

    openCall({ [DETAIL]: answer(told) });
    expect(await said()).toEqual([
      'Transfer asked · Ada Agent · to \u2068Bo Agent\u2069',
      'Transferred · to a category',
      'Ended · by the agent',
      'Rated · 4 of 5',
    ]);
    cleanup();

    await switchLanguage('ar');
    openCall({ [DETAIL]: answer(told) });
    expect(await said()).toEqual([
      'طُلب التحويل · Ada Agent · إلى \u2068Bo Agent\u2069',
      'حُوّلت · إلى فئة',
      'انتهت · بواسطة الموظف',
      'قُيّمت · 4 من ٥',
    ]);
  });

  it('tells a merge that is pending, failed or empty, and a call not recorded', async () => {
    const leg = (callId: string, changes: Partial<ReportCallDetail['recordings'][number]>) => ({
      callId,
      status: 'pending' as const,
      sizeBytes: null,
      durationMs: null,
      attempts: 1,
      error: null,
      url: null,
      ...changes,
    });
    openCall({
      [DETAIL]: answer({
        ...callDetail,
        recordings: [
          leg(CALL_ID, { status: 'pending' }),
          leg('leg-2', { status: 'failed', attempts: 3, error: 'ffmpeg exited with 1' }),
          leg('leg-3', { status: 'empty' }),
        ],
      }),
    });
    const recordings = await screen.findAllByTestId('recording', {}, { timeout: 5000 });
    expect(recordings.map((recording) => recording.textContent)).toEqual([
      'The recording is being merged (attempt 1); this page shows it when it is ready.',
      'The recording could not be merged (attempts: 3): ffmpeg exited with 1',
      'Nothing was recorded in this call.',
    ]);
    expect(screen.queryByTestId('recording-video')).toBeNull();

    cleanup();
    openCall({
      [DETAIL]: answer({
        ...callDetail,
        call: { ...callDetail.call, recorded: false },
        recordings: [],
      }),
    });
    const notRecorded = await screen.findByTestId('call-recordings', {}, { timeout: 5000 });
    expect(within(notRecorded).getByText('This call was not recorded.').className).toBe(
      'list-state-title',
    );
    expect(notRecorded.textContent).toContain('“Record calls” is on (Settings → Call)');
  });

  it('says a recorded call’s film is not listed yet, and checks again on request', async () => {
    const answers: Record<string, FakeAnswer> = {
      [DETAIL]: answer({ ...callDetail, recordings: [] }),
    };
    const server = openCall(answers);
    const recordings = await screen.findByTestId('call-recordings', {}, { timeout: 5000 });
    expect(within(recordings).getByText('The recording is not listed yet.').className).toBe(
      'list-state-title',
    );
    expect(recordings.textContent).toContain('A recording is listed once its call has ended.');
    answers[DETAIL] = answer(callDetail);
    fireEvent.click(within(recordings).getByRole('button', { name: 'Check again' }));
    expect(await screen.findByTestId('recording-video')).toBeTruthy();
    expect(server.requests.filter((request) => request.route === DETAIL)).toHaveLength(2);
  });

  it('follows a merge that is running until its film is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const [ready] = callDetail.recordings;
      if (!ready) throw new Error('a recording expected');
      const pending = { ...ready, status: 'pending' as const, url: null, sizeBytes: null };
      const answers: Record<string, FakeAnswer> = {
        [DETAIL]: answer({ ...callDetail, recordings: [pending] }),
      };
      const server = openCall(answers);
      await screen.findByText(/is being merged/, {}, { timeout: 5000 });
      answers[DETAIL] = answer(callDetail);
      await vi.advanceTimersByTimeAsync(5_000);
      expect((await screen.findByTestId('recording-video')).getAttribute('src')).toBe(ready.url);
      // Once it is ready the page stops asking.
      await vi.advanceTimersByTimeAsync(15_000);
      expect(server.requests.filter((request) => request.route === DETAIL)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers a fresh link when the player cannot play its signed one', async () => {
    const answers: Record<string, FakeAnswer> = { [DETAIL]: answer(callDetail) };
    const server = openCall(answers);
    const video = await screen.findByTestId('recording-video', {}, { timeout: 5000 });
    fireEvent.error(video);
    expect(screen.getByRole('alert').textContent).toContain('its link may have run out');

    const fresh = `/api/reports/recordings/${CALL_ID}?company=12&admin=9&expires=1900000600&signature=new`;
    const [recording] = callDetail.recordings;
    if (!recording) throw new Error('a recording expected');
    answers[DETAIL] = answer({ ...callDetail, recordings: [{ ...recording, url: fresh }] });
    fireEvent.click(screen.getByRole('button', { name: 'Get a new link' }));
    await waitFor(() =>
      expect(screen.getByTestId('recording-video').getAttribute('src')).toBe(fresh),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(server.requests.filter((request) => request.route === DETAIL)).toHaveLength(2);
  });

  it('tells why a call could not be loaded', async () => {
    openCall({ [DETAIL]: refusal(404, 'not_found', 'No such call.') });
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toContain(
      'The call could not be loaded: No such call.',
    );
  });
});
