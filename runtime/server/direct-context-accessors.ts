import type Koa from 'koa';

/** What the accessors below reach through: Koa's request and response of the context. */
interface DelegatingContext {
  request: Record<string, unknown>;
  response: Record<string, unknown>;
}

/** A delegated property's descriptor, enumerable and configurable as Koa's delegation defines it. */
function delegated(
  get: (this: DelegatingContext) => unknown,
  set?: (this: DelegatingContext, value: unknown) => void,
): PropertyDescriptor {
  return { get, ...(set === undefined ? {} : { set }), enumerable: true, configurable: true };
}

/**
 * Koa reaches ctx.method, ctx.path, ctx.status, ctx.body and the rest through the `delegates`
 * package, whose every getter is one and the same function (`return this[target][name]`): V8 sees
 * every delegated name at that one property access and answers each with its megamorphic
 * (hash-table) lookup, twice per access. A request reads and writes these a few dozen times between
 * the runtime and Koa itself. Here the most used of them get a getter and setter of their own on the
 * app's context prototype (`app.context`, which Koa makes per app), each doing exactly what Koa's
 * delegation does: the same target, the same property, the same result. Every other context
 * property stays Koa's, and so does one the app has already defined on its context itself.
 *
 * The app's response prototype (`app.response`) gets its own `length` setter too: Koa's sets
 * Content-Length through response.set(), which builds two arrays and a closure for the one header,
 * and every string or Buffer body sets it. This one does what that does (nothing when
 * Transfer-Encoding is set or the headers are sent; a list of one value is left to Koa's own).
 * Idempotent; any Koa app can take it.
 *
 * @example
 * directContextAccessors(app);
 * createServer(requestListener(app)).listen(3000);
 */
export function directContextAccessors(app: Koa): void {
  // One function literal per property, written out: a loop would make them one function again.
  const accessors: PropertyDescriptorMap = {
    method: delegated(
      function () {
        return this.request.method;
      },
      function (value) {
        this.request.method = value;
      },
    ),
    path: delegated(
      function () {
        return this.request.path;
      },
      function (value) {
        this.request.path = value;
      },
    ),
    querystring: delegated(
      function () {
        return this.request.querystring;
      },
      function (value) {
        this.request.querystring = value;
      },
    ),
    status: delegated(
      function () {
        return this.response.status;
      },
      function (value) {
        this.response.status = value;
      },
    ),
    body: delegated(
      function () {
        return this.response.body;
      },
      function (value) {
        this.response.body = value;
      },
    ),
    length: delegated(
      function () {
        return this.response.length;
      },
      function (value) {
        this.response.length = value;
      },
    ),
    headerSent: delegated(function () {
      return this.response.headerSent;
    }),
    writable: delegated(function () {
      return this.response.writable;
    }),
  };
  // A property the app's context already has of its own (the app's, or an earlier call's) is kept.
  for (const name of Object.keys(accessors)) if (Object.hasOwn(app.context, name)) delete accessors[name];
  Object.defineProperties(app.context, accessors);
  directResponseLength(app);
}

/** What the length setter reaches through: Koa's response. */
interface KoaResponse {
  readonly res: { readonly headersSent: boolean; setHeader(name: string, value: number | string): unknown };
  has(name: string): boolean;
}

/** `app.response.length = n` as Koa's setter does it, without response.set()'s arrays (see above). */
function directResponseLength(app: Koa): void {
  if (Object.hasOwn(app.response, 'length')) return;
  // Koa's own accessor, inherited from its response prototype: the getter, and the setter for a list.
  const koa = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(app.response) as object, 'length');
  if (koa?.get === undefined || koa.set === undefined) return;
  const koaSet = koa.set;
  Object.defineProperty(app.response, 'length', {
    get: koa.get,
    set(this: KoaResponse, value: unknown) {
      if (typeof value !== 'number' && typeof value !== 'string') {
        koaSet.call(this, value);
        return;
      }
      if (this.has('Transfer-Encoding') || this.res.headersSent) return;
      this.res.setHeader('Content-Length', value);
    },
    enumerable: koa.enumerable ?? true,
    configurable: true,
  });
}
