export { createApiMetrics, type ApiMetrics, type QueueDepthSource } from './api-metrics.ts';
export { requestMetrics, type RequestMetricsOptions } from './request-metrics.ts';
export { startMetricsServer, type MetricsServerOptions, type RunningMetricsServer } from './metrics-server.ts';
