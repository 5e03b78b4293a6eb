import { ApiRequestError, routes, UPLOAD_LIMIT_BYTES, uploadTypeOfMime } from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import { describeError } from '../../app/errors.ts';
import { t } from '../../i18n/messages.ts';
import { sessionEnded, workspaceLoaded } from '../auth/authSlice.ts';
import { selectAvailability, SHOW_OF } from '../availability/availabilitySlice.ts';
import {
  chatFailed,
  chatRoomChanged,
  chatStatusChanged,
  fileChosen,
  messageDeliveryChanged,
  messageReceived,
  messageSeen,
  messageSubmitted,
  peerTypingChanged,
  roomJoinFailed,
  sendFailed,
  serverNoticeReceived,
  typingChanged,
  uploadFailed,
  uploadFinished,
  uploadProgressed,
} from './chatSlice.ts';

const MB = 1024 * 1024;

/** Why a file was not sent, in words the agent can act on: too large, offline, or the API's. */
export function uploadProblem(error: unknown, file: File): string {
  const max = UPLOAD_LIMIT_BYTES[uploadTypeOfMime(file.type)] / MB;
  if (error instanceof ApiRequestError && error.status === 413) {
    return t('uploadTooLarge', { name: file.name, max });
  }
  if (error instanceof ApiRequestError && error.status === 0) {
    return t('uploadOffline', { name: file.name });
  }
  return t('uploadFailed', { reason: describeError(error) });
}

export function chatListeners(startListening: AppStartListening): void {
  // After sign-in: the chat session (lazy-loaded), its events as this feature's actions, then the
  // rooms the login names (the company's).
  startListening({
    actionCreator: workspaceLoaded,
    effect: async (action, { dispatch, getState, extra }) => {
      const { login } = getState().auth;
      if (!login) return;
      const { ChatSession } = await extra.loadChat();
      const chat = new ChatSession({
        url: action.payload.config.xmppWebsocketUrl,
        jid: login.xmpp.jid,
        token: login.xmpp.password,
        sender: 'AGENT',
        // docs/protocol.md: a resource of its own per tab, so the agent's tabs do not replace
        // each other (guests keep spec §9's one resource). Unique, not secret.
        resource: `web-${Math.random().toString(36).slice(2, 10)}`,
      });
      chat.setAvailability(SHOW_OF[selectAvailability(getState())]);
      extra.connections.chat = chat;
      chat.on('status', (status) => dispatch(chatStatusChanged(status)));
      chat.on('error', (error) => {
        // The API ended this member's chat because their sign-in ended (deactivated, password
        // reset, signed out elsewhere): the whole console signs out, not only the chat.
        if (error.code === 'signed-out') {
          void extra.connections.closeAll();
          dispatch(sessionEnded(t('sessionEnded')));
          return;
        }
        dispatch(chatFailed(describeError(error)));
      });
      chat.on('room', (snapshot) => dispatch(chatRoomChanged(snapshot)));
      chat.on('message', (record) => dispatch(messageReceived(record)));
      chat.on('serverNotice', (body) => dispatch(serverNoticeReceived(body)));
      chat.on('delivery', (change) => dispatch(messageDeliveryChanged(change)));
      chat.on('chatState', (change) => dispatch(peerTypingChanged(change)));
      try {
        await chat.connect();
      } catch (error) {
        dispatch(chatFailed(describeError(error)));
        return;
      }
      await Promise.all(
        login.rooms.map((room) =>
          chat
            .joinRoom(room.jid, { nick: chat.username, password: room.password })
            .catch((error: unknown) =>
              dispatch(roomJoinFailed({ jid: room.jid, message: describeError(error) })),
            ),
        ),
      );
    },
  });

  startListening({
    actionCreator: messageSubmitted,
    effect: (action, { dispatch, extra }) => {
      try {
        if (!extra.connections.chat) throw new Error(t('chat_closed'));
        extra.connections.chat.sendMessage(action.payload.to, action.payload.text);
      } catch (error) {
        dispatch(sendFailed(describeError(error)));
      }
    },
  });

  // XEP-0085 and XEP-0333: what the agent's chat tells the guest besides its messages. Offline,
  // the session drops them (a stale "typing" is worse than none).
  startListening({
    actionCreator: typingChanged,
    effect: ({ payload }, { extra }) =>
      extra.connections.chat?.sendChatState(payload.to, payload.state),
  });
  startListening({
    actionCreator: messageSeen,
    effect: ({ payload }, { extra }) => extra.connections.chat?.markDisplayed(payload),
  });

  // A file is uploaded through the API first (its progress shown), then sent as a file message
  // (spec §7). A file over the type's limit is refused here, before its bytes travel.
  startListening({
    actionCreator: fileChosen,
    effect: async (action, { dispatch, getState, extra }) => {
      const { file, to } = action.payload;
      const login = getState().auth.login;
      if (!login) return;
      const type = uploadTypeOfMime(file.type);
      if (file.size > UPLOAD_LIMIT_BYTES[type]) {
        dispatch(uploadFailed(uploadProblem(new ApiRequestError(413, 'file_too_large', ''), file)));
        return;
      }
      const form = new FormData();
      form.append('companyId', String(login.user.companyId));
      // A file sent to the guest of the call in progress goes with that guest's data (its export
      // and erasure, decision 0032): the API ties it to the call the agent names.
      const { call, phase } = getState().call;
      if (call?.guestJabberUsername === to && (phase === 'connecting' || phase === 'active')) {
        form.append('callId', call.callId);
      }
      form.append(type, file, file.name);
      try {
        const { data } = await extra.api(routes.upload, {
          params: { type },
          form,
          token: login.access_token,
          onUploadProgress: (fraction) => dispatch(uploadProgressed(fraction)),
        });
        if (!extra.connections.chat) throw new Error(t('chat_closed'));
        extra.connections.chat.sendMessage(to, {
          url: data.fileUrl,
          name: file.name,
          size: data.size,
          type: data.contentType,
        });
        dispatch(uploadFinished());
      } catch (error) {
        dispatch(uploadFailed(uploadProblem(error, file)));
      }
    },
  });
}
