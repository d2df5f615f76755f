export { DocumentPositions, type Span, type DocumentSyntaxError } from './document-positions.ts';
