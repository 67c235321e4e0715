/**
 * The JSON grammar of pb-fair-2 files (FAIRNESS.md §B1): RFC 8259 text with no byte-order mark,
 * numbers only as integers (`-?(0|[1-9][0-9]*)`, no fraction, no exponent, no `-0`, |n| ≤ 2⁵³−1),
 * no duplicate member names, no escaped lone surrogates. `JSON.parse` would accept `1.0` and `1e2`
 * as the integers 1 and 100, so a conformant verifier reads the text itself.
 */

export type StrictJson = { ok: true; value: unknown } | { ok: false; message: string };

export function parseStrictJson(text: string): StrictJson {
  let i = 0;
  const err = (m: string): never => {
    throw new SyntaxError(`${m} at character ${i}`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') return (i++, o);
      for (;;) {
        ws();
        if (text[i] !== '"') err('expected a member name');
        const k = string();
        if (Object.hasOwn(o, k)) err(`duplicate member "${k}"`);
        ws();
        if (text[i++] !== ':') err('expected ":"');
        Object.defineProperty(o, k, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return (i++, o);
        else err('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === ']') return (i++, a);
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return (i++, a);
        else err('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) return ((i += word.length), v);
    }
    const m = /^-?(0|[1-9][0-9]*)([.eE][-+0-9.eE]*)?/.exec(text.slice(i, i + 400));
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
    for (;;) {
      const c = text[i++];
      if (c === undefined) err('unterminated string');
      if (c === '"') break;
      if (c === '\\') {
        const e = text[i++];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && simple[e] !== undefined) out += simple[e];
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i, i + 4))) {
          out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
          i += 4;
        } else err('bad escape');
      } else if (c! < ' ') err('control character in a string');
      else out += c;
    }
    if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(out)) err('a lone surrogate in a string');
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
