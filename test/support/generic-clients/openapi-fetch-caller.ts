import type { PlannedCall } from './call-plan.ts';

/** A call's `params` and `body` as openapi-fetch takes them, or nothing when it needs neither. */
function initOf(call: PlannedCall): string {
  const params = Object.entries({ path: call.path, query: call.query, header: call.header })
    .filter(([, values]) => Object.keys(values).length > 0)
    .map(([where, values]) => `${where}: ${JSON.stringify(values)}`);
  const members = [
    ...(params.length === 0 ? [] : [`params: { ${params.join(', ')} }`]),
    ...(call.body === undefined ? [] : [`body: ${JSON.stringify(call.body)}`]),
  ];
  return members.length === 0 ? '' : `, { ${members.join(', ')} }`;
}

/**
 * The source of a module that calls every planned operation as a TypeScript caller of openapi-fetch
 * writes it: `client.GET('/v1/orders/{order_id}', { params: { path: { order_id: 1 } } })`, each call
 * literal, so that tsc checks each one against the types openapi-typescript wrote (`./{types}.ts`).
 * No call passes User-Agent or Authorization: the client sets them once.
 */
export function openapiFetchCaller(calls: readonly PlannedCall[], types: string): string {
  const lines = calls.map(
    (call) =>
      `  { name: ${JSON.stringify(call.name)}, send: (client) => client.${call.method.toUpperCase()}(${JSON.stringify(call.template)}${initOf(call)}) },`,
  );
  return [
    "import type { Client } from 'openapi-fetch';",
    `import type { paths } from './${types}.ts';`,
    '',
    'export const calls: readonly { readonly name: string; readonly send: (client: Client<paths>) => Promise<unknown> }[] = [',
    ...lines,
    '];',
    '',
  ].join('\n');
}
