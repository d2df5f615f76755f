import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { CreatedApi } from '../app/create-api.ts';

/** How a graceful stop went. */
export interface ShutdownReport {
  /** True when every in-flight request finished before the deadline. */
  readonly drained: boolean;
  /** Requests whose connections the deadline closed. */
  readonly closedInFlight: number;
  readonly durationMs: number;
}

export interface StopGracefullyOptions {
  readonly server: Server;
  readonly api: CreatedApi;
  /** How long in-flight requests (then running jobs) may take, in all. */
  readonly timeoutMs: number;
  readonly logger: Logger;
  /** Other listeners closed with the API's (the metrics port). */
  readonly alsoClose?: readonly { close(): Promise<void> }[];
}

/**
 * The graceful stop: from now on new requests get 503 (the drain); in-flight ones get until the
 * deadline, after which their connections are closed (a stalled upload cannot hold the exit); the
 * listener and idle keep-alive connections close; running jobs get what is left of the deadline
 * (a job still running after it is requeued by its lease); the store closes last. Logged.
 */
export async function stopGracefully({
  server,
  api,
  timeoutMs,
  logger,
  alsoClose = [],
}: StopGracefullyOptions): Promise<ShutdownReport> {
  const startedAt = performance.now();
  const drained = await withinDeadline(api.drain.drain(), timeoutMs);
  const closedInFlight = drained ? 0 : api.drain.inFlight;
  if (!drained)
    logger.warn(
      { in_flight: closedInFlight, timeout_ms: timeoutMs },
      'shutdown deadline reached: closing the connections of the requests still in flight',
    );
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Idle keep-alive sockets (and, past the deadline, the stalled ones) would hold the close open.
    server.closeAllConnections();
  });
  // The listener reports closed before the responses of the sockets it destroyed have emitted
  // 'close': wait for them, so every request is accounted for (and logged) before the store closes.
  await api.drain.drain();
  await Promise.all(alsoClose.map((other) => other.close()));
  await api.close({ jobsTimeoutMs: Math.max(0, timeoutMs - (performance.now() - startedAt)) });
  const report: ShutdownReport = { drained, closedInFlight, durationMs: Math.round(performance.now() - startedAt) };
  logger.info({ drained, closed_in_flight: closedInFlight, duration_ms: report.durationMs }, 'server stopped');
  return report;
}

/** True when `work` settles within `ms`; false when the deadline comes first. */
async function withinDeadline(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
