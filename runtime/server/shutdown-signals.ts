import { constants } from 'node:os';

export interface ShutdownSignalsOptions {
  /** The graceful stop: drain, close the store. The process exits 0 when it resolves, 1 when it rejects. */
  readonly stop: (signal: NodeJS.Signals) => Promise<void>;
  /** Told when a signal arrives, before anything is done about it. */
  readonly onSignal?: (signal: NodeJS.Signals, effect: 'graceful' | 'duplicate' | 'immediate') => void;
  /** Told when the graceful stop rejects. */
  readonly onStopFailed?: (error: unknown) => void;
  /**
   * A repeat within this many ms of the first signal counts as the same one. Default 1000.
   * `npm start` forwards SIGINT/SIGTERM to the server while a terminal's Ctrl-C (and systemd's
   * control-group kill) also sends it to every process of the group: the server receives each such
   * signal twice within a few milliseconds, and must not take the second one for an operator's
   * "stop now".
   */
  readonly repeatWindowMs?: number;
  /** Default SIGTERM and SIGINT. */
  readonly signals?: readonly NodeJS.Signals[];
  /** Default process.exit. */
  readonly exit?: (code: number) => void;
}

/**
 * SIGTERM/SIGINT handling of a server process: the first signal starts a graceful stop and the
 * process exits 0 once it has finished; a second signal (later than `repeatWindowMs`) exits at once
 * with 128 + the signal's number, as a shell reports a process killed by it. Returns a function that
 * removes the handlers.
 *
 * @example
 * onShutdownSignals({ stop: () => running.stop() });
 */
export function onShutdownSignals({
  stop,
  onSignal = () => {},
  onStopFailed = () => {},
  repeatWindowMs = 1000,
  signals = ['SIGTERM', 'SIGINT'],
  exit = (code) => process.exit(code),
}: ShutdownSignalsOptions): () => void {
  let firstAt: number | undefined;
  const handle = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (firstAt === undefined) {
      firstAt = now;
      onSignal(signal, 'graceful');
      stop(signal).then(
        () => exit(0),
        (error: unknown) => {
          onStopFailed(error);
          exit(1);
        },
      );
      return;
    }
    if (now - firstAt < repeatWindowMs) {
      onSignal(signal, 'duplicate');
      return;
    }
    onSignal(signal, 'immediate');
    exit(128 + (constants.signals[signal] ?? 0));
  };
  for (const signal of signals) process.on(signal, handle);
  return () => {
    for (const signal of signals) process.off(signal, handle);
  };
}
