import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorReportingOnDemand } from './errorReporting.ts';
import { startSentry } from './sentry.ts';

// The SDK itself is proven in Chromium (e2e/tests/guest-error-reporting.spec.ts); here, when
// the page asks for it and what it hands over.
vi.mock('./sentry.ts', () => ({ startSentry: vi.fn() }));

const settings = { dsn: 'https://key@example.org/1', tunnel: '/api/monitoring' };
const sdkStarted = () => vi.mocked(startSentry).mock.calls;

function throwIn(target: EventTarget, error: Error) {
  target.dispatchEvent(new ErrorEvent('error', { error, message: error.message }));
}

describe('errorReportingOnDemand', () => {
  afterEach(() => vi.mocked(startSentry).mockClear());

  it('loads no SDK before an error or a call', async () => {
    const page = new EventTarget();
    errorReportingOnDemand(page).configure(settings);
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toEqual([]);
  });

  it('sends an error met before the configuration arrived, once it says reporting is on', async () => {
    const page = new EventTarget();
    const reporting = errorReportingOnDemand(page);
    const early = new Error('before the configuration');
    throwIn(page, early);
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toEqual([]);
    reporting.configure(settings);
    await vi.waitFor(() => expect(sdkStarted()).toEqual([[settings, [early]]]));
  });

  it('starts the SDK when a call starts, and then leaves the errors to it', async () => {
    const page = new EventTarget();
    const reporting = errorReportingOnDemand(page);
    reporting.configure(settings);
    reporting.callStarts();
    await vi.waitFor(() => expect(sdkStarted()).toEqual([[settings, []]]));
    throwIn(page, new Error('in the call'));
    reporting.callStarts();
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toHaveLength(1);
  });

  it('forgets the errors and never loads the SDK when reporting is off', async () => {
    const page = new EventTarget();
    const reporting = errorReportingOnDemand(page);
    throwIn(page, new Error('kept until the configuration'));
    reporting.configure(null);
    reporting.callStarts();
    throwIn(page, new Error('after'));
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toEqual([]);
  });

  it('holds no more than the first twenty errors met before the configuration', async () => {
    const page = new EventTarget();
    const reporting = errorReportingOnDemand(page);
    const errors = Array.from({ length: 25 }, (_, i) => new Error(`loop ${i}`));
    for (const error of errors) throwIn(page, error);
    reporting.configure(settings);
    await vi.waitFor(() => expect(sdkStarted()).toEqual([[settings, errors.slice(0, 20)]]));
  });
});
