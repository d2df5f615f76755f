export { shapeOf, type ShapeField } from './shape.ts';
export { diffShapes, versionDiffs, describeDiff, type VersionDiff } from './diff.ts';
export { readPublished, publishVersions, PUBLISHED_FILE, type PublishedShapes } from './published.ts';
