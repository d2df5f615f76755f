export { serve, serveFromEnvironment, type RunningServer, type ServeOptions } from './serve.ts';
export { RequestDrain } from './drain.ts';
export { listen } from './listen.ts';
export { onShutdownSignals, type ShutdownSignalsOptions } from './shutdown-signals.ts';
export { stopGracefully, type ShutdownReport, type StopGracefullyOptions } from './stop-gracefully.ts';
