import { searchService } from '@convapi/dsl';

/** Full-text search over the searchable fields of one collection: GET /services/{v}/search?q=&category=. */
export default searchService({
  name: 'search',
  versions: { v1: {}, v2: {} },
});
