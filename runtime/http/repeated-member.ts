/**
 * A JSON object that names one member twice: JSON.parse keeps the last value, another parser (a
 * proxy's, a firewall's, a client's log) may keep the first, so what one of them checked is not what
 * the other stores. Found for a text that parses: first a count (members parsed against colons
 * outside strings), which costs a pass of the regular-expression engine and a walk of what was
 * parsed; only when the two differ, a scan naming the first repeated member.
 */

/** A JSON string: in well-formed JSON, a quote, then characters that are neither quote nor backslash, or an escape. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;
/** The same, matched only where the scan stands. */
const JSON_STRING_HERE = /"(?:[^"\\]|\\.)*"/y;

/**
 * The path of the first member an object of `text` repeats (`lines[0].sku`), or undefined when none
 * does. `parsed` is what JSON.parse() made of `text`.
 */
export function repeatedMember(text: string, parsed: unknown): string | undefined {
  if (colonsOutsideStrings(text) === membersOf(parsed)) return undefined;
  return firstRepeated(text);
}

function colonsOutsideStrings(text: string): number {
  const outside = text.replace(JSON_STRING, '');
  let count = 0;
  for (let at = outside.indexOf(':'); at !== -1; at = outside.indexOf(':', at + 1)) count += 1;
  return count;
}

/** Members of every object in a parsed value; without recursion, as a body may nest deeply. */
function membersOf(parsed: unknown): number {
  let count = 0;
  const pending: unknown[] = [parsed];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== 'object') continue;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (!Array.isArray(value)) count += children.length;
    for (const child of children) pending.push(child);
  }
  return count;
}

interface Level {
  /** An object's names so far, or undefined for an array. */
  readonly names: Set<string> | undefined;
  /** The member's name or the element's index being read. */
  at: string | number;
}

/** Scans well-formed JSON for the first name an object holds twice, and says where. */
function firstRepeated(text: string): string | undefined {
  const levels: Level[] = [];
  let expectingName = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') {
      JSON_STRING_HERE.lastIndex = index;
      const token = JSON_STRING_HERE.exec(text)![0];
      index += token.length - 1;
      const level = levels.at(-1);
      if (expectingName && level?.names !== undefined) {
        const name = JSON.parse(token) as string;
        level.at = name;
        if (level.names.has(name)) return pathOf(levels);
        level.names.add(name);
        expectingName = false;
      }
    } else if (char === '{') {
      levels.push({ names: new Set(), at: '' });
      expectingName = true;
    } else if (char === '[') {
      levels.push({ names: undefined, at: 0 });
    } else if (char === '}' || char === ']') {
      levels.pop();
    } else if (char === ',') {
      const level = levels.at(-1)!;
      if (level.names === undefined) level.at = (level.at as number) + 1;
      else expectingName = true;
    }
  }
  return undefined;
}

/** The longest place named whole; a deeper one is named by its innermost part, after `…`. */
const MOST_PATH_CHARACTERS = 200;

/**
 * As the other errors name a place in a body: `lines[0].sku`, a top-level element as `0`. A place
 * deeper than MOST_PATH_CHARACTERS is cut at its start: an error about a body nested thousands
 * deep stays short.
 */
function pathOf(levels: readonly Level[]): string {
  let path = '';
  for (let depth = levels.length - 1; depth >= 0; depth -= 1) {
    const { at } = levels[depth]!;
    const segment = depth === 0 ? String(at) : typeof at === 'number' ? `[${at}]` : `.${at}`;
    if (path.length + segment.length > MOST_PATH_CHARACTERS) return `…${path}`;
    path = segment + path;
  }
  return path;
}
