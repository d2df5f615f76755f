import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '@convapi/runtime/cli';
import { DocumentPositions } from '../document/index.ts';
import { compareDiagnostics, type Diagnostic } from '../lint/diagnostic.ts';
import { severityOf } from '../lint/registry.ts';
import { isObject } from './document.ts';
import type { OpenApiFinding } from './finding.ts';
import { pathFindings } from './path-rules.ts';
import { responseFindings } from './response-rules.ts';
import { errorBodyFindings, propertyFindings } from './schema-rules.ts';
import { securityFindings } from './security-rules.ts';

/** Lints an OpenAPI document file (JSON or YAML); `file` is how diagnostics name it. A missing file is an InputError. */
export function lintOpenApiFile(path: string, file: string): Diagnostic[] {
  if (!existsSync(path)) throw new InputError(`${path}: no such file`);
  return lintOpenApiText(readFileSync(path, 'utf8'), file);
}

/**
 * Holds an OpenAPI 3 document from elsewhere to the conventions: paths (families, versions, case,
 * plural collections, nesting, aggregates), property names, the error body, the documented headers
 * and bearer security. Every finding is placed at the line and column of the offending node.
 */
export function lintOpenApiText(text: string, file: string): Diagnostic[] {
  const positions = new DocumentPositions(text);
  const place = (finding: OpenApiFinding): Diagnostic => ({
    rule: finding.rule,
    severity: severityOf(finding.rule),
    message: finding.message,
    file,
    ...positions.spanOf(finding.at, finding.on),
  });
  // The first syntax error is the cause; what the parser says after it mostly follows from it.
  const [first] = positions.errors();
  if (first !== undefined) {
    const { message, ...span } = first;
    return [
      { rule: 'openapi-syntax', severity: 'error', message: `the document does not parse: ${message}`, file, ...span },
    ];
  }
  const document = positions.value();
  if (!isObject(document) || typeof document.openapi !== 'string' || !isObject(document.paths)) {
    return [
      place({
        rule: 'openapi-syntax',
        at: isObject(document) && 'openapi' in document ? ['openapi'] : [],
        message: 'not an OpenAPI 3 document: it needs "openapi": "3.x" and a "paths" object',
      }),
    ];
  }
  const findings = [
    ...pathFindings(document),
    ...propertyFindings(document),
    ...errorBodyFindings(document),
    ...responseFindings(document),
    ...securityFindings(document),
  ];
  return findings.map(place).sort(compareDiagnostics);
}
