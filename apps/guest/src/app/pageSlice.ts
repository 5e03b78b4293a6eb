import { createSlice } from '@reduxjs/toolkit';
import { DEFAULT_COMPANY_ID } from '@frontdesk/protocol';
import type { PageParams } from './page-params.ts';

const initialState: PageParams = {
  companyId: DEFAULT_COMPANY_ID,
  serviceType: 'Talk',
  webview: false,
  parentOrigin: null,
};

/** What the page's address said about this visit; fixed for the page's life. */
export const pageSlice = createSlice({ name: 'page', initialState, reducers: {} });
