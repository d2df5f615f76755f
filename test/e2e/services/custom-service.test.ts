import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpawnedServer } from '../../support/spawn-server.ts';
import { serveCopiedProject } from '../../support/temp-project.ts';

const CONVERSIONS = `import { z } from 'zod';
import { service } from '@convapi/dsl';

/** A service written in its definition: GET /services/{v}/unit/conversions?celsius=20, and POST with a body. */
export default service({
  name: 'unit/conversions',
  versions: { v1: {} },
  operations: [
    {
      method: 'GET',
      query: z.object({ celsius: z.coerce.number().min(-273.15) }).strict(),
      description: 'Celsius to Fahrenheit.',
      handle: ({ query }) => ({ body: { celsius: query.celsius, fahrenheit: query.celsius * 1.8 + 32 } }),
    },
    {
      method: 'POST',
      body: z.object({ values: z.array(z.number()).min(1) }).strict(),
      handle: ({ body, caller }) => ({ status: 200, body: { sum: body.values.reduce((a: number, b: number) => a + b, 0), client: caller?.client } }),
    },
  ],
});
`;

describe('a service declared with its own handlers', () => {
  let served: Awaited<ReturnType<typeof serveCopiedProject>>;
  let server: SpawnedServer;
  let headers: Record<string, string>;
  beforeAll(async () => {
    served = await serveCopiedProject((root) =>
      writeFileSync(join(root, 'definitions/unit-conversions.ts'), CONVERSIONS),
    );
    ({ server, headers } = served);
  });
  afterAll(async () => served.stop());
  it('is served on the service family with validated query and body', async () => {
    const get = await fetch(`${server.url}/services/v1/unit/conversions?celsius=100`, { headers });
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ celsius: 100, fahrenheit: 212 });
    const post = await fetch(`${server.url}/services/v1/unit/conversions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ values: [1, 2, 3] }),
    });
    expect(await post.json()).toEqual({ sum: 6, client: 'copied-project' });
  });

  it.each([
    ['GET', '?celsius=-300', undefined, 'celsius'],
    ['GET', '?kelvin=1', undefined, 'kelvin'],
    ['POST', '', { values: [] }, 'values'],
    ['POST', '', { values: [1], extra: true }, 'extra'],
  ])('%s%s with bad input gets 400 naming the field', async (method, query, body, field) => {
    const response = await fetch(`${server.url}/services/v1/unit/conversions${query}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: { field: string }[] }).errors.map((entry) => entry.field)).toContain(
      field,
    );
  });

  it('has its own router: a setting path or a resource path is not a service', async () => {
    expect((await fetch(`${server.url}/v1/unit/conversions`, { headers })).status).toBe(404);
    expect((await fetch(`${server.url}/services/v2/unit/conversions?celsius=1`, { headers })).status).toBe(404);
  });
});
