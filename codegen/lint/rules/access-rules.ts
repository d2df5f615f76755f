import type { ResolvedFieldKind } from '../../model/index.ts';
import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';

/**
 * What lint accepts as a scope name: lowercase words (letters, digits, `_`, `-`) joined by `:`
 * (`notes:write`, `clinic:admin`). Stricter than what a token may carry (any RFC 6749 scope-token),
 * so that the scopes an API asks for read alike and survive every header and document they appear in.
 */
const SCOPE_NAME = /^[a-z][a-z0-9_-]*(:[a-z][a-z0-9_-]*)*$/;

/** malformed-scope: every scope a declaration, a service or own operation or a row rule names is a well-formed scope name. */
export const malformedScope: Rule = ({ model }) =>
  allDeclarations(model).flatMap((declaration): Finding[] => {
    const listed = Object.entries(declaration.scopes).flatMap(([method, scopes]) =>
      (scopes ?? []).map((scope, index) => ({ scope, at: ['scopes', method, String(index)] })),
    );
    if (declaration.kind === 'service') {
      for (const operation of declaration.operations) {
        (operation.scopes ?? []).forEach((scope, index) =>
          listed.push({ scope, at: ['operations', String(operation.index), 'scopes', String(index)] }),
        );
      }
    }
    if (declaration.kind === 'collection') {
      // The scopes a row rule names too: a malformed one could never be granted, so its branch never holds.
      for (const { scope, access } of declaration.rows?.scopes ?? []) listed.push({ scope, at: [...access] });
      for (const operation of declaration.ownOperations) {
        (operation.scopes ?? []).forEach((scope, index) =>
          listed.push({ scope, at: ['ownOperations', String(operation.index), 'scopes', String(index)] }),
        );
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

/** The field kinds an operand can equal: a caller's value is a string (a user or client name). */
function kindsFor(operand: unknown): readonly ResolvedFieldKind[] {
  if (typeof operand === 'object' && operand !== null) return ['string', 'reference'];
  if (typeof operand === 'string') return ['string', 'time', 'reference'];
  if (typeof operand === 'number') return Number.isInteger(operand) ? ['integer', 'number', 'reference'] : ['number'];
  if (typeof operand === 'boolean') return ['boolean'];
  return [];
}

const describeOperand = (operand: unknown) =>
  typeof operand === 'object' && operand !== null && 'caller' in operand
    ? `caller.${String((operand as { caller: unknown }).caller)}`
    : JSON.stringify(operand);

/**
 * row-rule-field: each field a row rule compares is a stored field of the collection, compared with
 * an operand of its own type. A rule on a field that does not exist, or on one that can never equal
 * its operand (an integer with a string), would quietly let a caller see nothing, or everything.
 */
export const rowRuleField: Rule = ({ model }) =>
  model.collections.flatMap((collection): Finding[] =>
    (collection.rows?.fields ?? []).flatMap(({ name, operand, access }): Finding[] => {
      const field = collection.fields.find((candidate) => candidate.name === name);
      const stored = collection.fields
        .filter((candidate) => candidate.kind !== 'object')
        .map((candidate) => candidate.name);
      const at = { rule: 'row-rule-field', source: collection.source, at: [...access] } as const;
      if (field === undefined || field.kind === 'object') {
        return [
          {
            ...at,
            message: `a row rule of collection "${collection.name}" compares field "${name}", which it does not store; name one of its fields (${stored.join(', ')})`,
          },
        ];
      }
      if (!kindsFor(operand).includes(field.kind)) {
        return [
          {
            ...at,
            message: `a row rule of collection "${collection.name}" compares field "${name}" (${field.kind}) with ${describeOperand(operand)}, which it can never equal; compare it with a value of its own type`,
          },
        ];
      }
      return [];
    }),
  );

/**
 * unique-hidden-rows (a warning): a unique field of a collection whose `see` rule hides rows. The
 * value is unique across every row, so a write that repeats a value a hidden row holds is refused
 * (409 duplicate_value) where the same write with an unused value succeeds: the one path by which a
 * caller learns something of a row it may not see. That is right for values whose existence is not
 * secret (a public code, an e-mail address a sign-up may reveal), so it is said, not refused.
 */
export const uniqueHiddenRows: Rule = ({ model }) =>
  model.collections
    .filter((collection) => collection.rows?.hidesRows === true)
    .flatMap((collection): Finding[] =>
      collection.fields
        .filter((field) => field.unique)
        .map((field) => ({
          rule: 'unique-hidden-rows',
          source: collection.source,
          at: [...field.access, 'unique'],
          message: `field "${field.name}" of collection "${collection.name}" is unique across all its rows, and its rows.see rule hides rows: a caller that writes a value a row it may not see holds is refused with 409 duplicate_value, so it can learn which values hidden rows hold`,
        })),
    );
