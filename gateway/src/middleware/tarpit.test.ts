/**
 * The tarpit of authentication refusals (issue #46): a refusal is held for `min(holdMs, Retry-After)`,
 * at most `maxPerAddress` at once per address and `maxHeld` in all; past a bound it is answered at once.
 * Fake timers: what is asserted is which holds are pending, not how long anything took.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Tarpit } from './tarpit.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Starts a hold and reports whether it has ended. */
function start(t: Tarpit, address: string, retryAfter = 1) {
  let done = false;
  const p = t.hold(address, retryAfter).then(() => (done = true));
  return { p, done: () => done };
}

describe('Tarpit', () => {
  it('holds a refusal for the hold, never longer than its Retry-After', async () => {
    const t = new Tarpit({ holdMs: 1000, maxPerAddress: 10, maxHeld: 100 });
    const a = start(t, '10.0.0.1', 5);
    const b = start(t, '10.0.0.1', 0.5);
    expect(t.size).toBe(2);
    await vi.advanceTimersByTimeAsync(999);
    expect([a.done(), b.done()]).toEqual([false, false]);
    await vi.advanceTimersByTimeAsync(1);
    // b's Retry-After rounds up to one second: both end at 1,000 ms.
    expect([a.done(), b.done()]).toEqual([true, true]);
    expect(t.size).toBe(0);
  });

  it('answers at once past the bound of one address, while other addresses are still held', async () => {
    const t = new Tarpit({ holdMs: 1000, maxPerAddress: 2, maxHeld: 100 });
    const held = [start(t, '10.0.0.1'), start(t, '10.0.0.1')];
    const third = start(t, '10.0.0.1');
    const other = start(t, '10.0.0.2');
    await vi.advanceTimersByTimeAsync(0);
    expect(third.done()).toBe(true);
    expect([...held, other].map((h) => h.done())).toEqual([false, false, false]);
    await vi.advanceTimersByTimeAsync(1000);
    expect([...held, other].map((h) => h.done())).toEqual([true, true, true]);
    // The address's count went back to 0: it is held again.
    const again = start(t, '10.0.0.1');
    await vi.advanceTimersByTimeAsync(0);
    expect(again.done()).toBe(false);
  });

  it('answers at once past the bound in all, and not at all when off', async () => {
    const t = new Tarpit({ holdMs: 1000, maxPerAddress: 10, maxHeld: 1 });
    const first = start(t, '10.0.0.1');
    const second = start(t, '10.0.0.2');
    await vi.advanceTimersByTimeAsync(0);
    expect([first.done(), second.done()]).toEqual([false, true]);
    const off = new Tarpit({ holdMs: 0, maxPerAddress: 10, maxHeld: 10 });
    const o = start(off, '10.0.0.1');
    await vi.advanceTimersByTimeAsync(0);
    expect(o.done()).toBe(true);
  });
});
