import { randomFillSync } from 'node:crypto';

/** How many ids one batch of random bytes and text makes. */
const BATCH = 256;
const UUID_LENGTH = 36;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** The text offset of each random byte's two hex digits (the dashes sit at 8, 13, 18 and 23). */
const DIGIT_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

let batch = '';
let next = BATCH;

/**
 * A random (version 4) UUID, as crypto.randomUUID() makes one, from the same source. The
 * difference is in the making: ids are written 256 at a time into one string, and each is a slice
 * of it. randomUUID() joins twenty pieces into a new string for every id, and a request id is
 * made for every request (X-Request-Id and its log line); BENCHMARKS.md.
 *
 * @example
 * res.setHeader('X-Request-Id', batchedUuid()); // 'c0f1a0f6-4b3e-4f7e-9b0a-2d1b7c9e5a31'
 */
export function batchedUuid(): string {
  if (next === BATCH) {
    batch = uuidBatchText();
    next = 0;
  }
  const at = next * UUID_LENGTH;
  next += 1;
  return batch.slice(at, at + UUID_LENGTH);
}

/** BATCH version 4 UUIDs, one after the other, as lowercase text. */
function uuidBatchText(): string {
  const random = randomFillSync(Buffer.allocUnsafe(16 * BATCH));
  const text = Buffer.allocUnsafe(UUID_LENGTH * BATCH);
  for (let id = 0; id < BATCH; id += 1) {
    const bytes = id * 16;
    // RFC 9562: version 4 in the high nibble of byte 6, variant 10 in the top bits of byte 8.
    random[bytes + 6] = (random[bytes + 6]! & 0x0f) | 0x40;
    random[bytes + 8] = (random[bytes + 8]! & 0x3f) | 0x80;
    const out = id * UUID_LENGTH;
    text[out + 8] = text[out + 13] = text[out + 18] = text[out + 23] = 0x2d;
    for (let index = 0; index < 16; index += 1) {
      const byte = random[bytes + index]!;
      const at = out + DIGIT_AT[index]!;
      text[at] = HEX[byte >> 4]!;
      text[at + 1] = HEX[byte & 0x0f]!;
    }
  }
  return text.toString('latin1');
}
