import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError } from '@frontdesk/protocol';
import { adminApi } from '../../../test/adminApi.ts';
import { answer, clockCompany, renderRoute, signedIn, zoeLogin } from '../../../test/render.tsx';

afterEach(cleanup);

const hours = {
  id: 3,
  title: 'Opening hours',
  shortcut: 'hours',
  text: 'We are open every day.',
  updatedAt: '2026-11-26T09:30:00.000Z',
};

describe('the canned replies page', () => {
  it('adds, edits and deletes replies, each with If-Match', async () => {
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/canned-replies': answer([]),
      'POST /company/12/canned-replies': answer(hours),
      'PATCH /company/12/canned-replies/3': answer({ ...hours, text: 'Open 24/7.' }),
      'DELETE /company/12/canned-replies/3': { body: undefined },
    });
    renderRoute('/console/admin/replies', signedIn(zoeLogin), { api: server.api });
    expect(await screen.findByText('No canned replies yet.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add a reply' }));
    const dialog = screen.getByTestId('canned-reply-dialog');
    fireEvent.change(within(dialog).getByLabelText('Title'), {
      target: { value: 'Opening hours' },
    });
    fireEvent.change(within(dialog).getByLabelText('Shortcut'), { target: { value: 'Hours!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    // Checked before it travels, each field's error at the field.
    expect(within(dialog).getByLabelText('Shortcut').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByLabelText('Text').getAttribute('aria-invalid')).toBe('true');
    expect(server.writes()).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Shortcut'), { target: { value: 'hours' } });
    fireEvent.change(within(dialog).getByLabelText('Text'), {
      target: { value: 'We are open every day.' },
    });
    server.answers['GET /company/12/canned-replies'] = answer([hours]);
    server.answers['GET /company/12'] = answer({ ...clockCompany, version: 2 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe('Added “Opening hours”.');
    const row = screen.getByTestId('canned-reply-row');
    expect(row.textContent).toContain('/hours');

    fireEvent.click(within(row).getByRole('button', { name: 'Edit Opening hours' }));
    const editing = screen.getByTestId('canned-reply-dialog');
    fireEvent.change(within(editing).getByLabelText('Text'), { target: { value: 'Open 24/7.' } });
    server.answers['GET /company/12'] = answer({ ...clockCompany, version: 3 });
    fireEvent.click(within(editing).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved “Opening hours”.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Opening hours' }));
    server.answers['GET /company/12/canned-replies'] = answer([]);
    fireEvent.click(
      within(screen.getByTestId('confirm-delete-canned-reply')).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('No canned replies yet.')).toBeTruthy();
    expect(server.writes()).toEqual([
      {
        route: 'POST /company/12/canned-replies',
        body: { title: 'Opening hours', shortcut: 'hours', text: 'We are open every day.' },
        ifMatch: 1,
      },
      {
        route: 'PATCH /company/12/canned-replies/3',
        body: { ...pick(hours), text: 'Open 24/7.' },
        ifMatch: 2,
      },
      { route: 'DELETE /company/12/canned-replies/3', body: undefined, ifMatch: 3 },
    ]);
  });

  it('keeps the dialog open with the API’s refusal of a taken shortcut', async () => {
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/canned-replies': answer([hours]),
      'POST /company/12/canned-replies': {
        refuse: new ApiRequestError(
          409,
          'shortcut_taken',
          'Another canned reply already has the shortcut /hours.',
          {
            shortcut: 'is taken by another reply',
          },
        ),
      },
    });
    renderRoute('/console/admin/replies', signedIn(zoeLogin), { api: server.api });
    fireEvent.click(await screen.findByRole('button', { name: 'Add a reply' }));
    const dialog = screen.getByTestId('canned-reply-dialog');
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Hours' } });
    fireEvent.change(within(dialog).getByLabelText('Shortcut'), { target: { value: 'hours' } });
    fireEvent.change(within(dialog).getByLabelText('Text'), { target: { value: 'Always.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText(/already has the shortcut \/hours/)).toBeTruthy();
    expect(within(dialog).getByLabelText('Text')).toHaveProperty('value', 'Always.');
  });
});

function pick({ title, shortcut, text }: typeof hours) {
  return { title, shortcut, text };
}
