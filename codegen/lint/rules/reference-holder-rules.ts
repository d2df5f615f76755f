import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';
import { everyField } from './default-rules.ts';

/**
 * reference-holder: only a collection's rows hold references (single or in an array). A collection's
 * writes check that each referred row exists and is visible, its reads serve references as URIs and
 * expand them, and deleting a referred row is refused or cascades; an aggregate or a setting does
 * none of that, so a reference there would be stored as written and never checked.
 */
export const referenceHolder: Rule = ({ model }) =>
  allDeclarations(model)
    .filter((declaration) => declaration.kind !== 'collection')
    .flatMap((declaration): Finding[] =>
      everyField(declaration)
        .filter((field) => (field.references ?? field.items?.references) !== undefined)
        .map((field) => ({
          rule: 'reference-holder',
          source: declaration.source,
          at: field.access,
          message: `field "${field.name}" of ${declaration.kind} "${declaration.name}" refers to "${field.references ?? field.items?.references}", but only a collection's rows hold references (checked on write, served as URIs, guarded on delete): declare the field in a collection, or hold the identifier as a plain integer or string`,
        })),
    );
