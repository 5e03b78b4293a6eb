import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmptyState, ErrorState, LoadingState } from './ListState.tsx';

afterEach(cleanup);

describe('the lists’ shared states', () => {
  it('loading: a busy status that says what is loading, with placeholder rows hidden from readers', () => {
    render(<LoadingState label="Loading the team…" rows={2} testId="loading" />);
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-busy')).toBe('true');
    expect(status.textContent).toBe('Loading the team…');
    const placeholders = screen.getByTestId('loading').querySelectorAll('.skeleton');
    expect([...placeholders].map((row) => row.getAttribute('aria-hidden'))).toEqual([
      'true',
      'true',
    ]);
  });

  it('empty: what is missing and what to do next; heard only when it replaces rows (live)', () => {
    const { rerender } = render(
      <EmptyState title="No categories yet." hint="Add a category." testId="empty" />,
    );
    expect(screen.getByTestId('empty').textContent).toBe('No categories yet.Add a category.');
    expect(screen.queryByRole('status')).toBeNull();
    rerender(<EmptyState title="Nobody is waiting right now." live />);
    expect(screen.getByRole('status').textContent).toBe('Nobody is waiting right now.');
  });

  it('failed: an alert with the reason and a Retry that asks again', () => {
    const retry = vi.fn();
    render(<ErrorState message="The team could not be loaded: offline" onRetry={retry} />);
    expect(screen.getByRole('alert').textContent).toContain('offline');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
  });
});
