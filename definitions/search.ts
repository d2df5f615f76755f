import { searchService } from '../dsl/index.ts';

/** Full-text search over the searchable fields of one collection: GET /services/{v}/search?q=&category=. */
export default searchService({
  name: 'search',
  versions: { v1: {}, v2: {} },
});
