import type { PlannedCall } from './call-plan.ts';

/** A call's options as a function of @hey-api/openapi-ts's SDK takes them: the client, then path, query, headers, body. */
function optionsOf(call: PlannedCall): string {
  const members = [
    'client',
    ...Object.entries({ path: call.path, query: call.query, headers: call.header })
      .filter(([, values]) => Object.keys(values).length > 0)
      .map(([where, values]) => `${where}: ${JSON.stringify(values)}`),
    ...(call.body === undefined ? [] : [`body: ${JSON.stringify(call.body)}`]),
  ];
  return `{ ${members.join(', ')} }`;
}

/**
 * The source of a module that calls every planned operation through the SDK @hey-api/openapi-ts
 * wrote into `./{sdk}/` (one function per operationId: `getOrder({ client, path: { order_id: 1 } })`),
 * each call literal so that tsc checks it, and `connect()`, which makes the SDK's fetch client with
 * both security schemes of the document answered once by its `auth` callback: the bearer token, and
 * the User-Agent (an apiKey scheme in the User-Agent header). No call passes either.
 */
export function heyApiCaller(calls: readonly PlannedCall[], sdk: string): string {
  return [
    `import { createClient, createConfig, type Client } from './${sdk}/client/index.ts';`,
    `import * as sdk from './${sdk}/sdk.gen.ts';`,
    '',
    'export function connect(baseUrl: string, token: string, userAgent: string, fetch: typeof globalThis.fetch): Client {',
    "  return createClient(createConfig({ baseUrl, fetch, auth: (scheme) => (scheme.type === 'apiKey' && scheme.name === 'User-Agent' ? userAgent : token) }));",
    '}',
    '',
    'export const calls: readonly { readonly name: string; readonly send: (client: Client) => Promise<unknown> }[] = [',
    ...calls.map(
      (call) =>
        `  { name: ${JSON.stringify(call.name)}, send: (client) => sdk.${call.operationId}(${optionsOf(call)}) },`,
    ),
    '];',
    '',
  ].join('\n');
}
