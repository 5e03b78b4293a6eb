import { StrictMode, useSyncExternalStore } from 'react';
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
import { initialLanguage, subscribeLanguage } from './i18n/language.ts';
import { currentLanguage, switchLanguage } from './i18n/messages.ts';
import { UiProvider } from './ui/Toaster.tsx';
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

/**
 * The pages, drawn again from the top when the staff member changes the language (decision
 * 0029): every sentence is `t()`'s in the new language. The store, the calls and the chat go
 * on: they live outside these components.
 */
function Pages() {
  const language = useSyncExternalStore(subscribeLanguage, currentLanguage);
  return (
    <UiProvider key={language}>
      <RouterProvider router={router} />
    </UiProvider>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
// Arabic's catalogue comes before the first page, so no English flashes; a failed fetch leaves
// the console in English.
await switchLanguage(initialLanguage()).catch((error: unknown) => {
  console.warn('The console’s language could not be loaded', error);
});
createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <ServicesContext value={services}>
        <Pages />
      </ServicesContext>
    </Provider>
  </StrictMode>,
);
