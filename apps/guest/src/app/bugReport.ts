import { callBugBodySchema, formatCallId, routes } from '@frontdesk/protocol';
import { createAppThunk } from './hooks.ts';
import type { RootState } from './store.ts';
import { callSuffix } from '../features/guestAuth/identity.ts';
import { consoleLog } from '../features/diagnostics/logBuffer.ts';

/**
 * What a call-bug report carries (spec §3 "Call-bug report fields"); nothing private. `extra`
 * adds to the guest's state what the reporter knows besides (a crash's error).
 */
export function bugReport(state: RootState, callId: string, extra: Record<string, unknown> = {}) {
  return callBugBodySchema.parse({
    guest_log: consoleLog(),
    guest_state: {
      stage: state.flow.stage,
      call: state.call,
      chat: { ...state.chat, chatMessages: state.chat.chatMessages.length },
      report: state.report,
      ...extra,
    },
    guest_client_info: {
      userAgent: navigator.userAgent,
      language: navigator.language,
      online: navigator.onLine,
      screen: `${screen.width}x${screen.height}`,
    },
    call_id: callId,
    ...(state.guestAuth.username ? { guest_id: state.guestAuth.username } : {}),
  });
}

/** What the error boundary knows of a crash. */
export type Crash = {
  message: string;
  stack?: string | undefined;
  componentStack?: string | undefined;
};

const clip = (text: string | undefined) => text?.slice(0, 4000);

/**
 * Files a call-bug report for a page that crashed (issue 18: a friendly page instead of a white
 * one): under the guest's call when there is one, else under a new call id of the guest's, which
 * the API keeps without a call report. Answers whether it was sent; a guest not yet signed in has
 * nothing to send it with.
 */
export const reportCrash = createAppThunk(
  'diagnostics/reportCrash',
  async (crash: Crash, { getState, extra }): Promise<boolean> => {
    const state = getState();
    const { username, access_token: token } = state.guestAuth;
    if (!username || !token) return false;
    const callId = state.report.callID ?? formatCallId(username, callSuffix());
    const body = bugReport(state, callId, {
      crash: {
        message: clip(crash.message),
        stack: clip(crash.stack),
        componentStack: clip(crash.componentStack),
      },
    });
    await extra.api(routes.reportCallBug, { token, body });
    return true;
  },
);
