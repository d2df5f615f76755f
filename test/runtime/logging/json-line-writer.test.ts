import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../runtime/logging/index.ts';
import { infoLineWriter, jsonString } from '../../../runtime/logging/json-line-writer.ts';

function capturing(format: 'json' | 'pretty' = 'json') {
  const lines: string[] = [];
  const logger = createLogger({ format, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

describe('infoLineWriter()', () => {
  it("writes, byte for byte, the line pino writes for logger.info(record, msg), awkward strings included", () => {
    const { logger, lines } = capturing();
    const write = infoLineWriter(logger)!;
    expect(write).toBeDefined();
    const record = {
      request_id: 'a"b\\c',
      method: 'GET',
      path: '/v1/x\u2028y\n\u0001é😀',
      query: undefined,
      status: 200,
      aborted: true,
      duration_ms: 0.25,
      response_bytes: 667,
      user_agent: '</script>',
    };
    logger.info(record, 'request');
    write(record, 'request');
    expect(lines).toHaveLength(2);
    // The two lines can differ only in their millisecond.
    const withoutTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":""');
    expect(withoutTime(lines[1]!)).toBe(withoutTime(lines[0]!));
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'info', pid: process.pid, path: record.path, msg: 'request' });
    expect(lines[1]!.endsWith('}\n')).toBe(true);
  });

  it('is not offered for loggers whose lines it cannot write: pretty output, a child, a pino of the user', () => {
    expect(infoLineWriter(capturing('pretty').logger)).toBeUndefined();
    expect(infoLineWriter(capturing().logger.child({ part: 'x' }))).toBeUndefined();
    expect(infoLineWriter(pino({ level: 'info' }))).toBeUndefined();
  });

  it('writes every string as JSON.stringify does: each control character, quotes, backslashes, surrogate pairs and lone halves', () => {
    const singles = Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code));
    const awkward = ['', 'plain', '😀', '\ud83d', '\ude00', 'a\ud83db', '\ude00\ud83d', 'é\u2028\u2029', '\u007f\u0080\uffff', '"\\"', ...singles];
    // Random strings over the troublesome ranges, seeded so a failure can be replayed.
    let seed = 20261124;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const pool = [0, 8, 9, 10, 13, 31, 32, 34, 47, 92, 127, 233, 0x2028, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffe];
    for (let round = 0; round < 2000; round += 1) {
      awkward.push(String.fromCharCode(...Array.from({ length: next() % 12 }, () => pool[next() % pool.length]!)));
    }
    for (const text of awkward) expect(jsonString(text)).toBe(JSON.stringify(text));
  });
});
