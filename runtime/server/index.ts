// The server layer: listening, draining, and the limits and answers of the connection itself.
export { serve, serveFromEnvironment, type RunningServer } from './serve.ts';
export { RequestDrain } from './drain.ts';
export { answerClientErrors, clientErrorOf, rawErrorResponse, type ClientErrorOptions } from './client-errors.ts';
export {
  applyConnectionSettings,
  connectionSettingsFrom,
  connectionsCheckingInterval,
  DEFAULT_CONNECTION_SETTINGS,
  type ConnectionSettings,
  type WholeNumberReader,
} from './connection-settings.ts';
