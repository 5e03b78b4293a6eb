import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeLocks } from '../../test/fakeLocks.ts';
import { claimCall } from './callClaim.ts';

describe('which tab has the call open (decision 0025)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('gives the call to one tab at a time, and to the next once the first lets go', async () => {
    vi.stubGlobal('navigator', { locks: fakeLocks() });
    const first = await claimCall('call-1', 0);
    expect(first?.callId).toBe('call-1');
    expect(await claimCall('call-1', 0)).toBeNull();
    // Another call is another claim.
    expect(await claimCall('call-2', 0)).not.toBeNull();
    first?.release();
    // Letting go reaches the lock manager a moment later, as in a browser.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await claimCall('call-1', 0)).not.toBeNull();
  });

  it('waits for a page that lets go (a reload), not for one that keeps the call (a duplicate)', async () => {
    vi.stubGlobal('navigator', { locks: fakeLocks() });
    const leaving = await claimCall('call-1', 0);
    const next = claimCall('call-1', 60_000);
    leaving?.release();
    const reloaded = await next;
    expect(reloaded?.callId).toBe('call-1');
    expect(await claimCall('call-1', 1)).toBeNull();
  });

  it('guards nothing in a browser without Web Locks', async () => {
    vi.stubGlobal('navigator', {});
    expect(await claimCall('call-1', 0)).not.toBeNull();
    expect(await claimCall('call-1', 0)).not.toBeNull();
  });
});
