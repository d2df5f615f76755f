import { isPlural, pluralOf } from '../model/index.ts';
import { SEGMENT, toSegment } from '../lint/rules/naming.ts';
import { isObject, type JsonObject } from './document.ts';
import type { OpenApiFinding } from './finding.ts';

const VERSION = /^v[1-9][0-9]*$/;
const LOOKS_LIKE_VERSION = /^v(ersion)?[-_.]?[0-9]/i;
const PARAMETER = /^\{[^}]+\}$/;
const LIST = '(list)';

/** A path split into its family, its version segment and what follows the version. */
interface PathParts {
  readonly family: 'resource' | 'service' | 'setting';
  readonly version: string | undefined;
  readonly rest: readonly string[];
}

function partsOf(path: string): PathParts {
  const segments = path.split('/').filter((segment) => segment !== '');
  const [first, second, ...after] = segments;
  if (first === 'services' || first === 'settings') {
    const family = first === 'services' ? 'service' : 'setting';
    return second !== undefined && LOOKS_LIKE_VERSION.test(second)
      ? { family, version: second, rest: after }
      : { family, version: undefined, rest: segments.slice(1) };
  }
  return first !== undefined && LOOKS_LIKE_VERSION.test(first)
    ? { family: 'resource', version: first, rest: segments.slice(1) }
    : { family: 'resource', version: undefined, rest: segments };
}

/**
 * The path rules of an OpenAPI document: families, versions, lowercase hyphenated segments, plural
 * collections, nesting at most two levels, aggregates only under their parent. Each finding is placed
 * at the path's key in `paths`.
 */
export function pathFindings(document: JsonObject): OpenApiFinding[] {
  const paths = isObject(document.paths) ? Object.keys(document.paths) : [];
  const findings: OpenApiFinding[] = [];
  const aggregates = aggregatesOf(paths);
  for (const path of paths) {
    const at = ['paths', path];
    const add = (rule: string, message: string) => findings.push({ rule, at, message });
    const { family, version, rest } = partsOf(path);
    const [head] = rest;
    if (family === 'resource' && version !== undefined && (head === 'services' || head === 'settings')) {
      add(
        'openapi-path-family',
        `path ${path} puts the version before "${head}"; ${head === 'services' ? 'service' : 'setting'} paths are /${head}/{version}/name: write /${head}/${version}/${rest.slice(1).join('/')}`,
      );
      continue; // What follows is a service or setting name, not collections.
    } else if (version === undefined) {
      add(
        'openapi-path-version',
        `path ${path} has no version segment; ${family === 'resource' ? 'resource paths are /{version}/{collection}' : `${family} paths are /${family}s/{version}/name`} (for example v1)`,
      );
    } else if (!VERSION.test(version)) {
      add(
        'openapi-path-version',
        `version segment "${version}" of ${path} is not of the form v1, v2, ...: write "v${version.replace(/\D/g, '').replace(/^0+/, '') || '1'}"`,
      );
    }
    const literals = rest.filter((segment) => !PARAMETER.test(segment) && segment !== LIST);
    for (const segment of literals.filter((item) => !SEGMENT.test(item))) {
      add(
        'openapi-path-case',
        `path segment "${segment}" of ${path} has uppercase letters, underscores or other characters; paths are lowercase with words joined by hyphens: use "${toSegment(segment) || 'a-name'}"`,
      );
    }
    if (family === 'resource') {
      for (const segment of literals.filter((item) => SEGMENT.test(item) && !isPlural(item))) {
        add(
          'openapi-plural-collection',
          `collection "${segment}" of ${path} is not plural; a collection path is the plural name: "${pluralOf(segment)}"`,
        );
      }
      if (literals.length > 2)
        add(
          'openapi-nesting-depth',
          `path ${path} nests ${literals.length} resources; paths nest at most two levels: turn the deeper condition into a query parameter`,
        );
      const top = literals.length === 1 && rest[0] === literals[0] ? aggregates.get(literals[0]!) : undefined;
      if (top !== undefined)
        add(
          'openapi-aggregate-parent',
          `"${literals[0]}" is an aggregate of ${top} (${top}/{id}/${literals[0]}), so it is reached only through its parent: remove ${path}`,
        );
    } else if (literals.length > 2) {
      add(
        'openapi-nesting-depth',
        `${family} path ${path} has ${literals.length} name segments; paths nest at most two levels: shorten it and pass the rest as query parameters`,
      );
    }
  }
  return findings;
}

/**
 * Resources that are aggregates: written under a parent (`/v1/users/{user_id}/profiles`) and never
 * followed by an identifier of their own. Name → parent collection.
 */
function aggregatesOf(paths: readonly string[]): Map<string, string> {
  const nested = new Map<string, string>();
  const withIdentifier = new Set<string>();
  for (const path of paths) {
    const { family, rest } = partsOf(path);
    if (family !== 'resource') continue;
    rest.forEach((segment, index) => {
      if (PARAMETER.test(segment) || segment === LIST) return;
      if (PARAMETER.test(rest[index + 1] ?? '')) withIdentifier.add(segment);
      if (index >= 2 && PARAMETER.test(rest[index - 1] ?? '')) nested.set(segment, rest[index - 2]!);
    });
  }
  return new Map([...nested].filter(([name]) => !withIdentifier.has(name)));
}
