export { withDeprecation, deprecationHeaders, type Deprecation } from './deprecation.ts';
