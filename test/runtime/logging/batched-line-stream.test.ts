import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createLogger, writePlainLine } from '../../../runtime/logging/index.ts';
import { BatchedLineStream } from '../../../runtime/logging/batched-line-stream.ts';

function recordingSink() {
  const writes: string[] = [];
  // The stream hands over its bytes; decoded here so the expectations read as text.
  return { writes, sink: { write: (bytes: Buffer) => void writes.push(bytes.toString('utf8')) } };
}

const delayMs = 20;
const afterDelay = () => new Promise<void>((resolve) => setTimeout(resolve, delayMs + 10));

describe('BatchedLineStream', () => {
  it('hands the lines logged within its delay to the sink in one write, in order, once the delay has passed', async () => {
    const { writes, sink } = recordingSink();
    const stream = new BatchedLineStream(sink, { delayMs });
    stream.write('one\n');
    stream.write('two\n');
    await new Promise<void>((resolve) => setImmediate(resolve));
    stream.write('three\n');
    expect(writes).toEqual([]);
    await afterDelay();
    expect(writes).toEqual(['one\ntwo\nthree\n']);
    stream.write('four\n');
    await afterDelay();
    expect(writes).toEqual(['one\ntwo\nthree\n', 'four\n']);
  });

  it('writes at once when the pending lines pass the bound, without waiting for the delay', async () => {
    const { writes, sink } = recordingSink();
    const stream = new BatchedLineStream(sink, { maxPendingBytes: 10, delayMs });
    stream.write('12345\n');
    stream.write('67890\n');
    expect(writes).toEqual(['12345\n67890\n']);
    stream.write('tail\n');
    await afterDelay();
    expect(writes).toEqual(['12345\n67890\n', 'tail\n']);
  });

  it('keeps each line as UTF-8 and writes every batch from the same memory, lent to the sink for its write', async () => {
    const writes: { text: string; memory: ArrayBufferLike; offset: number }[] = [];
    const stream = new BatchedLineStream(
      {
        write: (bytes: Buffer) =>
          void writes.push({ text: bytes.toString('utf8'), memory: bytes.buffer, offset: bytes.byteOffset }),
      },
      { maxPendingBytes: 24, delayMs },
    );
    stream.write('héllo 😀 wörld\n');
    stream.write('after\n');
    expect(writes.map((write) => write.text)).toEqual(['héllo 😀 wörld\nafter\n']);
    stream.write('tail\n');
    await afterDelay();
    expect(writes.map((write) => write.text)).toEqual(['héllo 😀 wörld\nafter\n', 'tail\n']);
    // The second batch starts where the first did: the stream made no new buffer for it.
    expect(writes[1]!.memory).toBe(writes[0]!.memory);
    expect(writes[1]!.offset).toBe(writes[0]!.offset);
  });

  it('lets go of a buffer an outsized line grew, so the next batch is back in memory of the usual size', async () => {
    const sizes: number[] = [];
    const stream = new BatchedLineStream(
      { write: (bytes: Buffer) => void sizes.push(bytes.buffer.byteLength) },
      {
        maxPendingBytes: 1024,
        delayMs,
      },
    );
    stream.write('short\n');
    await afterDelay();
    stream.write(`${'x'.repeat(100_000)}\n`);
    stream.write('short again\n');
    await afterDelay();
    expect(sizes).toHaveLength(3);
    expect(sizes[1]).toBeGreaterThan(100_000);
    expect(sizes[2]).toBe(sizes[0]);
  });

  it('flushSync() writes what is pending before the caller goes on (writePlainLine keeps its place among the JSON lines)', async () => {
    const { writes, sink } = recordingSink();
    const logger = createLogger({ destination: new BatchedLineStream(sink, { delayMs }) });
    logger.info('before');
    writePlainLine(logger, 'listening on http://127.0.0.1:1');
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', msg: 'before' });
    expect(lines[1]).toBe('listening on http://127.0.0.1:1');
    logger.info('after');
    await afterDelay();
    expect(writes).toHaveLength(2);
  });

  it('the default logger writes to standard output every line logged before process.exit(), in order', () => {
    const script = [
      "import { createLogger, writePlainLine } from './runtime/logging/index.ts';",
      'const logger = createLogger();',
      "logger.info({ n: 1 }, 'first');",
      "writePlainLine(logger, 'plain');",
      "logger.error({ n: 2 }, 'last words');",
      'process.exit(3);',
    ].join('\n');
    let stdout = '';
    try {
      execFileSync(process.execPath, ['--conditions=source', '--input-type=module', '-e', script], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      expect(failed.status).toBe(3);
      stdout = failed.stdout;
    }
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', n: 1, msg: 'first' });
    expect(lines[1]).toBe('plain');
    expect(JSON.parse(lines[2]!)).toMatchObject({ level: 'error', n: 2, msg: 'last words' });
  });

  it('the default logger writes batch after batch to standard output intact, each written before its memory is reused', () => {
    // 3,000 lines of about 120 bytes: several batches of 64 KiB through the same buffer, into a pipe.
    const script = [
      "import { createLogger } from './runtime/logging/index.ts';",
      'const logger = createLogger();',
      "for (let n = 0; n < 3000; n += 1) logger.info({ n, filler: 'x'.repeat(40) }, 'line');",
    ].join('\n');
    const stdout = execFileSync(process.execPath, ['--conditions=source', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 16 * 1024 * 1024,
    });
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3000);
    expect(lines.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual(
      Array.from({ length: 3000 }, (_, n) => n),
    );
  });
});
