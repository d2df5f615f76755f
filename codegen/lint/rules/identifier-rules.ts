import type { Finding } from '../finding.ts';
import type { Rule } from './context.ts';

/**
 * put-create-identifier: PUT creates a resource at a path only where clients choose identifiers,
 * and a collection whose clients choose them is not created by POST (the server would have to
 * invent the identifier the client was to choose).
 */
export const putCreateIdentifier: Rule = ({ model }) => {
  const findings: Finding[] = [];
  for (const collection of model.collections) {
    const byClient = collection.identifier.assignedBy === 'client';
    if (collection.createOnPut && !byClient) {
      findings.push({
        rule: 'put-create-identifier',
        source: collection.source,
        at: ['createOnPut'],
        message: `collection "${collection.name}" creates on PUT, but the server assigns its identifiers, so no client can know a new one: declare identifier: { assignedBy: 'client' }, or remove createOnPut`,
      });
    }
    if (collection.createOnPut && collection.operations.replace !== 'served') {
      findings.push({
        rule: 'put-create-identifier',
        source: collection.source,
        at: ['createOnPut'],
        message: `collection "${collection.name}" creates on PUT but does not serve PUT (operations.replace): serve it, or remove createOnPut`,
      });
    }
    if (byClient && collection.operations.create !== 'absent') {
      findings.push({
        rule: 'put-create-identifier',
        source: collection.source,
        at: ['identifier', 'assignedBy'],
        message: `collection "${collection.name}" has client-assigned identifiers, so POST cannot create one: declare operations: { create: false } and createOnPut: true`,
      });
    }
  }
  return findings;
};
