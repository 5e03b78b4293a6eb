import { createAsyncThunk, type TypedStartListening } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { AppDispatch, RootState } from './store.ts';
import type { GuestServices } from './services.ts';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/** Thunks that see the typed state and reach the outside only through {@link GuestServices}. */
export const createAppThunk = createAsyncThunk.withTypes<{
  state: RootState;
  dispatch: AppDispatch;
  extra: GuestServices;
}>();

/** How a feature registers its listeners: typed state, dispatch and {@link GuestServices}. */
export type AppStartListening = TypedStartListening<RootState, AppDispatch, GuestServices>;
