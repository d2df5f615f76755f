import type { ResolvedCollection, ResolvedDeclaration, ResolvedField } from '../../model/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';

/** Members of the error body: a representation that has them reads like an error. */
const ERROR_BODY = ['message', 'errors'] as const;
/** Members the server sets on every resource of a collection: the creation result and the bookkeeping times. */
const SERVER_SET = ['created_at', 'updated_at', 'uri', 'identity', 'links'] as const;

/** The member names a declaration's own fields may not take, each with why. */
function reservedNames(declaration: ResolvedDeclaration): Map<string, string> {
  const reserved = new Map<string, string>(ERROR_BODY.map((name) => [name, 'a member of the error body']));
  if (declaration.kind === 'collection' || declaration.kind === 'aggregate') {
    for (const name of SERVER_SET)
      reserved.set(
        name,
        name.endsWith('_at')
          ? 'a time the server sets on every resource'
          : 'a member of the creation result (201) the server sends',
      );
  }
  if (declaration.kind === 'collection')
    reserved.set(declaration.identifier.name, `the identifier of ${declaration.name}, assigned by the server`);
  return reserved;
}

/** The top-level members of every version's representation (stored fields and each version's own shape). */
function topLevelFields(
  declaration: ResolvedCollection | Exclude<ResolvedDeclaration, ResolvedCollection>,
): ResolvedField[] {
  const fields = 'fields' in declaration ? [...declaration.fields] : [];
  for (const version of declaration.versions) if (version.shaped) fields.push(...version.fields);
  return [...new Map(fields.map((field) => [field.access.join('.'), field])).values()];
}

/**
 * reserved-member-name: a field may not take the name of a member the server manages (the identifier,
 * created_at, updated_at, uri, identity, links) or of the error body (message, errors): the generated
 * types would declare it twice, and at run time the server's value silently replaces the client's.
 */
export const reservedMemberName: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] => {
    const reserved = reservedNames(declaration);
    return topLevelFields(declaration)
      .filter((field) => reserved.has(field.name))
      .map((field) => ({
        rule: 'reserved-member-name',
        source: declaration.source,
        at: field.access,
        message: `field "${field.name}" of ${declaration.kind} "${declaration.name}" has the name of ${reserved.get(field.name)}: the server's value would replace the client's; rename the field (for example "${prefixedName(declaration.kind === 'collection' ? declaration.singular : declaration.name, field.name)}")`,
      }));
  });

/**
 * The suggested new name: the field's name after the declaration's, in the lowercase snake_case that
 * property-name-case asks for whatever the declaration's own name is (`Shelf` or `queued/jobs`).
 */
function prefixedName(declarationName: string, fieldName: string): string {
  const prefix = declarationName
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, '_')
    .replaceAll(/^_+|_+$/g, '');
  return prefix === '' ? `own_${fieldName}` : `${prefix}_${fieldName}`;
}
