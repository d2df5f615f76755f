import { STRING_LENGTHS } from '@convapi/dsl';
import type { Finding } from '../finding.ts';
import { allDeclarations, type Rule } from './context.ts';
import { everyField } from './resource-rules.ts';

/**
 * indexed-string-length: an indexed string (filterable, unique, or compared by a row rule) declares
 * no maxLength above what an index entry holds: PostgreSQL refuses a longer entry, so the write would
 * fail on that engine only. Reported at the declared maxLength.
 */
export const indexedStringLength: Rule = ({ model }) => {
  const findings: Finding[] = [];
  for (const declaration of allDeclarations(model)) {
    if (!('fields' in declaration)) continue;
    const fields = [
      ...everyField(declaration.fields),
      ...declaration.versions.filter((version) => version.shaped).flatMap((version) => everyField(version.fields)),
    ];
    for (const field of fields) {
      const length = field.stringLength;
      if (length === undefined || !length.declared || !length.indexed || length.max <= STRING_LENGTHS.indexed) continue;
      findings.push({
        rule: 'indexed-string-length',
        source: declaration.source,
        at: [...field.access, 'maxLength'],
        message: `${field.name} is indexed (filterable, unique, sortable or compared by a row rule) and declares maxLength ${length.max}, more than an index entry holds on PostgreSQL (${STRING_LENGTHS.indexed} characters): declare maxLength ${STRING_LENGTHS.indexed} or less, or stop indexing the field`,
      });
    }
  }
  return findings;
};

/**
 * search-document-length: the searchable strings of a collection hold at most
 * STRING_LENGTHS.searchDocument characters together (each at its maxLength, declared or default):
 * PostgreSQL keeps them in one tsvector of at most 1 MB and refuses a write past it, on that engine
 * only. Reported at the longest searchable field, at its declared maxLength when it declares one.
 */
export const searchDocumentLength: Rule = ({ model }) => {
  const findings: Finding[] = [];
  for (const declaration of model.collections) {
    const searchable = everyField(declaration.fields).filter(
      (field) => field.searchable && field.stringLength !== undefined,
    );
    const total = searchable.reduce((sum, field) => sum + field.stringLength!.max, 0);
    if (total <= STRING_LENGTHS.searchDocument) continue;
    const longest = searchable.reduce((most, field) =>
      field.stringLength!.max > most.stringLength!.max ? field : most,
    );
    const parts = searchable.map((field) => `${field.name} ${field.stringLength!.max}`).join(', ');
    findings.push({
      rule: 'search-document-length',
      source: declaration.source,
      at: longest.stringLength!.declared ? [...longest.access, 'maxLength'] : longest.access,
      message: `the searchable strings of ${declaration.name} hold up to ${total} characters together (${parts}), more than PostgreSQL's search document takes (${STRING_LENGTHS.searchDocument} characters): declare smaller maxLengths, or stop searching ${longest.name}`,
    });
  }
  return findings;
};
