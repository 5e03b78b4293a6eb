import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { authSlice } from '../features/auth/authSlice.ts';
import { availabilitySlice } from '../features/availability/availabilitySlice.ts';
import { callSlice } from '../features/call/callSlice.ts';
import { chatSlice, fileChosen } from '../features/chat/chatSlice.ts';
import { queueSlice } from '../features/queue/queueSlice.ts';
import type { ConsoleServices } from './services.ts';
import { startListeners } from './listeners.ts';

const rootReducer = combineReducers({
  [authSlice.name]: authSlice.reducer,
  [availabilitySlice.name]: availabilitySlice.reducer,
  [queueSlice.name]: queueSlice.reducer,
  [chatSlice.name]: chatSlice.reducer,
  [callSlice.name]: callSlice.reducer,
});
export type RootState = ReturnType<typeof rootReducer>;

/** One store per page; tests build their own with a starting state and their own services. */
export function createStore(services: ConsoleServices, preloaded?: Partial<RootState>) {
  const listeners = createListenerMiddleware({ extra: services });
  const store = configureStore({
    reducer: rootReducer,
    ...(preloaded ? { preloadedState: preloaded } : {}),
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: [fileChosen.type] } }).prepend(
        listeners.middleware,
      ),
  });
  startListeners(listeners.startListening.withTypes<RootState, AppDispatch, ConsoleServices>());
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
