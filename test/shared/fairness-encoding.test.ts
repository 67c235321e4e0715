import { describe, expect, test } from 'vitest';
import { base64urlToBytes, bytesToBase64url, bytesToHex, canonicalJson, concatBytes, hexToBytes, u32be, utf8Bytes } from '../../shared/index.ts';

describe('canonical JSON (RFC 8785 restricted to integers, strings, booleans, null, arrays, objects)', () => {
  test('members sorted by key, no whitespace, nested', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: true }], c: 'x' }, A: false })).toBe('{"A":false,"a":{"c":"x","d":[3,{"y":true,"z":null}]},"b":1}');
  });

  test('string escapes are exactly JCS: \\" \\\\ \\b \\t \\n \\f \\r, other controls \\u00xx, the rest literal UTF-8', () => {
    expect(canonicalJson('"\\\b\t\n\f\r\u0000\u001f\u007f/é🎲\u2028')).toBe('"\\"\\\\\\b\\t\\n\\f\\r\\u0000\\u001f\u007f/é🎲\u2028"');
    expect(bytesToHex(utf8Bytes(canonicalJson('é')))).toBe('22c3a922');
  });

  test('keys sort by UTF-16 code units, as JCS says', () => {
    expect(canonicalJson({ '\u00e9': 1, z: 2, Z: 3, '\ud83c\udfb2': 4, '\uff61': 5 })).toBe('{"Z":3,"z":2,"é":1,"🎲":4,"｡":5}');
  });

  test('integers only; -0 is 0; undefined members are absent; anything else is refused', () => {
    expect(canonicalJson({ a: -0, b: -12, c: Number.MAX_SAFE_INTEGER, d: undefined })).toBe('{"a":0,"b":-12,"c":9007199254740991}');
    for (const bad of [1.5, NaN, Infinity, 2 ** 53, 10n, () => 1, new Date(0), [undefined], '\ud800', { x: '\udc00' }]) {
      expect(() => canonicalJson(bad), String(bad)).toThrow(RangeError);
    }
  });
});

describe('hex and base64url', () => {
  test('hex round trip, lowercase only', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(hexToBytes(bytesToHex(bytes))).toEqual(bytes);
    expect(hexToBytes('0A')).toBeNull();
    expect(hexToBytes('abc')).toBeNull();
  });

  test('base64url: RFC 4648 test vectors, unpadded', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, b64] of cases) {
      expect(bytesToBase64url(utf8Bytes(text))).toBe(b64);
      expect(base64urlToBytes(b64)).toEqual(utf8Bytes(text));
    }
    expect(bytesToBase64url(new Uint8Array([0xfb, 0xff, 0xfe]))).toBe('-__-');
  });

  test('base64url decoding accepts only the canonical spelling', () => {
    expect(base64urlToBytes('Zg==')).toBeNull(); // padding
    expect(base64urlToBytes('Zh')).toBeNull(); // non-zero unused bits
    expect(base64urlToBytes('Z')).toBeNull(); // impossible length
    expect(base64urlToBytes('+/8')).toBeNull(); // base64, not base64url
  });

  test('u32be and concatenation', () => {
    expect(bytesToHex(concatBytes(u32be(0), u32be(1), u32be(0xdeadbeef)))).toBe('0000000000000001deadbeef');
    expect(() => u32be(2 ** 32)).toThrow(RangeError);
    expect(() => u32be(-1)).toThrow(RangeError);
  });
});
