import { createServer, request as httpRequest, type Server } from 'node:http';
import { Readable } from 'node:stream';
import Koa, { type Middleware } from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { requestListener, type ArrivalHandling } from '../../../runtime/server/index.ts';
import { sequence } from '../../../runtime/fast-path/sequence.ts';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function answerOf(listener: Parameters<typeof createServer>[0] & object, method: string): Promise<Answer> {
  const server = createServer(listener as never);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path: '/thing' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const { date: _date, ...headers } = response.headers;
        resolve({ status: response.statusCode!, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The answers of app.callback() and of requestListener(app) for the same app and request. */
async function bothAnswers(
  middleware: Middleware,
  method = 'GET',
  onError?: (error: Error) => void,
  arrivals?: ArrivalHandling,
) {
  const app = () => {
    const koa = new Koa();
    koa.silent = true;
    if (onError !== undefined) koa.on('error', onError);
    koa.use(sequence([middleware]));
    return koa;
  };
  return {
    koa: await answerOf(app().callback(), method),
    listener: await answerOf(requestListener(app(), { arrivals }), method),
  };
}

const cases: Record<string, Middleware> = {
  'a string body': (ctx) => {
    ctx.set('X-Thing', 'yes');
    ctx.type = 'application/json';
    ctx.body = '{"a":1}';
  },
  'a Buffer body': (ctx) => {
    ctx.body = Buffer.from('bytes');
  },
  'a 201 with a body': (ctx) => {
    ctx.status = 201;
    ctx.body = 'made';
  },
  'a 204': (ctx) => {
    ctx.body = 'dropped';
    ctx.status = 204;
  },
  'a 204 given a body after its status': (ctx) => {
    ctx.status = 204;
    ctx.body = 'kept by Koa until it responds';
  },
  'a 304 with only a Content-Length left': (ctx) => {
    ctx.status = 304;
    ctx.set('Content-Length', '12');
  },
  'a 205 with a Transfer-Encoding left': (ctx) => {
    ctx.status = 205;
    ctx.set('Transfer-Encoding', 'chunked');
  },
  'a 304 with a Content-Type left': (ctx) => {
    ctx.type = 'application/json';
    ctx.status = 304;
  },
  'no body at all (Koa 404)': () => {},
  'a status without a body': (ctx) => {
    ctx.status = 418;
  },
  'an explicit null body': (ctx) => {
    ctx.status = 200;
    ctx.body = null;
  },
  'an object body': (ctx) => {
    ctx.body = { a: [1, 2] };
  },
  'a stream body': (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = Readable.from(['one ', 'two']);
  },
  'an asynchronous handler': async (ctx) => {
    ctx.status = 202;
    await new Promise((resolve) => setTimeout(resolve, 5));
    ctx.body = 'later';
  },
  'a handler that throws': () => {
    throw Object.assign(new Error('no'), { status: 409, expose: true });
  },
  'a handler that rejects': async () => {
    await Promise.resolve();
    throw new Error('broken');
  },
  'ctx.respond = false, answered by hand': (ctx) => {
    ctx.respond = false;
    ctx.res.statusCode = 200;
    ctx.res.end('by hand');
  },
};

describe('requestListener()', () => {
  for (const [name, middleware] of Object.entries(cases)) {
    for (const method of ['GET', 'HEAD']) {
      it(`answers ${method} with ${name} as app.callback() does`, async () => {
        const { koa, listener } = await bothAnswers(middleware, method);
        expect(listener).toEqual(koa);
      });
    }
  }

  it("reports a handler's failure on the app's error event, as app.callback() does", async () => {
    const reported: string[] = [];
    const { koa, listener } = await bothAnswers(
      () => {
        throw new Error('the disk is on fire');
      },
      'GET',
      (error) => reported.push(error.message),
    );
    expect(listener).toEqual(koa);
    expect(koa.status).toBe(500);
    expect(reported).toEqual(['the disk is on fire', 'the disk is on fire']);
  });

  it("runs the middleware's synchronous part under the given handleArrival() (a store's: its SQLite reads share the turn's snapshot), and nothing after it", async () => {
    let arriving = 0;
    const arrivals: ArrivalHandling = {
      handleArrival(handle, a, b) {
        arriving += 1;
        try {
          return handle(a, b);
        } finally {
          arriving -= 1;
        }
      },
    };
    const seen: Record<string, boolean> = {};
    const { listener } = await bothAnswers(
      async (ctx) => {
        seen.synchronously = arriving > 0;
        await Promise.resolve();
        seen.afterAPromise = arriving > 0;
        ctx.body = 'read';
      },
      'GET',
      undefined,
      arrivals,
    );
    expect(listener.body).toBe('read');
    expect(seen).toEqual({ synchronously: true, afterAPromise: false });
    expect(arriving).toBe(0);
  });
});
