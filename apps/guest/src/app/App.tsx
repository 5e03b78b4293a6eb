import { useServiceStatus } from './useServiceStatus.ts';

/** The guest widget's shell; the call stages of the spec arrive with the guest-widget issue. */
export function App() {
  const status = useServiceStatus();
  return (
    <main className="page" data-testid="guest-page" data-service={status.state}>
      <h1>Talk to us</h1>
      {status.state === 'loading' && (
        <p role="status" aria-live="polite">
          Connecting…
        </p>
      )}
      {status.state === 'ready' && (
        <p role="status">We are here to help. Video and voice calls with our team.</p>
      )}
      {status.state === 'failed' && <p role="alert">{status.message}</p>}
    </main>
  );
}
