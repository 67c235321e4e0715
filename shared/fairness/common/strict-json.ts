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

/**
 * Reads a strict JSON text or returns why it is not one (the first problem, with its character
 * index). One reader per piece of the grammar (value, object, array, string, number), sharing the
 * position `i`; a problem throws SyntaxError.
 */
export function parseStrictJson(text: string): StrictJson {
  let i = 0;
  const err = (m: string): never => {
    throw new SyntaxError(`${m} at character ${i}`);
  };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else return;
    }
  };
  const value = (): unknown => {
    ws();
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) return object();
    if (c === 0x5b /* [ */) return array();
    if (c === QUOTE) return string();
    for (const [word, v] of WORDS) {
      if (text.startsWith(word, i)) return ((i += word.length), v);
    }
    return number();
  };
  const object = (): Record<string, unknown> => {
    i++;
    const o: Record<string, unknown> = {};
    ws();
    if (text.charCodeAt(i) === 0x7d) return (i++, o);
    for (;;) {
      ws();
      if (text.charCodeAt(i) !== QUOTE) err('expected a member name');
      const k = string();
      if (Object.hasOwn(o, k)) err(`duplicate member "${k}"`);
      ws();
      if (text.charCodeAt(i++) !== 0x3a /* : */) err('expected ":"');
      const v = value();
      // Assignment would set the prototype for "__proto__"; every other name is a plain own member.
      if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      else o[k] = v;
      ws();
      const next = text.charCodeAt(i);
      if (next === 0x2c) i++;
      else if (next === 0x7d) return (i++, o);
      else err('expected "," or "}"');
    }
  };
  const array = (): unknown[] => {
    i++;
    const a: unknown[] = [];
    ws();
    if (text.charCodeAt(i) === 0x5d) return (i++, a);
    for (;;) {
      a.push(value());
      ws();
      const next = text.charCodeAt(i);
      if (next === 0x2c) i++;
      else if (next === 0x5d) return (i++, a);
      else err('expected "," or "]"');
    }
  };
  const number = (): number => {
    NUMBER.lastIndex = i;
    let m = NUMBER.exec(text);
    // The grammar reads at most NUMBER_WINDOW characters of a number; only a match that long can differ.
    if (m && m[0].length >= NUMBER_WINDOW) m = /^-?(0|[1-9][0-9]*)([.eE][-+0-9.eE]*)?/.exec(text.slice(i, i + NUMBER_WINDOW));
    if (!m) return err('unexpected character');
    if (m[2]) err(`the number ${m[0]} is not an integer written without fraction or exponent`);
    if (m[0] === '-0') err('-0 is not allowed');
    const n = Number(m[0]);
    if (!Number.isSafeInteger(n)) err(`the integer ${m[0]} is beyond ±(2^53−1)`);
    i += m[0].length;
    return n;
  };
  const string = (): string => {
    i++;
    let out = '';
    let surrogates = false;
    let run = i;
    for (;;) {
      const c = text.charCodeAt(i++);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        out += text.slice(run, i - 1);
        const e = text[i++];
        if (e !== undefined && SIMPLE_ESCAPES[e] !== undefined) out += SIMPLE_ESCAPES[e];
        else if (e === 'u' && HEX4.test(text.slice(i, i + 4))) {
          const code = parseInt(text.slice(i, i + 4), 16);
          surrogates ||= isSurrogate(code);
          out += String.fromCharCode(code);
          i += 4;
        } else err('bad escape');
        run = i;
      } else if (c < 0x20) err('control character in a string');
      else if (c !== c)
        err('unterminated string'); // NaN: past the end
      else if (isSurrogate(c)) surrogates = true;
    }
    out += text.slice(run, i - 1);
    if (surrogates && LONE_SURROGATE.test(out)) err('a lone surrogate in a string');
    return out;
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) err('a byte-order mark');
    const v = value();
    ws();
    if (i !== text.length) err('text after the JSON value');
    return { ok: true, value: v };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}
