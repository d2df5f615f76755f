import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const PRISM = fileURLToPath(new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));

export interface PrismProxy {
  readonly url: string;
  stop(): Promise<void>;
}

/** A free loopback port, found by letting the system pick one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Stoplight Prism in validating-proxy mode (`prism proxy DOCUMENT UPSTREAM --errors`): it checks each
 * request against the document before forwarding it, and each response after; with --errors a
 * violation on either side is answered as an application/problem+json body whose `type` is one of
 * Prism's own error addresses, instead of the upstream's answer.
 */
export async function startPrismProxy(documentPath: string, upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM, 'proxy', documentPath, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${output.join('\n')}`)), 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`prism exited before listening:\n${output.join('\n')}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Prism's own answer to a request or response that breaks the document, or undefined for the upstream's answer. */
export function prismViolation(response: {
  headers: Record<string, unknown>;
  body: unknown;
  text?: string;
}): string | undefined {
  const type = String(response.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) return undefined;
  const body = (response.body ?? JSON.parse(response.text ?? '{}')) as {
    type?: string;
    title?: string;
    detail?: string;
    validation?: unknown;
  };
  if (!String(body.type).includes('stoplight.io/prism')) return undefined;
  return `${body.title ?? body.type}: ${JSON.stringify(body.validation ?? body.detail)}`;
}
