import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_HEAP_GROWTH_BYTES,
  DEFAULT_QUIET_REQUESTS_PER_SECOND,
  returnHeapWhenIdle,
} from '../../../runtime/server/idle-heap-return.ts';

const MiB = 1024 * 1024;

/** A server's request counts and heap, moved by hand; `collect` brings the heap back to `floor`. */
function fakeServer(floor = 100 * MiB) {
  const state = { inFlight: 0, started: 0, heap: floor, collections: 0 };
  const stop = returnHeapWhenIdle({
    activity: state,
    everyMs: 1000,
    heapBytes: () => state.heap,
    collect: () => {
      state.collections += 1;
      state.heap = floor;
    },
  });
  return { state, stop };
}

/** One collection made, the heap back at the floor, and none more in the ten quiet seconds after. */
function expectCollectedOnceToTheFloor(state: { collections: number; heap: number }): void {
  expect(state.collections).toBe(1);
  expect(state.heap).toBe(100 * MiB);
  vi.advanceTimersByTime(10_000);
  expect(state.collections).toBe(1);
}

describe('returnHeapWhenIdle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('collects once when the server goes quiet after its heap grew, and not again until it grows again', () => {
    const { state, stop } = fakeServer();
    state.started += 40;
    state.heap += 300 * MiB;
    // The first check sees the burst's requests: not quiet yet.
    vi.advanceTimersByTime(1000);
    expect(state.collections).toBe(0);
    vi.advanceTimersByTime(1000);
    expectCollectedOnceToTheFloor(state);
    stop();
  });

  it('never collects under load or while a request is in flight, and does under a trickle of health checks', () => {
    const { state, stop } = fakeServer();
    state.heap += 300 * MiB;
    for (let second = 0; second < 10; second += 1) {
      state.started += DEFAULT_QUIET_REQUESTS_PER_SECOND;
      vi.advanceTimersByTime(1000);
    }
    state.inFlight = 1;
    vi.advanceTimersByTime(10_000);
    expect(state.collections).toBe(0);
    state.inFlight = 0;
    state.started += DEFAULT_QUIET_REQUESTS_PER_SECOND - 1;
    vi.advanceTimersByTime(1000);
    expect(state.collections).toBe(1);
    stop();
  });

  it("collects after a burst whose heap V8's own collections had shrunk again before the server went quiet", () => {
    const { state, stop } = fakeServer();
    state.started += 40;
    state.heap += 300 * MiB;
    vi.advanceTimersByTime(1000);
    // The burst's last requests leave less than the threshold above the floor, all of it garbage.
    state.heap = 100 * MiB + DEFAULT_HEAP_GROWTH_BYTES / 2;
    vi.advanceTimersByTime(1000);
    expectCollectedOnceToTheFloor(state);
    stop();
  });

  it('leaves a heap that grew by no more than the threshold alone', () => {
    const { state, stop } = fakeServer();
    state.heap += DEFAULT_HEAP_GROWTH_BYTES;
    vi.advanceTimersByTime(10_000);
    expect(state.collections).toBe(0);
    state.heap += 1;
    vi.advanceTimersByTime(1000);
    expect(state.collections).toBe(1);
    stop();
  });

  it('checks nothing once stopped', () => {
    const { state, stop } = fakeServer();
    stop();
    state.heap += 300 * MiB;
    vi.advanceTimersByTime(10_000);
    expect(state.collections).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
