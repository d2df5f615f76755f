import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';
import { ServerResponse, validateHeaderName, validateHeaderValue } from '../node/http.ts';
import { rememberRecent } from '../caching/recent-results.ts';

/** What a header holds: as set (setHeader takes a number, a string or a list of strings). */
type HeaderValue = number | string | string[];

/** What Node's lenient header validation (a server made with insecureHTTPParser) still refuses in a value (node:_http_common). */
const INVALID_LENIENT = /[\x00\x0a\x0d]|[^\x00-\xff]/;

/** What the process knows of a header name it has accepted: its lower-cased form, and the last value it accepted for it. */
interface KnownName {
  readonly lower: string;
  /**
   * The last value accepted under this name by Node's strict check (a string or a number; never a
   * list, which its owner may change). A value equal to it needs no second look: whether a value is
   * valid depends on the value alone.
   */
  lastValid: string | number | undefined;
}

/**
 * A header name checked as Node checks it, and lower-cased: remembered per name, so a server's
 * header names are checked and lower-cased once per process, not on every response. A refused
 * name throws Node's own error and is not remembered.
 */
const knownName = rememberRecent(
  (name: string): KnownName => {
    validateHeaderName(name);
    return { lower: name.toLowerCase(), lastValid: undefined };
  },
  { maxKeyLength: 256 },
);

/**
 * What the headers handed to Node's storage inherit: nothing, so that Node's for…in over them meets
 * only the headers (Node makes its own with a null prototype). An object made from it keeps V8's
 * fast properties, where a null-prototype object is a dictionary from the start.
 */
const STORAGE_PROTOTYPE = Object.create(null) as object;

/** Node's (internal) symbol of a response's header storage, found on the first response; null where this Node has none. */
let headerStorage: symbol | null | undefined;

/** The symbol under which Node keeps a response's headers (`kOutHeaders`), if this Node has one. */
function nodeHeaderStorage(res: object): symbol | undefined {
  headerStorage ??= Object.getOwnPropertySymbols(res).find((symbol) => symbol.description === 'kOutHeaders') ?? null;
  return headerStorage ?? undefined;
}

/** A name lower-cased, for a lookup (getHeader, hasHeader, removeHeader): as known, else made; never throws. */
function lowerCased(name: string): string {
  try {
    return knownName(name).lower;
  } catch {
    // A name Node refuses is never set, so it is found nowhere; lower-cased all the same, as Node does.
    return name.toLowerCase();
  }
}

/**
 * node:http's ServerResponse with the response headers kept in one list, handed to Node once, by
 * writeHead(). Every public header method behaves as Node's does (the same order, the same values,
 * the same errors for a bad name or value, or once the headers are sent), so Koa and any middleware
 * work on it unchanged. Why: Node stores each header as a `[name, value]` pair under a lower-cased copy
 * of its name, in a dictionary that grows as headers are added; with the fifteen or so headers a
 * conventional response carries, that was the largest allocation of a GET (2.7 KB of about 17;
 * BENCHMARKS.md). Here a name is lower-cased and checked once per process, a value equal
 * to the one last accepted under its name is not checked again, and a response's headers are three
 * entries each of one array. At writeHead they are put where Node's setHeader() would have put
 * them, so that Node, as for its own, does not check them a second time.
 *
 * @example
 * createServer({ ServerResponse: HeaderListResponse }, requestListener(app)).listen(3000);
 */
export class HeaderListResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** [lowercase name, name as set, value, …] in the order the headers were first set. */
  #fields: (string | HeaderValue)[] = [];

  override setHeader(name: string, given: number | string | readonly string[]): this {
    const value = given as HeaderValue;
    // Once sent, or a name that is not even a string: Node's own, which refuses either.
    if (this._header || typeof name !== 'string') return super.setHeader(name, given);
    const known = knownName(name);
    this.#checkValue(known, name, value);
    const lower = known.lower;
    const at = this.#indexOf(lower);
    if (at < 0) this.#fields.push(lower, name, value);
    else {
      this.#fields[at + 1] = name;
      this.#fields[at + 2] = value;
    }
    return this;
  }

  override appendHeader(name: string, given: string | readonly string[]): this {
    const value = given as HeaderValue;
    // Once sent, or a name that is not even a string: Node's own, which refuses either.
    if (this._header || typeof name !== 'string') return super.appendHeader(name, given);
    const known = knownName(name);
    this.#checkValue(known, name, value);
    const lower = known.lower;
    const at = this.#indexOf(lower);
    if (at < 0) {
      // As Node: a first value is held as given, as setHeader would hold it (already checked above).
      this.#fields.push(lower, name, value);
      return this;
    }
    // As Node: the values as given, pushed onto the list already held (the caller's own array, if set so).
    const existing = this.#fields[at + 2] as HeaderValue;
    const values = (Array.isArray(existing) ? existing : [existing]) as (string | number)[];
    if (Array.isArray(value)) for (const each of value) values.push(each);
    else values.push(value);
    this.#fields[at + 2] = values as HeaderValue;
    return this;
  }

  override getHeader(name: string): HeaderValue | undefined {
    if (typeof name !== 'string') return super.getHeader(name);
    const at = this.#indexOf(lowerCased(name));
    return at < 0 ? undefined : (this.#fields[at + 2] as HeaderValue);
  }

  override hasHeader(name: string): boolean {
    if (typeof name !== 'string') return super.hasHeader(name);
    return this.#indexOf(lowerCased(name)) >= 0;
  }

  override removeHeader(name: string): void {
    // Once sent, or a name that is not even a string: Node's own, which refuses either.
    if (this._header || typeof name !== 'string') return super.removeHeader(name);
    const lower = lowerCased(name);
    // Node's own, with the name it would lower-case itself (so it has nothing to copy): what
    // removing Connection, Content-Length, Transfer-Encoding or Date means for the response it writes.
    super.removeHeader(lower);
    const at = this.#indexOf(lower);
    if (at < 0) return;
    // The later headers moved up in place and the last three entries popped: splice() would also
    // make an array of the three removed, and setting an array's length takes V8's slow path.
    const fields = this.#fields;
    for (let index = at + 3; index < fields.length; index += 1) fields[index - 3] = fields[index]!;
    fields.pop();
    fields.pop();
    fields.pop();
  }

  override getHeaderNames(): string[] {
    return this.#names(0);
  }

  /** Node's getRawHeaderNames() (not in @types/node): the names as they were set. */
  getRawHeaderNames(): string[] {
    return this.#names(1);
  }

  override getHeaders(): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = Object.create(null) as OutgoingHttpHeaders;
    for (let at = 0; at < this.#fields.length; at += 3)
      headers[this.#fields[at] as string] = this.#fields[at + 2] as OutgoingHttpHeader;
    return headers;
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    if (this._header) return super.writeHead(statusCode, reason as string, headers);
    const given = typeof reason === 'string' ? headers : (headers ?? reason);
    // Nothing set before: Node's own path, which checks and writes the given headers as they are.
    if (this.#fields.length === 0) return super.writeHead(statusCode, reason as string, headers);
    // Else as Node merges them with those set before: these win, explicit duplicates are kept.
    if (Array.isArray(given)) {
      if (given.length % 2 !== 0) return super.writeHead(statusCode, reason as string, headers);
      for (let index = 0; index < given.length; index += 2) this.removeHeader(given[index] as string);
      for (let index = 0; index < given.length; index += 2)
        if (given[index]) this.appendHeader(String(given[index]), given[index + 1] as string | string[]);
    } else if (given) {
      for (const name of Object.keys(given)) if (name) this.setHeader(name, given[name] as HeaderValue);
    }
    const storage = nodeHeaderStorage(this);
    if (storage !== undefined && (this as unknown as Record<symbol, unknown>)[storage] === null)
      return this.#writeHeadFromStorage(storage, statusCode, reason);
    // Else (a Node without that storage, or one already holding headers there): handed over as a
    // list, which Node checks again.
    const list: HeaderValue[] = [];
    for (let at = 0; at < this.#fields.length; at += 3)
      list.push(this.#fields[at + 1] as string, this.#fields[at + 2] as HeaderValue);
    return typeof reason === 'string'
      ? super.writeHead(statusCode, reason, list as OutgoingHttpHeader[])
      : super.writeHead(statusCode, list as OutgoingHttpHeader[]);
  }

  /**
   * Node's writeHead with the headers put in Node's own storage first, as its setHeader() puts them
   * there: Node writes what it holds there without checking it again, since setHeader() checked it,
   * and this class's setHeader() and appendHeader() checked every header here the same way. Handed
   * over as a list instead, every name and value went through Node's two regular expressions a
   * second time: about 7% of the instructions of a GET of one resource (bench/HISTORY.md).
   */
  #writeHeadFromStorage(storage: symbol, statusCode: number, reason: string | undefined | object): this {
    const held = Object.create(STORAGE_PROTOTYPE) as Record<string, [string, HeaderValue]>;
    for (let at = 0; at < this.#fields.length; at += 3)
      held[this.#fields[at] as string] = [this.#fields[at + 1] as string, this.#fields[at + 2] as HeaderValue];
    const self = this as unknown as Record<symbol, unknown>;
    self[storage] = held;
    try {
      return typeof reason === 'string' ? super.writeHead(statusCode, reason) : super.writeHead(statusCode);
    } catch (error) {
      // A refused status or reason sends nothing: the headers stay this class's alone, as they were.
      self[storage] = null;
      throw error;
    }
  }

  /** Every header's name: lower-cased (offset 0) or as set (offset 1), in order. */
  #names(offset: 0 | 1): string[] {
    const names: string[] = [];
    for (let at = offset; at < this.#fields.length; at += 3) names.push(this.#fields[at] as string);
    return names;
  }

  #indexOf(lower: string): number {
    const fields = this.#fields;
    for (let at = 0; at < fields.length; at += 3) if (fields[at] === lower) return at;
    return -1;
  }

  /**
   * Node's check of a value, with Node's own error; under lenient validation, only what that refuses.
   * A value equal to the last one this name took passed the strict check then and is not checked
   * again: most of a response's headers carry the same value on every response.
   */
  #checkValue(known: KnownName, name: string, value: HeaderValue): void {
    if (value === known.lastValid && value !== undefined) return;
    if (value !== undefined && this._isLenientHeaderValidation?.() === true && !INVALID_LENIENT.test(String(value)))
      return;
    // Typed for strings only; Node checks a number or a list of strings as setHeader() does.
    validateHeaderValue(name, value as string);
    if (typeof value === 'string' || typeof value === 'number') known.lastValid = value;
  }

  /** Node's (internal, Node 24): whether the server was made with lenient header validation. Node 22 has none and checks strictly. */
  declare _isLenientHeaderValidation?: () => boolean;
  /** Node's (internal): the header block, once written. */
  declare _header: string | null;
}
