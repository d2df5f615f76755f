import { openApiService } from '@convapi/dsl';

/** The OpenAPI 3.1 document of each version: GET /services/{v}/openapi. */
export default openApiService({
  name: 'openapi',
  versions: { v1: {}, v2: {} },
  info: {
    title: 'Conventional example API',
    description:
      'The example API of the resource-oriented conventions: orders, trades, users with their profile, accounts, search, queued jobs and the interface language.',
    contact: { name: 'Example API team', email: 'api-team@example.com' },
    license: { name: 'MIT', identifier: 'MIT' },
  },
});
