import { afterEach, describe, expect, it } from 'vitest';
import { onShutdownSignals } from '../../../runtime/server/index.ts';

describe('onShutdownSignals()', () => {
  let remove: (() => void) | undefined;
  afterEach(() => remove?.());

  function install(repeatWindowMs: number) {
    const events: string[] = [];
    const exits: number[] = [];
    let finish!: () => void;
    const stopped = new Promise<void>((resolve) => (finish = resolve));
    remove = onShutdownSignals({
      signals: ['SIGUSR2'],
      repeatWindowMs,
      stop: () => stopped,
      onSignal: (signal, effect) => events.push(`${signal} ${effect}`),
      exit: (code) => exits.push(code),
    });
    return { events, exits, finish };
  }

  it('the first signal stops gracefully and exits 0 once the stop has finished', async () => {
    const { events, exits, finish } = install(1000);
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(events).toEqual(['SIGUSR2 graceful']);
    expect(exits).toEqual([]);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([0]);
  });

  it('a repeat within the window is the same signal delivered twice (process group and npm), not a second one', () => {
    const { events, exits } = install(60_000);
    process.emit('SIGUSR2', 'SIGUSR2');
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(events).toEqual(['SIGUSR2 graceful', 'SIGUSR2 duplicate']);
    expect(exits).toEqual([]);
  });

  it('a signal after the window exits at once with 128 + its number', async () => {
    const { events, exits } = install(10);
    process.emit('SIGUSR2', 'SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 30));
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(events).toEqual(['SIGUSR2 graceful', 'SIGUSR2 immediate']);
    expect(exits).toEqual([128 + 12]);
  });
});
