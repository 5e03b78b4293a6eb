import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { browserCheckSlice } from '../features/browserCheck/browserCheckSlice.ts';
import { callSlice } from '../features/call/callSlice.ts';
import { chatRoomSlice } from '../features/chat/chatRoomSlice.ts';
import { chatSlice } from '../features/chat/chatSlice.ts';
import { companySlice } from '../features/company/companySlice.ts';
import { embedSlice } from '../embed/embedSlice.ts';
import { flowSlice } from '../features/flow/flowSlice.ts';
import { geofenceSlice } from '../features/geofence/geofenceSlice.ts';
import { guestAuthSlice } from '../features/guestAuth/guestAuthSlice.ts';
import { reportSlice } from '../features/report/reportSlice.ts';
import { startListeners } from './listener.ts';
import type { PageParams } from './page-params.ts';
import type { GuestServices } from './services.ts';
import { pageSlice } from './pageSlice.ts';

const rootReducer = combineReducers({
  [pageSlice.name]: pageSlice.reducer,
  [flowSlice.name]: flowSlice.reducer,
  [companySlice.name]: companySlice.reducer,
  [guestAuthSlice.name]: guestAuthSlice.reducer,
  [browserCheckSlice.name]: browserCheckSlice.reducer,
  [geofenceSlice.name]: geofenceSlice.reducer,
  [reportSlice.name]: reportSlice.reducer,
  [chatRoomSlice.name]: chatRoomSlice.reducer,
  [callSlice.name]: callSlice.reducer,
  [chatSlice.name]: chatSlice.reducer,
  [embedSlice.name]: embedSlice.reducer,
});
export type RootState = ReturnType<typeof rootReducer>;

/** One store per page; tests build their own with a starting state and their own services. */
export function createStore(
  page: PageParams,
  services: GuestServices,
  preloaded?: Partial<RootState>,
) {
  const listeners = createListenerMiddleware({ extra: services });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: { ...preloaded, page: preloaded?.page ?? page },
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: services } }).prepend(listeners.middleware),
  });
  startListeners(listeners.startListening.withTypes<RootState, AppDispatch, GuestServices>());
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
