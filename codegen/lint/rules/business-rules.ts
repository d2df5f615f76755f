import type { ResolvedAggregate, ResolvedCollection, ResolvedModel } from '../../model/index.ts';
import type { Finding } from '../finding.ts';
import type { Rule } from './context.ts';

const ruled = (model: ResolvedModel): (ResolvedCollection | ResolvedAggregate)[] => [
  ...model.collections,
  ...model.aggregates,
];

/**
 * read-only-required: a field the server sets cannot be required on input: no client could ever
 * send it (a write that does is refused with read_only_field), so every create would fail.
 */
export const readOnlyRequired: Rule = ({ model }) =>
  ruled(model).flatMap((declaration): Finding[] =>
    declaration.fields
      .filter((field) => field.readOnly && field.required)
      .map((field) => ({
        rule: 'read-only-required',
        source: declaration.source,
        at: [...field.access],
        message: `field "${field.name}" of ${declaration.kind} "${declaration.name}" is read-only and required: clients cannot send it, so no write could pass; drop required (the server sets it)`,
      })),
  );

/**
 * computed-field: each field `compute` names is a stored field declared readOnly (a computed value
 * a client could also write would be overwritten at every write without a word).
 */
export const computedField: Rule = ({ model }) =>
  ruled(model).flatMap((declaration): Finding[] =>
    declaration.computed.flatMap((name): Finding[] => {
      const field = declaration.fields.find((candidate) => candidate.name === name);
      if (field?.readOnly === true) return [];
      return [
        {
          rule: 'computed-field',
          source: declaration.source,
          at: ['compute', name],
          message:
            field === undefined
              ? `compute names "${name}", which is not a field of ${declaration.kind} "${declaration.name}"; declare the field (readOnly: true) or remove it from compute`
              : `compute names "${name}", which is not read-only: declare it with readOnly: true, so that clients do not write a value the server replaces`,
        },
      ];
    }),
  );

/** rule-unknown-collection: a rule reads or writes collections some definition declares. */
export const ruleUnknownCollection: Rule = ({ model }) => {
  const declared = new Set(model.collections.map((collection) => collection.name));
  return ruled(model).flatMap((declaration): Finding[] =>
    declaration.namedCollections
      .filter(({ name }) => !declared.has(name))
      .map(({ at, operation, name }) => ({
        rule: 'rule-unknown-collection',
        source: declaration.source,
        at: [at, operation],
        text: name,
        message: `the ${operation} ${at === 'rules' ? 'rule' : 'effect'} of ${declaration.kind} "${declaration.name}" names collection "${name}", which no definition declares; name a declared collection (or pass its declaration to data.of())`,
      })),
  );
};
