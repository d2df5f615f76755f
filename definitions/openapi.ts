import { openApiService } from '@convapi/dsl';

/** The OpenAPI 3.1 document of each version: GET /services/{v}/openapi. */
export default openApiService({
  name: 'openapi',
  versions: { v1: {}, v2: {} },
});
