/**
 * Transient messages for the agent (decision 0028): `notify()` from anywhere — a component, a
 * listener, a slice's effect — and the Toaster in the page shows it for a few seconds. Errors
 * that need the agent to act stay in the page instead; a toast is for what passes (a save that
 * failed and will be retried, a device that went away).
 */
export interface Toast {
  id: number;
  message: string;
  tone: 'error' | 'info';
}

type Listener = (toasts: readonly Toast[]) => void;
let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function publish(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener(toasts);
}

/** Shows `message` as a toast; the same message already shown is not repeated. */
export function notify(message: string, tone: Toast['tone'] = 'error'): void {
  if (toasts.some((toast) => toast.message === message)) return;
  publish([...toasts, { id: nextId++, message, tone }]);
}

export function dismissToast(id: number): void {
  publish(toasts.filter((toast) => toast.id !== id));
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentToasts(): readonly Toast[] {
  return toasts;
}

/** For components: `const notify = useToast(); notify(t('…'))`. */
export function useToast(): typeof notify {
  return notify;
}
