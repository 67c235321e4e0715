/** pb-fair-2's JSON grammar and timestamps (FAIRNESS.md §B1), case by case. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { isTimestamp, parseStrictJson } from '../../shared/index.ts';

describe('parseStrictJson', () => {
  test.each([
    ['{"a":[1,-2,0,true,false,null,"x\\u00e9\\n"]}', { a: [1, -2, 0, true, false, null, 'xé\n'] }],
    [' {\n "b" : 9007199254740991 } ', { b: 9007199254740991 }],
    ['"\\ud83c\\udfb2"', '🎲'],
  ])('accepts %s', (text, value) => {
    expect(parseStrictJson(text)).toEqual({ ok: true, value });
  });

  test.each([
    '1.0',
    '1e2',
    '1E2',
    '-0',
    '01',
    '9007199254740992',
    '{"a":1,"a":1}',
    '\uFEFF{}',
    '"\\ud800"',
    '{} x',
    '[1,]',
    '{"a" 1}',
    "'a'",
    'NaN',
    '"a\u0001"',
  ])('refuses %s', (text) => {
    expect(parseStrictJson(text).ok).toBe(false);
  });

  test.each([
    ['{"a":"x', 'unterminated string at character 8'],
    ['{"a":"x\u0001"}', 'control character in a string at character 8'],
    ['["\\x"]', 'bad escape at character 4'],
    ['["\\u12G4"]', 'bad escape at character 4'],
    ['["a\\ud800b"]', 'a lone surrogate in a string at character 11'],
    ['["\ud800"]', 'a lone surrogate in a string at character 4'],
    ['[1.5]', 'the number 1.5 is not an integer written without fraction or exponent at character 1'],
    ['{"a":1,"a":2}', 'duplicate member "a" at character 10'],
    ['{"a" 1}', 'expected ":" at character 6'],
    ['{"a":1 "b":2}', 'expected "," or "}" at character 7'],
    ['[1 2]', 'expected "," or "]" at character 3'],
    ['{1:2}', 'expected a member name at character 1'],
    ['[tru]', 'unexpected character at character 1'],
    ['[] []', 'text after the JSON value at character 3'],
    ['[-0]', '-0 is not allowed at character 1'],
    ['', 'unexpected character at character 0'],
    ['{"a":', 'unexpected character at character 5'],
  ])('says what is wrong in %j and where', (text, message) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, message });
  });

  test('reads at most 400 characters of a number', () => {
    const long = (text: string) => parseStrictJson(`[${text}]`);
    expect(long('1'.repeat(401))).toEqual({ ok: false, message: `the integer ${'1'.repeat(400)} is beyond ±(2^53−1) at character 1` });
    expect(long(`${'1'.repeat(398)}.5`)).toEqual({
      ok: false,
      message: `the number ${'1'.repeat(398)}.5 is not an integer written without fraction or exponent at character 1`,
    });
    expect(long(`${'1'.repeat(399)}.5`)).toEqual({
      ok: false,
      message: `the number ${'1'.repeat(399)}. is not an integer written without fraction or exponent at character 1`,
    });
  });

  test('reads every conformance file as JSON.parse does, where both accept it', () => {
    const dir = new URL('../vectors/conformance/', import.meta.url);
    let read = 0;
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const text = readFileSync(new URL(name, dir), 'utf8');
      const r = parseStrictJson(text);
      if (!r.ok) continue;
      expect(r.value, name).toEqual(JSON.parse(text));
      read++;
    }
    expect(read).toBeGreaterThan(200);
  });

  test('a member named __proto__ is an ordinary member', () => {
    const r = parseStrictJson('{"__proto__":{"x":1}}');
    expect(r.ok && Object.keys(r.value as object)).toEqual(['__proto__']);
  });
});

describe('isTimestamp', () => {
  test.each(['2025-01-01T12:00:00.000Z', '2000-01-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z', '9999-12-31T23:59:59.999Z'])('accepts %s', (t) =>
    expect(isTimestamp(t)).toBe(true),
  );
  test.each([
    '2025-01-01T12:00:00Z',
    '2025-01-01T12:00:00.00Z',
    '2025-01-01T12:00:00.0000Z',
    '2025-02-29T00:00:00.000Z',
    '2025-01-01T24:00:00.000Z',
    '2025-01-01T12:00:60.000Z',
    '1999-12-31T23:59:59.999Z',
    '2025-01-01 12:00:00.000Z',
    '2025-01-01T12:00:00.000+00:00',
    '+02025-01-01T12:00:00.000Z',
  ])('refuses %s', (t) => expect(isTimestamp(t)).toBe(false));
});
