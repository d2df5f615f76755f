import type { ResolvedModel } from '../model/index.ts';
import { pascalOf } from '../emit/names.ts';
import type { DeclarationOf } from './representation-schemas.ts';
import { jsonSchemaOf, type JsonSchema } from './schema-of.ts';

/** Component name of one job type's request body: `QueuedJobsReindexJob`. */
export const jobSchemaName = (queue: string, type: string) => `${pascalOf(queue)}${pascalOf(type)}Job`;

/** One named schema per job type of every job queue serving this version: `{type, ...payload}`. */
export function jobBodySchemas(
  model: ResolvedModel,
  version: string,
  declarationOf: DeclarationOf,
): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const service of model.services) {
    if (service.handler !== 'job-queue' || !service.versions.some((candidate) => candidate.name === version)) continue;
    const declaration = declarationOf(service.source) as {
      jobs: Record<string, { payload: unknown; description?: string }>;
    };
    for (const type of service.jobTypes) {
      const job = declaration.jobs[type]!;
      const payload = jsonSchemaOf(job.payload) as { properties?: Record<string, JsonSchema>; required?: string[] };
      schemas[jobSchemaName(service.name, type)] = {
        type: 'object',
        description: job.description ?? `A ${type} job.`,
        required: ['type', ...(payload.required ?? [])],
        additionalProperties: false,
        properties: { type: { type: 'string', const: type }, ...(payload.properties ?? {}) },
      };
    }
  }
  return schemas;
}
