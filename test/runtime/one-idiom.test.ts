import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md, "The fast path": inside the runtime, a response header is written with
// setResponseHeader() and a JSON body with setJsonBody(), on every path, so that no one has to know
// which code is hot to know which idiom to use. ctx.set() and ctx.body = {...} belong to
// hand-written Koa code outside the runtime.
const runtime = fileURLToPath(new URL('../../runtime/', import.meta.url));

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the runtime writes responses one way', () => {
  it('sets response headers with setResponseHeader(), never ctx.set() or ctx.response.set()', () => {
    const offenders = sources(runtime).flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\bctx(\.response)?\.set\(/.test(line) && !/^\s*(\/\/|\*)/.test(line)
            ? [`${relative(runtime, path)}:${index + 1}`]
            : [],
        ),
    );
    expect(offenders).toEqual([]);
  });
});
