import type { ListenerEffectAPI, TypedStartListening } from '@reduxjs/toolkit';
import { useDispatch, useSelector, useStore } from 'react-redux';
import type { ConsoleServices } from './services.ts';
import type { AppDispatch, AppStore, RootState } from './store.ts';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppStore = useStore.withTypes<AppStore>();

/** How features register their side effects: typed state, dispatch and services. */
export type AppStartListening = TypedStartListening<RootState, AppDispatch, ConsoleServices>;

/** What a listener's effect receives, for helpers that effects share. */
export type AppListenerApi = ListenerEffectAPI<RootState, AppDispatch, ConsoleServices>;
