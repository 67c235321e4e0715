/** pb-fair-2's JSON grammar and timestamps (FAIRNESS.md §B1), case by case. */
import { describe, expect, test } from 'vitest';
import { isTimestampV2, parseStrictJson } from '../../shared/index.ts';

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

  test('a member named __proto__ is an ordinary member', () => {
    const r = parseStrictJson('{"__proto__":{"x":1}}');
    expect(r.ok && Object.keys(r.value as object)).toEqual(['__proto__']);
  });
});

describe('isTimestampV2', () => {
  test.each(['2025-01-01T12:00:00.000Z', '2000-01-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z', '9999-12-31T23:59:59.999Z'])('accepts %s', (t) =>
    expect(isTimestampV2(t)).toBe(true),
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
  ])('refuses %s', (t) => expect(isTimestampV2(t)).toBe(false));
});
