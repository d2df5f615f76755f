import { expect } from 'vitest';
import { headerOf } from './header-of.ts';

const CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** The conventions' error body, exactly: message, and entries with code and message (resource, field, document optional). */
export function expectErrorBody(
  response: { body: any; headers: Record<string, unknown> },
  code: string,
  field?: string,
): void {
  expect(headerOf(response, 'content-type')).toBe('application/json;charset=UTF-8');
  expect(Object.keys(response.body).sort()).toEqual(['errors', 'message']);
  expect(typeof response.body.message).toBe('string');
  for (const entry of response.body.errors) {
    expect(entry.code).toMatch(CODE);
    expect(typeof entry.message).toBe('string');
    for (const key of Object.keys(entry)) expect(['code', 'message', 'resource', 'field', 'document']).toContain(key);
  }
  expect(response.body.errors[0].code).toBe(code);
  if (field !== undefined) expect(response.body.errors[0].field).toBe(field);
}
