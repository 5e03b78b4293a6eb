import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CompanyDetails } from '@frontdesk/protocol';

export type CompanyState = { details: CompanyDetails | null };

const initialState: CompanyState = { details: null };

/** spec §3 "Company details": the settings and branding that shape every screen. */
export const companySlice = createSlice({
  name: 'company',
  initialState,
  reducers: {
    companyLoaded(state, action: PayloadAction<CompanyDetails>) {
      state.details = action.payload;
    },
  },
});

export const { companyLoaded } = companySlice.actions;
