import * as RadixToast from '@radix-ui/react-toast';
import { useSyncExternalStore, type ReactNode } from 'react';
import { t } from '../i18n/messages.ts';
import { currentToasts, dismissToast, subscribeToasts } from './toast.ts';
import './primitives.css';

/** The toasts `notify()` asked for, in a live region the agent can reach with F8. */
function Toasts() {
  const toasts = useSyncExternalStore(subscribeToasts, currentToasts);
  return (
    <>
      {toasts.map((toast) => (
        <RadixToast.Root
          key={toast.id}
          className="toast"
          data-tone={toast.tone}
          data-testid="toast"
          // An error is said at once; information waits for the screen reader's pause.
          type={toast.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => !open && dismissToast(toast.id)}
        >
          <RadixToast.Description>{toast.message}</RadixToast.Description>
          <RadixToast.Close className="toast-close secondary" aria-label={t('dismiss')}>
            <span aria-hidden="true">×</span>
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="toasts" label={t('toastRegion')} />
    </>
  );
}

/** The page's toasts (decision 0028): mounted once around the pages. */
export function UiProvider({ children }: { children: ReactNode }) {
  return (
    <RadixToast.Provider duration={6000} label={t('toastLabel')}>
      {children}
      <Toasts />
    </RadixToast.Provider>
  );
}
