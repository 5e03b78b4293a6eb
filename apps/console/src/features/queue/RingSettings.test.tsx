import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readRingPreferences } from './ringer.ts';
import { RingSettings } from './RingSettings.tsx';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('RingSettings', () => {
  it('keeps the chosen sound and volume for the next ring', () => {
    const onClose = vi.fn();
    render(<RingSettings onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Ringing for new guests' });
    fireEvent.change(screen.getByLabelText('Sound'), { target: { value: 'pulse' } });
    fireEvent.change(screen.getByLabelText('Volume'), { target: { value: '30' } });
    expect(readRingPreferences()).toEqual({ sound: 'pulse', volume: 0.3 });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledOnce();
  });
});
