/**
 * The JSON grammar of pb-fair-2 files (FAIRNESS.md §B1): RFC 8259 text with no byte-order mark,
 * numbers only as integers (`-?(0|[1-9][0-9]*)`, no fraction, no exponent, no `-0`, |n| ≤ 2⁵³−1),
 * no duplicate member names, no escaped lone surrogates. `JSON.parse` would accept `1.0` and `1e2`
 * as the integers 1 and 100, so a conformant verifier reads the text itself.
 *
 * A whole shoe's file is about 170 KiB, read on every verification: the reader works on char codes
 * and copies each run of plain string characters in one slice.
 */

export type StrictJson = { ok: true; value: unknown } | { ok: false; message: string };

/** An integer where a value starts, and whatever fraction or exponent follows it (judged, then refused). */
const NUMBER = /-?(0|[1-9][0-9]*)([.eE][-+0-9.eE]*)?/y;
/** How far the number pattern looks: a longer match is read as its first this-many characters. */
const NUMBER_WINDOW = 400;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const HEX4 = /^[0-9a-fA-F]{4}$/;
const WORDS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;

/** Reads a strict JSON text or returns why it is not one (the first problem, with its character index). */
export function parseStrictJson(text: string): StrictJson {
  const reader = new StrictReader(text);
  try {
    if (text.charCodeAt(0) === 0xfeff) reader.fail('a byte-order mark');
    const v = reader.value();
    reader.skipSpace();
    if (reader.i !== text.length) reader.fail('text after the JSON value');
    return { ok: true, value: v };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** The reader's position in the text and one method per piece of the grammar; a problem throws SyntaxError. */
class StrictReader {
  i = 0;
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  fail(m: string): never {
    throw new SyntaxError(`${m} at character ${this.i}`);
  }

  skipSpace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else return;
    }
  }

  value(): unknown {
    this.skipSpace();
    const c = this.text.charCodeAt(this.i);
    if (c === 0x7b /* { */) return this.object();
    if (c === 0x5b /* [ */) return this.array();
    if (c === QUOTE) return this.string();
    for (const [word, v] of WORDS) {
      if (this.text.startsWith(word, this.i)) return ((this.i += word.length), v);
    }
    return this.number();
  }

  object(): Record<string, unknown> {
    const { text } = this;
    this.i++;
    const o: Record<string, unknown> = {};
    this.skipSpace();
    if (text.charCodeAt(this.i) === 0x7d) return (this.i++, o);
    for (;;) {
      this.skipSpace();
      if (text.charCodeAt(this.i) !== QUOTE) this.fail('expected a member name');
      const k = this.string();
      if (Object.hasOwn(o, k)) this.fail(`duplicate member "${k}"`);
      this.skipSpace();
      if (text.charCodeAt(this.i++) !== 0x3a /* : */) this.fail('expected ":"');
      const v = this.value();
      // Assignment would set the prototype for "__proto__"; every other name is a plain own member.
      if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      else o[k] = v;
      this.skipSpace();
      const next = text.charCodeAt(this.i);
      if (next === 0x2c) this.i++;
      else if (next === 0x7d) return (this.i++, o);
      else this.fail('expected "," or "}"');
    }
  }

  array(): unknown[] {
    const { text } = this;
    this.i++;
    const a: unknown[] = [];
    this.skipSpace();
    if (text.charCodeAt(this.i) === 0x5d) return (this.i++, a);
    for (;;) {
      a.push(this.value());
      this.skipSpace();
      const next = text.charCodeAt(this.i);
      if (next === 0x2c) this.i++;
      else if (next === 0x5d) return (this.i++, a);
      else this.fail('expected "," or "]"');
    }
  }

  number(): number {
    const { text } = this;
    NUMBER.lastIndex = this.i;
    let m = NUMBER.exec(text);
    // The grammar reads at most NUMBER_WINDOW characters of a number; only a match that long can differ.
    if (m && m[0].length >= NUMBER_WINDOW) m = /^-?(0|[1-9][0-9]*)([.eE][-+0-9.eE]*)?/.exec(text.slice(this.i, this.i + NUMBER_WINDOW));
    if (!m) return this.fail('unexpected character');
    if (m[2]) this.fail(`the number ${m[0]} is not an integer written without fraction or exponent`);
    if (m[0] === '-0') this.fail('-0 is not allowed');
    const n = Number(m[0]);
    if (!Number.isSafeInteger(n)) this.fail(`the integer ${m[0]} is beyond ±(2^53−1)`);
    this.i += m[0].length;
    return n;
  }

  string(): string {
    const { text } = this;
    this.i++;
    let out = '';
    let surrogates = false;
    let run = this.i;
    for (;;) {
      const c = text.charCodeAt(this.i++);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        out += text.slice(run, this.i - 1);
        const e = text[this.i++];
        if (e !== undefined && SIMPLE_ESCAPES[e] !== undefined) out += SIMPLE_ESCAPES[e];
        else if (e === 'u' && HEX4.test(text.slice(this.i, this.i + 4))) {
          const code = parseInt(text.slice(this.i, this.i + 4), 16);
          surrogates ||= isSurrogate(code);
          out += String.fromCharCode(code);
          this.i += 4;
        } else this.fail('bad escape');
        run = this.i;
      } else if (c < 0x20) this.fail('control character in a string');
      else if (c !== c)
        this.fail('unterminated string'); // NaN: past the end
      else if (isSurrogate(c)) surrogates = true;
    }
    out += text.slice(run, this.i - 1);
    if (surrogates && LONE_SURROGATE.test(out)) this.fail('a lone surrogate in a string');
    return out;
  }
}
