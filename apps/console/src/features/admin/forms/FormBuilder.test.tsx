import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError, type ApiClient, type CompanyDetails } from '@frontdesk/protocol';
import {
  answer,
  clockCompany,
  fakeApi,
  renderRoute,
  signedIn,
  zoeLogin,
  type FakeAnswer,
} from '../../../test/render.tsx';

afterEach(cleanup);

/**
 * The fake API over company 12 (its welcome form asks "Your name"), whose `GET /company/12`
 * answers `after` once a form has been saved, as the real one would.
 */
async function openBuilder(answers: Record<string, FakeAnswer>, after?: CompanyDetails) {
  const table: Record<string, FakeAnswer> = { 'GET /company/12': answer(clockCompany), ...answers };
  const server = fakeApi(table);
  const api: ApiClient = async (route, ...args) => {
    const result = await server.api(route, ...args);
    if (route.method === 'PUT' && after) table['GET /company/12'] = answer(after);
    return result;
  };
  renderRoute('/console/admin/forms/welcome', signedIn(zoeLogin), { api });
  // The admin pages load lazily: on a busy machine that takes more than findBy's default second.
  await screen.findByRole('form', { name: 'Welcome form' }, { timeout: 10_000 });
  return server;
}

const type = (box: HTMLElement, value: string) => {
  fireEvent.change(box, { target: { value } });
  fireEvent.blur(box);
};

const fieldCards = () => screen.getAllByTestId('form-field');

/** Adds a choice "Topic" with two options, the values made from their labels. */
function addTopicChoice() {
  fireEvent.change(screen.getByLabelText('New field'), { target: { value: 'select' } });
  fireEvent.click(screen.getByRole('button', { name: 'Add the field' }));
  const card = within(fieldCards()[1] ?? document.body);
  const question = card.getByLabelText('Question');
  expect(document.activeElement).toBe(question);
  type(question, 'Topic');
  for (const [n, label] of [
    [1, 'Sales'],
    [2, 'Opening hours'],
  ] as const) {
    fireEvent.click(card.getByRole('button', { name: 'Add an option' }));
    const box = card.getByLabelText(`Option ${n}: shown as`);
    expect(document.activeElement).toBe(box);
    type(box, label);
  }
}

const topic = {
  name: 'question2',
  label: 'Topic',
  required: false,
  type: 'select',
  options: [
    { label: 'Sales', value: 'sales' },
    { label: 'Opening hours', value: 'opening-hours' },
  ],
};
const yourName = { name: 'name', label: 'Your name', type: 'text', required: true, maxLength: 100 };

// Each test types a whole edit into jsdom, which takes seconds when the machine is shared.
describe('the form builder', { timeout: 30_000 }, () => {
  it('adds a choice with two options, moves it first and saves the whole form with If-Match', async () => {
    const stored = { id: 9, title: 'About you', fields: [topic, yourName] };
    const server = await openBuilder({ 'PUT /company/12/forms/welcome': answer(stored) }, {
      ...clockCompany,
      version: 2,
      welcomeForm: stored,
    } as CompanyDetails);

    addTopicChoice();
    const move = screen.getByRole('button', { name: 'Move Topic up' });
    fireEvent.click(move);
    await waitFor(() =>
      expect(within(fieldCards()[0] ?? document.body).getByLabelText('Question')).toHaveProperty(
        'value',
        'Topic',
      ),
    );
    // First now, it cannot go up: the focus stays on the field, on its other move button.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Topic down' }));

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const summary = await screen.findByTestId('save-summary');
    expect(server.requests.find((r) => r.route === 'PUT /company/12/forms/welcome')).toEqual({
      route: 'PUT /company/12/forms/welcome',
      body: { title: 'About you', fields: [topic, yourName] },
      ifMatch: 1,
    });
    expect(within(summary).getByText('Topic').parentElement?.textContent).toContain(
      '— → Topic (Choice)',
    );
    // The builder now holds what was stored, at the version after it.
    await waitFor(() =>
      expect(screen.getByTestId('unsaved-count').textContent).toBe('All changes saved'),
    );
  });

  it('keeps a choice without options from the API, saying why at the field', async () => {
    const server = await openBuilder({});
    fireEvent.change(screen.getByLabelText('New field'), { target: { value: 'select' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add the field' }));
    type(within(fieldCards()[1] ?? document.body).getByLabelText('Question'), 'Topic');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Add at least one option.')).toBeTruthy();
    const options = within(fieldCards()[1] ?? document.body).getByRole('group', {
      name: 'Options',
    });
    expect(options.getAttribute('aria-describedby')).toBeTruthy();
    expect(server.requests.some((r) => r.route.startsWith('PUT'))).toBe(false);
  });

  it('shows a field the API refuses at that field', async () => {
    await openBuilder({
      'PUT /company/12/forms/welcome': {
        refuse: new ApiRequestError(400, 'invalid_body', 'The form is not valid.', {
          'fields.0.label': 'must be 200 characters or fewer',
        }),
      },
    });
    type(screen.getByLabelText('Title'), 'Before your call');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const question = within(fieldCards()[0] ?? document.body).getByLabelText('Question');
    await waitFor(() => expect(question.getAttribute('aria-invalid')).toBe('true'));
    const error = document.getElementById(question.getAttribute('aria-describedby') ?? '');
    expect(error?.textContent).toBe('must be 200 characters or fewer');
    expect(screen.getByRole('alert').textContent).toContain('The form is not valid.');
  });
});
