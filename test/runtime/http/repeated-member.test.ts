import { describe, expect, it } from 'vitest';
import { repeatedMember } from '../../../runtime/http/repeated-member.ts';

const repeated = (text: string) => repeatedMember(text, JSON.parse(text));

describe('repeatedMember(): a member an object of a JSON body names twice', () => {
  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{ "item" : "x", "quantity": 1,\n "quantity": 2 }', 'quantity'],
    ['{"x":{"a":1,"a":2}}', 'x.a'],
    ['{"lines":[{"sku":"1"},{"sku":"2","sku":"3"}]}', 'lines[1].sku'],
    ['[{"a":1},{"b":1,"b":1}]', '1.b'],
    ['{"a\\"":1,"a\\"":2}', 'a"'],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['{"":1,"":2}', ''],
    ['{"a":[1,{"b":{"c":[0,0,{"d":1,"d":1}]}}]}', 'a[1].b.c[2].d'],
  ])('%s: %j', (text, path) => {
    expect(repeated(text)).toBe(path);
  });

  it.each([
    '{"a":1,"b":2}',
    '[{"a":1},{"a":2}]',
    '{"a:b":"c:d","e":"f\\":"}',
    '{"a":{"a":{"a":1}}}',
    '{"\\\\":"\\\\\\"","b":"\\u003a"}',
    '[]',
    '{}',
  ])('%s: none', (text) => {
    expect(repeated(text)).toBeUndefined();
  });

  it('a place deeper than 200 characters is named by its innermost part', () => {
    const text = `${'{"level":'.repeat(100)}{"a":1,"a":2}${'}'.repeat(100)}`;
    const path = repeated(text)!;
    expect(path).toMatch(/^….level\.level.*\.level\.a$/);
    expect(path.length).toBeLessThanOrEqual(201);
  });

  it('a body nested far deeper than a call stack goes: counted without recursion', () => {
    const depth = 200_000;
    const text = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    let parsed: unknown = 1;
    for (let level = 0; level < depth; level += 1) parsed = { a: parsed };
    expect(repeatedMember(text, parsed)).toBeUndefined();
  });
});
