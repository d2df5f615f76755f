import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../../codegen/load/load-definitions.ts';
import { resolveModel, type ResolvedField } from '../../../codegen/model/index.ts';
import { representationName } from '../../../codegen/openapi/representation-schemas.ts';

const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));
type Schema = { properties?: Record<string, Schema>; anyOf?: Schema[]; type?: string; maxLength?: number };

/** Every string leaf of a representation schema by its path (`profile.title`), with its maxLength; a Patch schema's `anyOf [schema, null]` is looked through. */
function stringLeaves(schema: Schema, prefix = ''): Map<string, number | undefined> {
  const leaves = new Map<string, number | undefined>();
  for (const [name, member] of Object.entries(schema.properties ?? {})) {
    const own = member.anyOf?.find((option) => option.type !== 'null') ?? member;
    if (own.type === 'object') for (const [path, max] of stringLeaves(own, `${prefix}${name}.`)) leaves.set(path, max);
    else if (own.type === 'string') leaves.set(`${prefix}${name}`, own.maxLength);
  }
  return leaves;
}

const stringFields = (fields: readonly ResolvedField[], prefix = ''): [string, number][] =>
  fields.flatMap((field) =>
    field.kind === 'object'
      ? stringFields(field.fields ?? [], `${prefix}${field.name}.`)
      : field.kind === 'string' && field.values === undefined
        ? [[`${prefix}${field.name}`, field.stringLength!.max] as [string, number]]
        : [],
  );

describe('the OpenAPI documents bound every string field (an enum by its values)', () => {
  it('with its declared or default maxLength, in the read, write and patch schemas of every version', async () => {
    const model = resolveModel(await loadDefinitions(REPOSITORY));
    let checked = 0;
    for (const version of model.versions) {
      const schemas = (
        JSON.parse(readFileSync(`${REPOSITORY}generated/openapi/${version}.json`, 'utf8')) as {
          components: { schemas: Record<string, Schema> };
        }
      ).components.schemas;
      for (const declaration of [...model.collections, ...model.aggregates, ...model.settings]) {
        const served = declaration.versions.find((candidate) => candidate.name === version);
        if (served === undefined) continue;
        const name = representationName(
          declaration.kind === 'collection' ? declaration.singular : declaration.name,
          version,
        );
        // A schema nothing refers to is left out of the document (a collection without writes has no Write schema).
        const [read, ...writes] = [name, `${name}Write`, `${name}Patch`]
          .filter((schema) => schemas[schema] !== undefined)
          .map((schema) => stringLeaves(schemas[schema]!));
        for (const [path, max] of stringFields(served.fields)) {
          // A read-only field is served, never written.
          for (const leaves of served.fields.find((field) => field.name === path)?.readOnly === true
            ? [read!]
            : [read!, ...writes]) {
            expect([declaration.name, version, path, leaves.get(path)]).toEqual([declaration.name, version, path, max]);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
