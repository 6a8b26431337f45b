import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as connectivity from './connectivity';

/** The module, reachable again (its state is module-level), no probe. */
async function load() {
  connectivity.reportReachable(true);
  connectivity.setReachabilityProbe(async () => true);
  return connectivity;
}

describe('connectivity', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('is offline once a request fails on the network, and online again when the probe gets an answer', async () => {
    const c = await load();
    const answers = [false, true];
    const probe = vi.fn(async () => answers.shift()!);
    c.setReachabilityProbe(probe);
    const changed = vi.fn();
    const unsubscribe = c.subscribeOnline(changed);

    expect(c.isOnline()).toBe(true);
    c.reportReachable(false);
    expect(c.isOnline()).toBe(false);
    expect(changed).toHaveBeenCalledTimes(1);

    // Tried every PROBE_MS until the server answers.
    await vi.advanceTimersByTimeAsync(c.PROBE_MS - 1);
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(c.isOnline()).toBe(false);
    await vi.advanceTimersByTimeAsync(c.PROBE_MS);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(c.isOnline()).toBe(true);
    expect(changed).toHaveBeenCalledTimes(2);

    // Then no more probing.
    await vi.advanceTimersByTimeAsync(c.PROBE_MS * 5);
    expect(probe).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it('any answer from the server (whatever its status) ends the offline state at once', async () => {
    const c = await load();
    const probe = vi.fn(async () => false);
    c.setReachabilityProbe(probe);
    const unsubscribe = c.subscribeOnline(() => undefined);
    c.reportReachable(false);
    c.reportReachable(true);
    expect(c.isOnline()).toBe(true);
    await vi.advanceTimersByTimeAsync(c.PROBE_MS * 3);
    expect(probe).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('probes only while something shows the state: unsubscribed, a failure sends nothing', async () => {
    const c = await load();
    const probe = vi.fn(async () => true);
    c.setReachabilityProbe(probe);
    c.reportReachable(false);
    await vi.advanceTimersByTimeAsync(c.PROBE_MS * 3);
    expect(probe).not.toHaveBeenCalled();
    // The banner mounts: it probes from then on.
    const unsubscribe = c.subscribeOnline(() => undefined);
    await vi.advanceTimersByTimeAsync(c.PROBE_MS);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(c.isOnline()).toBe(true);
    unsubscribe();
  });

  it('tries at once when the browser says the network is back', async () => {
    const c = await load();
    const probe = vi.fn(async () => true);
    c.setReachabilityProbe(probe);
    const unsubscribe = c.subscribeOnline(() => undefined);
    c.reportReachable(false);
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(c.isOnline()).toBe(true);
    unsubscribe();
  });

  it('follows navigator.onLine while the server answers', async () => {
    const c = await load();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(c.isOnline()).toBe(false);
  });
});
