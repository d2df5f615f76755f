import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';

/**
 * What lint accepts as a scope name: lowercase words (letters, digits, `_`, `-`) joined by `:`
 * (`notes:write`, `clinic:admin`). Stricter than what a token may carry (any RFC 6749 scope-token),
 * so that the scopes an API asks for read alike and survive every header and document they appear in.
 */
const SCOPE_NAME = /^[a-z][a-z0-9_-]*(:[a-z][a-z0-9_-]*)*$/;

/** malformed-scope: every scope a declaration or a service operation needs is a well-formed scope name. */
export const malformedScope: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] => {
    const listed = Object.entries(declaration.scopes).flatMap(([method, scopes]) => (scopes ?? []).map((scope, index) => ({ scope, at: ['scopes', method, String(index)] })));
    if (declaration.kind === 'service') {
      for (const operation of declaration.operations) {
        (operation.scopes ?? []).forEach((scope, index) => listed.push({ scope, at: ['operations', String(operation.index), 'scopes', String(index)] }));
      }
    }
    return listed
      .filter(({ scope }) => !SCOPE_NAME.test(scope))
      .map(({ scope, at }) => ({
        rule: 'malformed-scope',
        source: declaration.source,
        at,
        message: `scope ${JSON.stringify(scope)} of ${declaration.kind} "${declaration.name}" is not a scope name: lowercase words of letters, digits, _ or - joined by ":" (notes:write)`,
      }));
  });
