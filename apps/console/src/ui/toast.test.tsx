import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { currentToasts, dismissToast, notify } from './toast.ts';
import { UiProvider } from './Toaster.tsx';

afterEach(() => {
  cleanup();
  for (const toast of currentToasts()) dismissToast(toast.id);
});

describe('toasts', () => {
  it('shows what notify() says, once, until dismissed', () => {
    render(
      <UiProvider>
        <p>page</p>
      </UiProvider>,
    );
    act(() => {
      notify('The file could not be sent');
      notify('The file could not be sent');
      notify('Saved', 'info');
    });
    const toasts = screen.getAllByTestId('toast');
    expect(toasts.map((toast) => [toast.textContent, toast.dataset.tone])).toEqual([
      ['The file could not be sent×', 'error'],
      ['Saved×', 'info'],
    ]);
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss' })[0] as HTMLElement);
    expect(currentToasts().map((toast) => toast.message)).toEqual(['Saved']);
  });

  it('keeps toasts asked for before the page drew its toaster', () => {
    notify('Offline');
    render(
      <UiProvider>
        <p>page</p>
      </UiProvider>,
    );
    expect(screen.getByTestId('toast').textContent).toContain('Offline');
  });
});
