/**
 * A growable byte buffer that log lines are written into as UTF-8, member by member, without
 * building a string first. The request log writes a line per request; built as a string, each line
 * was some thirty intermediate strings (a concatenation per member, a quoted copy per value), then
 * joined with its batch and encoded again by the output: about a fifth of a GET's CPU time with
 * several servers on one CPU (BENCHMARKS.md). Here a line's values are copied once, into
 * memory that is reused until its batch is written.
 */
export class LineBytes {
  readonly #initialCapacity: number;
  #buffer: Buffer;
  #length = 0;

  constructor(initialCapacity = 64 * 1024) {
    this.#initialCapacity = initialCapacity;
    this.#buffer = Buffer.allocUnsafeSlow(initialCapacity);
  }

  /** How many bytes are written so far. */
  get length(): number {
    return this.#length;
  }

  /** Any text, as UTF-8 (a line pino has serialised, a plain line). */
  text(text: string): void {
    this.#reserve(text.length * 3);
    this.#length += this.#buffer.write(text, this.#length);
  }

  /** Bytes already encoded (a fixed part of every line). */
  bytes(piece: Uint8Array): void {
    this.#reserve(piece.length);
    this.#buffer.set(piece, this.#length);
    this.#length += piece.length;
  }

  /** Characters below U+0080 as they are, one byte each: a member's name, JSON punctuation. */
  ascii(text: string): void {
    const length = text.length;
    this.#reserve(length);
    const out = this.#buffer;
    let at = this.#length;
    for (let index = 0; index < length; index += 1) out[at++] = text.charCodeAt(index);
    this.#length = at;
  }

  /** A string as JSON.stringify writes it (quoted; quotes, backslashes, control characters and lone surrogates escaped), in UTF-8. */
  jsonString(text: string): void {
    const length = text.length;
    // The most one UTF-16 unit can take: an escape such as \u001f or \udc00, six bytes.
    this.#reserve(length * 6 + 2);
    const out = this.#buffer;
    let at = this.#length;
    out[at++] = QUOTE;
    for (let index = 0; index < length; index += 1) {
      const code = text.charCodeAt(index);
      if (code < 0x80) {
        if (code >= 0x20 && code !== QUOTE && code !== BACKSLASH) {
          out[at++] = code;
          continue;
        }
        out[at++] = BACKSLASH;
        const short = SHORT_ESCAPES[code];
        if (short !== undefined) out[at++] = short;
        else at = writeUnicodeEscape(out, at, code);
      } else if (code < 0x800) {
        out[at++] = 0xc0 | (code >> 6);
        out[at++] = 0x80 | (code & 0x3f);
      } else if (code < 0xd800 || code > 0xdfff) {
        out[at++] = 0xe0 | (code >> 12);
        out[at++] = 0x80 | ((code >> 6) & 0x3f);
        out[at++] = 0x80 | (code & 0x3f);
      } else {
        const next = text.charCodeAt(index + 1);
        if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const point = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
          out[at++] = 0xf0 | (point >> 18);
          out[at++] = 0x80 | ((point >> 12) & 0x3f);
          out[at++] = 0x80 | ((point >> 6) & 0x3f);
          out[at++] = 0x80 | (point & 0x3f);
          index += 1;
        } else {
          // A lone half of a surrogate pair: escaped, as a well-formed JSON.stringify does.
          out[at++] = BACKSLASH;
          at = writeUnicodeEscape(out, at, code);
        }
      }
    }
    out[at++] = QUOTE;
    this.#length = at;
  }

  /**
   * A number as JSON.stringify writes it: `null` when not finite. Whole numbers, and numbers of at
   * most two decimals below a billion (a duration in ms rounded to hundredths), are written digit
   * by digit, with no string made: V8 turns a fraction into text on its slow path.
   */
  jsonNumber(value: number): void {
    if (Number.isSafeInteger(value) && value >= 0) {
      this.#reserve(16);
      this.#length = writeWhole(this.#buffer, this.#length, value);
      return;
    }
    if (value > 0 && value < 1e9) {
      const hundredths = Math.round(value * 100);
      // Only when the value is exactly that many hundredths: its shortest text is then `whole.tu`
      // (`whole.t` when u is 0), which is what JSON.stringify writes.
      if (hundredths / 100 === value) {
        this.#reserve(16);
        const out = this.#buffer;
        let at = writeWhole(out, this.#length, Math.floor(hundredths / 100));
        const fraction = hundredths % 100;
        out[at++] = DOT;
        out[at++] = DIGIT_ZERO + Math.floor(fraction / 10);
        if (fraction % 10 !== 0) out[at++] = DIGIT_ZERO + (fraction % 10);
        this.#length = at;
        return;
      }
    }
    this.ascii(Number.isFinite(value) ? String(value) : 'null');
  }

  /** A whole number from 0 up with at least `width` digits, zeros in front (a timestamp's milliseconds). */
  paddedDigits(value: number, width: number): void {
    this.#reserve(width + 16);
    const out = this.#buffer;
    let at = this.#length;
    for (let bound = 10 ** (width - 1); bound > 1 && value < bound; bound /= 10) out[at++] = DIGIT_ZERO;
    this.#length = writeWhole(out, at, value);
  }

  /**
   * Lends the bytes written so far to `write` and starts afresh in the same memory: `write` must
   * have consumed them when it returns (written them out, or copied them), and write no line into
   * this LineBytes meanwhile, since the next line overwrites them. A buffer that grew past its
   * initial capacity for an outsized line is let go here, so one long line does not keep its
   * memory for good.
   *
   * Why the same memory: a request log line goes into it for every request, and a new buffer for
   * each batch meant writing them into memory the CPU had not touched lately. Side by side with the
   * same server making a new buffer per batch (`npm run bench -- --against`, bench/HISTORY.md), the
   * server spends 4 to 6% less CPU on a GET of one resource and 2% on a list of 20, with the same
   * page faults: the saving is in the CPU's caches.
   */
  drain(write: (bytes: Buffer) => void): void {
    if (this.#length === 0) return;
    const written = this.#buffer.subarray(0, this.#length);
    this.#length = 0;
    if (this.#buffer.length > this.#initialCapacity) this.#buffer = Buffer.allocUnsafeSlow(this.#initialCapacity);
    write(written);
  }

  /** The bytes written so far as text, and starts afresh (for an output that takes strings). */
  drainText(): string {
    const text = this.#buffer.toString('utf8', 0, this.#length);
    this.#length = 0;
    return text;
  }

  #reserve(bytes: number): void {
    const needed = this.#length + bytes;
    if (needed <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.#buffer.length * 2));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }
}

const QUOTE = 0x22;
const DOT = 0x2e;
const DIGIT_ZERO = 0x30;
const BACKSLASH = 0x5c;
const LOWER_HEX = '0123456789abcdef';

/** The letter after the backslash of JSON's two-character escapes, by character code. */
const SHORT_ESCAPES: readonly (number | undefined)[] = (() => {
  const escapes: (number | undefined)[] = [];
  for (const [code, letter] of [
    [8, 'b'],
    [9, 't'],
    [10, 'n'],
    [12, 'f'],
    [13, 'r'],
    [QUOTE, '"'],
    [BACKSLASH, '\\'],
  ] as const)
    escapes[code] = letter.charCodeAt(0);
  return escapes;
})();

/** A safe whole number from 0 up, in decimal digits at `at`; returns where they end. */
function writeWhole(out: Buffer, at: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  const end = at + digits;
  let rest = value;
  let position = end;
  do {
    out[--position] = DIGIT_ZERO + (rest % 10);
    rest = Math.floor(rest / 10);
  } while (rest > 0);
  return end;
}

/** `uXXXX` with lowercase hex digits (the backslash is already written), as JSON.stringify writes it. */
function writeUnicodeEscape(out: Buffer, at: number, code: number): number {
  out[at++] = 0x75;
  for (let shift = 12; shift >= 0; shift -= 4) out[at++] = LOWER_HEX.charCodeAt((code >> shift) & 0xf);
  return at;
}
