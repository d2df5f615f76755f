import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startApi } from '../start-api.ts';
import { issueToken } from '../token-cli.ts';
import { callPlan, isDocumented, operationsOf, scopesOf } from './call-plan.ts';
import { documentOf } from './client-folder.ts';
import { recordingFetch } from './recorded-calls.ts';

/** What a caller module written into a client folder exports: its calls, in the plan's order. */
interface CallerModule {
  readonly calls: readonly { readonly name: string; readonly send: (client: unknown) => Promise<unknown> }[];
}

/** What sending every call of a caller module showed. */
export interface EveryOperationReport {
  /** `METHOD template → status` of each answer whose status the document does not list for its operation. */
  readonly undocumented: string[];
  /** The operation each request reached, sorted, beside the document's operations, sorted. */
  readonly reached: string[];
  readonly operations: string[];
  /** Each request's call name beside the operation it reached, where they differ. */
  readonly misdirected: string[];
  /** The User-Agent values the requests carried. */
  readonly userAgents: (string | null)[];
}

/**
 * Starts a server on an empty database, issues a token with every scope the document names, makes a
 * client with `connect` (which must send through the given fetch) and sends each call of the caller
 * module `{folder}/{version}-calls.ts` in order, noting what the server answered to each.
 */
export async function sendEveryOperation(
  version: string,
  folder: string,
  clientName: string,
  connect: (baseUrl: string, token: string, fetch: typeof globalThis.fetch, caller: unknown) => unknown,
): Promise<EveryOperationReport> {
  const document = documentOf(version);
  const plan = callPlan(document);
  const server = await startApi();
  try {
    const recorder = recordingFetch(document);
    const token = issueToken(server.databaseUrl, clientName, { scopes: scopesOf(document) });
    const caller = (await import(pathToFileURL(join(folder, `${version}-calls.ts`)).href)) as CallerModule;
    const client = connect(server.url, token, recorder.fetch, caller);
    const undocumented: string[] = [];
    const misdirected: string[] = [];
    for (const [index, call] of caller.calls.entries()) {
      await call.send(client);
      const answer = recorder.calls.at(-1)!;
      if (answer.operation !== call.name) misdirected.push(`${call.name} reached ${answer.operation}`);
      if (!isDocumented(plan[index]!, answer.status)) undocumented.push(`${call.name} → ${answer.status}`);
    }
    return {
      undocumented,
      misdirected,
      reached: recorder.calls.map((answer) => answer.operation).sort(),
      operations: operationsOf(document).sort(),
      userAgents: [...new Set(recorder.calls.map((answer) => answer.userAgent))],
    };
  } finally {
    await server.close();
  }
}
