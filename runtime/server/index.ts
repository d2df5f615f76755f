// The server layer: listening, draining, shutting down, and the limits and answers of the connection itself.
export { serve, serveFromEnvironment, type RunningServer, type ServeOptions } from './serve.ts';
export { listen } from './listen.ts';
export { HeaderListResponse } from './header-list-response.ts';
export { requestListener, type ArrivalHandling, type RequestListenerOptions } from './request-listener.ts';
export { directContextAccessors } from './direct-context-accessors.ts';
export { onShutdownSignals, type ShutdownSignalsOptions } from './shutdown-signals.ts';
export { stopGracefully, type ShutdownReport, type StopGracefullyOptions } from './stop-gracefully.ts';
export { answerClientErrors, clientErrorOf, rawErrorResponse, type ClientErrorOptions } from './client-errors.ts';
