import { createServer, ServerResponse, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HeaderListResponse } from '../../../runtime/server/index.ts';
import { openSocket } from '../../support/raw-http.ts';

/** What a scenario saw: each call's result, or the code and message of what it threw. */
type Observed = unknown[];
type Scenario = (res: ServerResponse, seen: Observed) => void;

function attempt(seen: Observed, call: () => unknown): void {
  try {
    const result = call();
    seen.push(result instanceof ServerResponse ? 'this' : result);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    seen.push({ code, message });
  }
}

/** Everything a caller can read back of the headers, in plain objects (getHeaders has no prototype). */
function readBack(res: ServerResponse, seen: Observed): void {
  seen.push(
    { ...res.getHeaders() },
    res.getHeaderNames(),
    (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames(),
  );
}

/** Serves one request with `scenario` on a server whose responses are `Response`; the raw bytes and what it saw. */
async function run(
  Response: typeof ServerResponse<IncomingMessage>,
  scenario: Scenario,
  { insecureHTTPParser = false } = {},
): Promise<{ wire: string; seen: Observed }> {
  const seen: Observed = [];
  const server = createServer({ ServerResponse: Response, insecureHTTPParser }, (_req, res) => {
    res.sendDate = false;
    scenario(res, seen);
    if (!res.writableEnded) res.end('done');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const socket = await openSocket(`http://127.0.0.1:${port}/`);
    // Read as latin1, the encoding Node writes header values in: one character per byte on the wire.
    const wire = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
      socket.end('GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n');
    });
    return { wire, seen };
  } finally {
    server.close();
  }
}

const SCENARIOS: Record<string, Scenario> = {
  'set, overwrite in another case, read back': (res, seen) => {
    attempt(seen, () => res.setHeader('Content-Type', 'application/json'));
    attempt(seen, () => res.setHeader('X-Total-Count', 20));
    attempt(seen, () => res.setHeader('Set-Cookie', ['a=1', 'b=2']));
    attempt(seen, () => res.setHeader('content-type', 'text/plain; charset=utf-8'));
    attempt(seen, () => res.setHeader('X-Latin', 'caf\u00e9'));
    attempt(seen, () => [
      res.getHeader('CONTENT-TYPE'),
      res.getHeader('x-total-count'),
      res.getHeader('nope'),
      res.hasHeader('Set-cookie'),
      res.hasHeader('nope'),
    ]);
    readBack(res, seen);
  },
  'append to nothing, to a string, to a list, a list': (res, seen) => {
    attempt(seen, () => res.appendHeader('Vary', 'Accept'));
    attempt(seen, () => res.appendHeader('vary', 'Accept-Encoding'));
    attempt(seen, () => res.setHeader('Link', ['<a>; rel="next"']));
    attempt(seen, () => res.appendHeader('Link', ['<b>; rel="prev"', '<c>; rel="last"']));
    attempt(seen, () => res.setHeader('X-Number', 7));
    attempt(seen, () => res.appendHeader('X-Number', '8'));
    // Node appends onto the very array it was given.
    const own = ['mine'];
    attempt(seen, () => res.setHeader('X-Own', own));
    attempt(seen, () => res.appendHeader('x-own', 'appended'));
    seen.push([...own]);
    readBack(res, seen);
  },
  'remove: set ones, unknown ones, and the ones Node treats apart': (res, seen) => {
    res.sendDate = true;
    attempt(seen, () => res.setHeader('A', '1'));
    attempt(seen, () => res.setHeader('B', '2'));
    attempt(seen, () => res.removeHeader('a'));
    attempt(seen, () => res.removeHeader('missing'));
    // Removed, these are not written at all (Node writes Date and Content-Length by itself otherwise).
    attempt(seen, () => res.removeHeader('Date'));
    attempt(seen, () => res.removeHeader('Content-Length'));
    attempt(seen, () => res.setHeader('A', 'again'));
    readBack(res, seen);
  },
  'bad names and values get Node’s errors and leave the headers as they were': (res, seen) => {
    attempt(seen, () => res.setHeader('Good', 'yes'));
    attempt(seen, () => res.setHeader('Bad Name', 'x'));
    attempt(seen, () => res.setHeader('', 'x'));
    attempt(seen, () => res.setHeader(undefined as unknown as string, 'x'));
    attempt(seen, () => res.appendHeader(42 as unknown as string, 'x'));
    attempt(seen, () => res.setHeader('X-Split', 'a\r\nInjected: yes'));
    attempt(seen, () => res.setHeader('X-Wide', '\u20ac'));
    attempt(seen, () => res.setHeader('X-Del', 'a\u007fb'));
    attempt(seen, () => res.setHeader('X-Undefined', undefined as unknown as string));
    attempt(seen, () => res.setHeader('X-List', ['fine', 'not\nfine']));
    attempt(seen, () => res.appendHeader('Good', 'bad\u0000'));
    attempt(seen, () => res.appendHeader('Bad:Name', 'x'));
    attempt(seen, () => res.getHeader(42 as unknown as string));
    attempt(seen, () => res.hasHeader(undefined as unknown as string));
    attempt(seen, () => res.removeHeader(undefined as unknown as string));
    readBack(res, seen);
  },
  'after the headers are sent every change is refused, reads still answer': (res, seen) => {
    attempt(seen, () => res.setHeader('X-Before', 'yes'));
    res.write('part');
    attempt(seen, () => res.setHeader('X-After', 'no'));
    attempt(seen, () => res.appendHeader('X-Before', 'no'));
    attempt(seen, () => res.removeHeader('X-Before'));
    attempt(seen, () => res.writeHead(500));
    attempt(seen, () => [res.headersSent, res.getHeader('x-before'), res.hasHeader('X-BEFORE')]);
    readBack(res, seen);
  },
  'writeHead with an object merges over what was set': (res, seen) => {
    attempt(seen, () => res.setHeader('Content-Type', 'text/plain'));
    attempt(seen, () => res.setHeader('X-Kept', 'yes'));
    attempt(seen, () => res.writeHead(201, { 'content-type': 'application/json', 'X-New': ['1', '2'] }));
    readBack(res, seen);
  },
  'writeHead with a reason and a flat list keeps explicit duplicates': (res, seen) => {
    attempt(seen, () => res.setHeader('X-Replaced', 'old'));
    attempt(seen, () => res.setHeader('X-Kept', 'yes'));
    attempt(seen, () => res.writeHead(202, 'Taken In', ['X-Replaced', 'new-1', 'x-replaced', 'new-2', 'X-Other', 'o']));
    readBack(res, seen);
  },
  'writeHead with an odd list, or a bad status, is refused': (res, seen) => {
    attempt(seen, () => res.setHeader('X-Set', 'yes'));
    attempt(seen, () => res.writeHead(99));
    attempt(seen, () => res.writeHead(200, ['X-Alone']));
    attempt(seen, () => res.writeHead(200, 'Bad\nReason'));
    // Node keeps the refused reason; a good one lets the response go out.
    res.statusMessage = 'OK';
    readBack(res, seen);
  },
  'writeHead alone, nothing set before': (res, seen) => {
    attempt(seen, () => res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '4' }));
    readBack(res, seen);
    res.end('fine');
  },
  'Connection: close and a chunked body': (res, seen) => {
    attempt(seen, () => res.setHeader('Connection', 'close'));
    attempt(seen, () => res.setHeader('Content-Type', 'text/plain'));
    res.write('one,');
    res.end('two');
  },
  'the same value again, a refused one under that name, then the first again': (res, seen) => {
    attempt(seen, () => res.setHeader('X-Same', 'ok'));
    attempt(seen, () => res.setHeader('X-Same', 'ok'));
    attempt(seen, () => res.setHeader('X-Same', 'bad\r\nInjected: yes'));
    attempt(seen, () => res.setHeader('X-Same', 'bad\r\nInjected: yes'));
    attempt(seen, () => res.setHeader('x-same', 'ok'));
    attempt(seen, () => res.appendHeader('X-SAME', 'ok'));
    attempt(seen, () => res.appendHeader('X-Same', 'bad\u0000'));
    attempt(seen, () => res.setHeader('X-Number', 3));
    attempt(seen, () => res.setHeader('X-Number', 3));
    attempt(seen, () => res.setHeader('X-Number', '3'));
    attempt(seen, () => res.setHeader('X-Number', 'wide \u20ac'));
    attempt(seen, () => [
      res.getHeader('x-SAME'),
      res.getHeader('Bad Name'),
      res.hasHeader('BAD NAME'),
      res.hasHeader('X-NUMBER'),
      res.getHeader(''),
    ]);
    readBack(res, seen);
  },
  'setHeaders with a Headers object': (res, seen) => {
    attempt(seen, () => res.setHeaders(new Headers({ 'X-A': '1', 'Set-Cookie': 'c=3' })));
    readBack(res, seen);
  },
};

describe('HeaderListResponse', () => {
  it.each(Object.entries(SCENARIOS))('behaves as Node’s ServerResponse: %s', async (_name, scenario) => {
    const node = await run(ServerResponse, scenario);
    const list = await run(HeaderListResponse, scenario);
    // The same answers, the same errors, and byte for byte the same response on the wire.
    expect(list.seen).toEqual(node.seen);
    expect(list.wire).toBe(node.wire);
    expect(node.wire).toMatch(/^HTTP\/1\.1 /);
  });

  it('a value a lenient server took (insecureHTTPParser) is still refused by a strict one, as by Node', async () => {
    // A byte Node's strict check refuses and its lenient check lets through (DEL).
    const scenario: Scenario = (res, seen) => {
      attempt(seen, () => res.setHeader('X-Lenient', 'a\u007fb'));
      attempt(seen, () => res.setHeader('X-Lenient', 'a\u007fb'));
      readBack(res, seen);
    };
    for (const insecureHTTPParser of [true, false, true]) {
      const node = await run(ServerResponse, scenario, { insecureHTTPParser });
      const list = await run(HeaderListResponse, scenario, { insecureHTTPParser });
      expect(list.seen, `insecureHTTPParser: ${insecureHTTPParser}`).toEqual(node.seen);
      expect(list.wire).toBe(node.wire);
    }
  });

  it('hands its headers to Node where Node keeps those its setHeader() checked, so they are not checked twice', async () => {
    // Node's own storage (kOutHeaders, internal): a response's headers are written from there without
    // a second check. Should a Node keep them elsewhere, this fails rather than every header quietly
    // going through Node's check again.
    let stored: unknown = 'not seen';
    await run(HeaderListResponse, (res) => {
      res.setHeader('Content-Type', 'text/plain');
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.writeHead(200);
      const storage = Object.getOwnPropertySymbols(res).find((symbol) => symbol.description === 'kOutHeaders');
      stored = storage === undefined ? 'no kOutHeaders' : { ...(res as unknown as Record<symbol, object>)[storage] };
    });
    expect(stored).toEqual({
      'content-type': ['Content-Type', 'text/plain'],
      'set-cookie': ['Set-Cookie', ['a=1', 'b=2']],
    });
  });

  it('sends the headers in the order they were first set, names as last set', async () => {
    const { wire } = await run(HeaderListResponse, (res) => {
      res.setHeader('X-First', '1');
      res.setHeader('X-Second', '2');
      res.setHeader('x-first', 'one');
      res.statusCode = 200;
    });
    expect(wire.split('\r\n').slice(1, 3)).toEqual(['x-first: one', 'X-Second: 2']);
  });
});
