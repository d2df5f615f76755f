import { healthService } from '@convapi/dsl';

/**
 * Liveness and readiness for load balancers: GET /services/{v}/health and /services/{v}/health/ready,
 * without a token, outside every call limit.
 */
export default healthService({
  name: 'health',
  versions: { v1: {}, v2: {} },
});
