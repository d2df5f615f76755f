import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { etagOf } from '../caching/index.ts';

/** A file the docs page loads, held in memory once read. */
export interface DocsAsset {
  readonly type: string;
  readonly body: Buffer;
  readonly etag: string;
}

/** The files of swagger-ui-dist the page needs, by the name it asks for them under, with their media types. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const loaded = new Map<string, DocsAsset>();

/**
 * One of Swagger UI's files, read from the installed swagger-ui-dist package (the server serves
 * them itself: no CDN), or undefined for any other name. Read on first use and kept: about 2 MB.
 */
export function swaggerUiAsset(name: string): DocsAsset | undefined {
  const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (type === undefined) return undefined;
  let asset = loaded.get(name);
  if (asset === undefined) {
    const folder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const body = readFileSync(join(folder, name));
    asset = { type, body, etag: etagOf(body) };
    loaded.set(name, asset);
  }
  return asset;
}
