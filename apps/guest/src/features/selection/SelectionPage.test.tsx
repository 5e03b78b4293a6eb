import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { company, renderWithState } from '../../test/render.tsx';
import { SelectionPage } from './SelectionPage.tsx';

afterEach(cleanup);

describe('selection stage', () => {
  it('offers each category and both call types when the guest may choose', () => {
    renderWithState(<SelectionPage />, { company: { details: company() } });
    const sales = screen.getByRole('radio', { name: 'Sales' }) as HTMLInputElement;
    const support = screen.getByRole('radio', { name: 'Support' }) as HTMLInputElement;
    expect(sales.checked).toBe(true);
    fireEvent.click(support);
    expect(support.checked).toBe(true);
    expect(screen.getByRole('radio', { name: 'Video call' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Voice call' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start the call' })).toBeTruthy();
  });

  it('asks nothing about the call type when the company fixes it', () => {
    renderWithState(<SelectionPage />, { company: { details: company({ callType: 'voice' }) } });
    expect(screen.queryByRole('radio', { name: 'Video call' })).toBeNull();
  });

  it('lays categories out as the company styles them', () => {
    renderWithState(<SelectionPage />, {
      company: { details: company({ categoryStyle: 'list' }) },
    });
    expect(screen.getByRole('group', { name: 'What can we help you with?' }).className).toContain(
      'categories-list',
    );
  });
});
