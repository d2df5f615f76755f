// The server layer: listening, draining, shutting down, and the limits and answers of the connection itself.
export { serve, serveFromEnvironment, type RunningServer, type ServeOptions } from './serve.ts';
export { RequestDrain } from './drain.ts';
export { listen } from './listen.ts';
export { HeaderListResponse } from './header-list-response.ts';
export { requestListener } from './request-listener.ts';
export { directContextAccessors } from './direct-context-accessors.ts';
export { onShutdownSignals, type ShutdownSignalsOptions } from './shutdown-signals.ts';
export { stopGracefully, type ShutdownReport, type StopGracefullyOptions } from './stop-gracefully.ts';
export { answerClientErrors, clientErrorOf, rawErrorResponse, type ClientErrorOptions } from './client-errors.ts';
export {
  applyConnectionSettings,
  connectionSettingsFrom,
  connectionsCheckingInterval,
  DEFAULT_CONNECTION_SETTINGS,
  type ConnectionSettings,
  type WholeNumberReader,
} from './connection-settings.ts';
