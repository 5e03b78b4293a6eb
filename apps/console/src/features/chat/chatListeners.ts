import { routes, type UploadType } from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import { describeError } from '../../app/errors.ts';
import { t } from '../../i18n/messages.ts';
import {
  fileChosen,
  messageSubmitted,
  sendFailed,
  uploadFailed,
  uploadFinished,
} from './chatSlice.ts';

/** spec §7 upload types by MIME family; the API checks the bytes, this only picks the route. */
function uploadTypeOf(file: File): UploadType {
  const family = file.type.split('/')[0];
  return family === 'image' || family === 'video' || family === 'audio' ? family : 'document';
}

export function chatListeners(startListening: AppStartListening): void {
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

  // A file is uploaded through the API first, then sent as a file message (spec §7).
  startListening({
    actionCreator: fileChosen,
    effect: async (action, { dispatch, getState, extra }) => {
      const { file, to } = action.payload;
      const login = getState().auth.login;
      if (!login) return;
      const type = uploadTypeOf(file);
      const form = new FormData();
      form.append('companyId', String(login.user.companyId));
      form.append(type, file, file.name);
      try {
        const { data } = await extra.api(routes.upload, {
          params: { type },
          form,
          token: login.access_token,
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
        dispatch(uploadFailed(t('uploadFailed', { reason: describeError(error) })));
      }
    },
  });
}
