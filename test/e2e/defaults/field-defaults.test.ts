import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../../support/test-database.ts';
import { editFile, serveCopiedProject, serveProject } from '../../support/temp-project.ts';

type Served = Awaited<ReturnType<typeof serveProject>>;

/** orders gains three fields with defaults after rows were stored: a required string, an optional integer, a required boolean. */
const WITH_DEFAULTS = (text: string) =>
  text.replace(
    '    quantity: field.integer({ required: true, min: 1, filterable: true }),\n',
    `    quantity: field.integer({ required: true, min: 1, filterable: true }),
    note: field.string({ required: true, default: "it's new", maxLength: 20 }),
    priority: field.integer({ min: 1, default: 3 }),
    rush: field.boolean({ required: true, default: false }),
`,
  );

describe('field defaults, on a database that held rows before the fields existed', () => {
  let before: Served;
  let after: Served;
  let url: string;
  let headers: Record<string, string>;
  const json = async (response: Response) => ({
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  });
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, { method, headers, body: JSON.stringify(body) });

  beforeAll(async () => {
    const databaseUrl = await newTestDatabase();
    before = await serveCopiedProject(() => undefined, databaseUrl);
    const created = await fetch(`${before.server.url}/v1/orders`, {
      method: 'POST',
      headers: before.headers,
      body: JSON.stringify({ item: 'stored before', quantity: 2 }),
    });
    expect(created.status).toBe(201);
    await before.stop();
    editFile(before.root, 'definitions/orders.ts', WITH_DEFAULTS);
    after = await serveProject(before.root, databaseUrl);
    ({ headers } = after);
    url = after.server.url;
  }, 120_000);
  afterAll(async () => after?.stop());

  it('lint accepts the required fields added to the published versions because they have defaults (a warning, not an error)', () => {
    expect(after.generated).not.toContain('published-field-required');
    expect(after.generated).toMatch(/generated \d+ files/);
  });

  it('serves a row stored before the fields existed with their defaults, in both versions', async () => {
    for (const version of ['v1', 'v2']) {
      const { status, body } = await json(await fetch(`${url}/${version}/orders/1`, { headers }));
      expect(status).toBe(200);
      expect(body).toMatchObject({
        order_id: 1,
        item: 'stored before',
        quantity: 2,
        note: "it's new",
        priority: 3,
        rush: false,
      });
    }
  });

  it('a POST that leaves them out stores the defaults; one that sends them stores what it sent', async () => {
    const left = await json(await send('POST', '/v1/orders', { item: 'left out', quantity: 1 }));
    expect(left.status).toBe(201);
    expect((await json(await fetch(`${url}/v1/orders/${String(left.body.identity)}`, { headers }))).body).toMatchObject(
      { note: "it's new", priority: 3, rush: false },
    );
    const sent = await json(
      await send('POST', '/v1/orders', { item: 'sent', quantity: 1, note: 'fragile', priority: 1, rush: true }),
    );
    expect(sent.status).toBe(201);
    expect((await json(await fetch(`${url}/v1/orders/${String(sent.body.identity)}`, { headers }))).body).toMatchObject(
      { note: 'fragile', priority: 1, rush: true },
    );
  });

  it('a required field with a default may be left out, never sent as null; the value sent is checked as ever', async () => {
    const nulled = await json(await send('POST', '/v1/orders', { item: 'x', quantity: 1, note: null }));
    expect(nulled.status).toBe(400);
    expect(nulled.body.errors).toEqual([expect.objectContaining({ code: 'missing_field', field: 'note' })]);
    const tooLong = await json(await send('POST', '/v1/orders', { item: 'x', quantity: 1, note: 'n'.repeat(21) }));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ field: 'note' })]);
  });

  it('a PUT that leaves them out stores the defaults again; a PATCH leaves them as they are', async () => {
    const { body } = await json(
      await send('POST', '/v1/orders', { item: 'to change', quantity: 1, note: 'kept', priority: 2, rush: true }),
    );
    const path = `/v1/orders/${String(body.identity)}`;
    expect((await send('PATCH', path, { quantity: 5 })).status).toBe(200);
    expect((await json(await fetch(`${url}${path}`, { headers }))).body).toMatchObject({
      quantity: 5,
      note: 'kept',
      priority: 2,
      rush: true,
    });
    expect((await send('PUT', path, { item: 'replaced', quantity: 6 })).status).toBe(200);
    expect((await json(await fetch(`${url}${path}`, { headers }))).body).toMatchObject({
      item: 'replaced',
      quantity: 6,
      note: "it's new",
      priority: 3,
      rush: false,
    });
  });

  it('the OpenAPI write schemas say the defaults and leave those fields out of required; the PATCH schema has no default', async () => {
    const document = (await (await fetch(`${url}/services/v1/openapi`, { headers })).json()) as {
      components: {
        schemas: Record<string, { required?: string[]; properties: Record<string, Record<string, unknown>> }>;
      };
    };
    const write = document.components.schemas.OrderV1Write!;
    expect(write.required).toEqual(['item', 'quantity']);
    // Said in the description, not as `default` (which generic client generators read as always present).
    expect(write.properties.note).toMatchObject({
      type: 'string',
      maxLength: 20,
      description: `Left out, it is "it's new".`,
    });
    expect(write.properties.priority).toMatchObject({ type: 'integer', description: 'Left out, it is 3.' });
    expect(write.properties.rush).toMatchObject({ type: 'boolean', description: 'Left out, it is false.' });
    expect(JSON.stringify(write)).not.toContain('"default"');
    const patch = document.components.schemas.OrderV1Patch!;
    expect(JSON.stringify(patch)).not.toContain('"default"');
  });
});
