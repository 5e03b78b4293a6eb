import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { api, downloadFile } from './app/api.ts';
import { Connections } from './app/connections.ts';
import type { ConsoleServices } from './app/services.ts';
import { ServicesContext } from './app/servicesContext.ts';
import { CONSOLE_BASENAME, consoleRoutes } from './app/routes.tsx';
import { createStore } from './app/store.ts';
import { resumeRequested } from './features/auth/authSlice.ts';
import { browserRinger } from './features/queue/ringer.ts';
import './app/global.css';

const services: ConsoleServices = {
  api,
  downloadFile,
  loadChat: () => import('@frontdesk/chat'),
  loadMedia: () => import('@frontdesk/media'),
  connections: new Connections(),
  ringer: browserRinger(),
};
const store = createStore(services);
// A reload or a new tab resumes the sign-in its refresh cookie keeps (decision 0024).
store.dispatch(resumeRequested());
const router = createBrowserRouter(consoleRoutes, { basename: CONSOLE_BASENAME });

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <ServicesContext value={services}>
        <RouterProvider router={router} />
      </ServicesContext>
    </Provider>
  </StrictMode>,
);
