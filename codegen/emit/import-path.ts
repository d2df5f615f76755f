import { posix } from 'node:path';

/** The relative import specifier from one project file to another, `.ts` kept (Node type stripping needs it). */
export function importPath(fromFile: string, toFile: string): string {
  const relative = posix.relative(posix.dirname(fromFile), toFile);
  return relative.startsWith('.') ? relative : `./${relative}`;
}
