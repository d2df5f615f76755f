import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../runtime/logging/index.ts';
import { BatchedLineStream } from '../../../runtime/logging/batched-line-stream.ts';
import {
  infoLineWriter,
  memberKey,
  RecordObject,
  type RecordMembers,
} from '../../../runtime/logging/json-line-writer.ts';
import { LineBytes } from '../../../runtime/logging/line-bytes.ts';

/** A createLogger() JSON logger whose output takes strings (any destination a user could pass). */
function capturing(format: 'json' | 'pretty' = 'json') {
  const lines: string[] = [];
  const logger = createLogger({ format, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

/** A createLogger() JSON logger over the batched byte stream, as createLogger() makes it for standard output. */
function batched() {
  const writes: string[] = [];
  const stream = new BatchedLineStream(
    { write: (bytes: Buffer) => void writes.push(bytes.toString('utf8')) },
    { delayMs: 1000 },
  );
  const logger = createLogger({ destination: stream });
  // Each line on its own: flushSync() writes what is pending.
  const lines = () => {
    stream.flushSync();
    return writes.join('').split(/(?<=\n)/);
  };
  return { logger, lines };
}

const record = {
  request_id: 'a"b\\c',
  method: 'GET',
  path: '/v1/x\u2028y\n\u0001é😀',
  status: 200,
  aborted: true,
  duration_ms: 0.25,
  response_bytes: 667,
  large: 12345678901,
  negative: -3,
  not_finite: Number.NaN,
  user_agent: '</script>',
};

function describeRecord(members: RecordMembers): void {
  for (const [name, value] of Object.entries(record)) {
    const key = memberKey(name);
    if (typeof value === 'string') members.string(key, value);
    else if (typeof value === 'number') members.number(key, value);
    else members.boolean(key, value);
  }
}

// The two lines can differ only in their millisecond.
const withoutTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":""');

describe('infoLineWriter()', () => {
  it.each([
    ['an output that takes strings', capturing],
    ['the batched byte stream of standard output', batched],
  ] as const)(
    'writes, byte for byte, the line pino writes for logger.info(record, msg), awkward values included, on %s',
    (_name, make) => {
      const made = make();
      const lines = () => (Array.isArray(made.lines) ? made.lines : (made.lines as () => string[])());
      const writer = infoLineWriter(made.logger)!;
      expect(writer).toBeDefined();
      made.logger.info(record, 'request');
      describeRecord(writer.open());
      writer.close('request');
      const [pinoLine, ownLine] = lines();
      expect(withoutTime(ownLine!)).toBe(withoutTime(pinoLine!));
      expect(JSON.parse(ownLine!)).toMatchObject({
        level: 'info',
        pid: process.pid,
        path: record.path,
        msg: 'request',
      });
      expect(ownLine!.endsWith('}\n')).toBe(true);
    },
  );

  it('gives the same members to a record object as to the line (the error path logs through pino with them)', () => {
    const object = new RecordObject();
    describeRecord(object);
    expect(object.record).toEqual(record);
  });

  it('takes member names that need no escaping, and refuses any other when the key is made', () => {
    const key = memberKey('duration_ms');
    expect(key.name).toBe('duration_ms');
    expect(Buffer.from(key.jsonPrefix).toString('latin1')).toBe(',"duration_ms":');
    for (const name of ['', 'a"b', 'a\\b', 'line\nbreak', 'é', 'with space', 'dash-ed'])
      expect(() => memberKey(name), name).toThrow(/letters, digits and _/);
  });

  it('is not offered for loggers whose lines it cannot write: pretty output, a child, a pino of the user', () => {
    expect(infoLineWriter(capturing('pretty').logger)).toBeUndefined();
    expect(infoLineWriter(capturing().logger.child({ part: 'x' }))).toBeUndefined();
    expect(infoLineWriter(pino({ level: 'info' }))).toBeUndefined();
  });
});

describe('LineBytes', () => {
  const encoded = (write: (bytes: LineBytes) => void, capacity?: number) => {
    const bytes = new LineBytes(capacity);
    write(bytes);
    return bytes.drainText();
  };

  it('writes every string as JSON.stringify does, in UTF-8: each control character, quotes, backslashes, surrogate pairs and lone halves', () => {
    const singles = Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code));
    const awkward = [
      '',
      'plain',
      '😀',
      '\ud83d',
      '\ude00',
      'a\ud83db',
      '\ude00\ud83d',
      'é\u2028\u2029',
      '\u007f\u0080\u07ff\u0800\uffff',
      '"\\"',
      ...singles,
    ];
    // Random strings over the troublesome ranges, seeded so a failure can be replayed.
    let seed = 20261124;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const pool = [
      0, 8, 9, 10, 13, 31, 32, 34, 47, 92, 127, 128, 233, 0x7ff, 0x800, 0x2028, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffe,
    ];
    for (let round = 0; round < 2000; round += 1) {
      awkward.push(String.fromCharCode(...Array.from({ length: next() % 12 }, () => pool[next() % pool.length]!)));
    }
    for (const text of awkward) {
      // A small capacity, so that growing the buffer is exercised too.
      expect(encoded((bytes) => bytes.jsonString(text), 4)).toBe(JSON.stringify(text));
    }
  });

  it('writes numbers as JSON.stringify does', () => {
    for (const value of [
      0,
      7,
      10,
      99,
      100,
      667,
      65535,
      12345678901,
      Number.MAX_SAFE_INTEGER,
      2 ** 53,
      -1,
      -0,
      0.25,
      1.01,
      1e21,
      1e-7,
      Number.NaN,
      Infinity,
      -Infinity,
    ]) {
      expect(encoded((bytes) => bytes.jsonNumber(value), 2)).toBe(JSON.stringify(value));
    }
  });

  it('writes durations rounded to hundredths, and any other fraction, as JSON.stringify does', () => {
    // Every hundredth up to 200 ms as the request log rounds them, the ones whose hundredfold is not
    // whole in binary (0.29 * 100 is 28.999…) among them; then fractions with more decimals, values
    // near the billion bound and tiny ones, which take the general path.
    const values = Array.from({ length: 20_001 }, (_, hundredths) => Math.round(hundredths) / 100);
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 5000; round += 1)
      values.push(
        Math.round(next() * 1e6 * 100) / 100,
        next() * 1000,
        Math.round(next() * 1e9 * 100) / 100 + 999_000_000,
      );
    values.push(0.1, 0.01, 0.001, 999_999_999.99, 1e9 + 0.5, 123.456, 5e-324);
    for (const value of values) expect(encoded((bytes) => bytes.jsonNumber(value), 2)).toBe(JSON.stringify(value));
  });

  it('writes whole numbers with zeros in front up to a width', () => {
    for (const [value, width, text] of [
      [0, 3, '000'],
      [7, 3, '007'],
      [42, 3, '042'],
      [999, 3, '999'],
      [1234, 3, '1234'],
      [5, 1, '5'],
      [0, 1, '0'],
    ] as const) {
      expect(encoded((bytes) => bytes.paddedDigits(value, width), 1)).toBe(text);
    }
  });

  it('hands over what it holds and starts afresh, the bytes handed over untouched by what follows', () => {
    const bytes = new LineBytes(8);
    bytes.text('héllo wörld\n');
    let handed: Buffer | undefined;
    bytes.drain((written) => (handed = written));
    expect(bytes.length).toBe(0);
    bytes.ascii('zzzzzzzzzzzz');
    expect(handed!.toString('utf8')).toBe('héllo wörld\n');
    let called = false;
    bytes.drain(() => (called = true));
    expect(called).toBe(true);
    bytes.drain(() => {
      throw new Error('nothing pending: not called');
    });
  });
});
