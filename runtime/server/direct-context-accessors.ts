import type Koa from 'koa';

/** What the accessors below reach through: Koa's request and response of the context. */
interface DelegatingContext {
  request: Record<string, unknown>;
  response: Record<string, unknown>;
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
 * Idempotent; any Koa app can take it.
 *
 * @example
 * directContextAccessors(app);
 * createServer(requestListener(app)).listen(3000);
 */
export function directContextAccessors(app: Koa): void {
  // One function literal per property, written out: a loop would make them one function again.
  const accessors: PropertyDescriptorMap = {
    method: {
      get(this: DelegatingContext) {
        return this.request.method;
      },
      set(this: DelegatingContext, value: unknown) {
        this.request.method = value;
      },
      enumerable: true,
      configurable: true,
    },
    path: {
      get(this: DelegatingContext) {
        return this.request.path;
      },
      set(this: DelegatingContext, value: unknown) {
        this.request.path = value;
      },
      enumerable: true,
      configurable: true,
    },
    querystring: {
      get(this: DelegatingContext) {
        return this.request.querystring;
      },
      set(this: DelegatingContext, value: unknown) {
        this.request.querystring = value;
      },
      enumerable: true,
      configurable: true,
    },
    status: {
      get(this: DelegatingContext) {
        return this.response.status;
      },
      set(this: DelegatingContext, value: unknown) {
        this.response.status = value;
      },
      enumerable: true,
      configurable: true,
    },
    body: {
      get(this: DelegatingContext) {
        return this.response.body;
      },
      set(this: DelegatingContext, value: unknown) {
        this.response.body = value;
      },
      enumerable: true,
      configurable: true,
    },
    length: {
      get(this: DelegatingContext) {
        return this.response.length;
      },
      set(this: DelegatingContext, value: unknown) {
        this.response.length = value;
      },
      enumerable: true,
      configurable: true,
    },
    headerSent: {
      get(this: DelegatingContext) {
        return this.response.headerSent;
      },
      enumerable: true,
      configurable: true,
    },
    writable: {
      get(this: DelegatingContext) {
        return this.response.writable;
      },
      enumerable: true,
      configurable: true,
    },
  };
  // A property the app's context already has of its own (the app's, or an earlier call's) is kept.
  for (const name of Object.keys(accessors)) if (Object.hasOwn(app.context, name)) delete accessors[name];
  Object.defineProperties(app.context, accessors);
}
