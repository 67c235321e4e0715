import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { lemire16, seededPrng, Xoshiro128 } from '../../shared/prng.ts';

describe('xoshiro128**', () => {
  test('matches the reference implementation (prng.di.unimi.it/xoshiro128starstar.c)', () => {
    // Outputs of Blackman & Vigna's C code from these states, compiled and run once.
    const a = new Xoshiro128([1, 2, 3, 4]);
    expect(Array.from({ length: 10 }, () => a.nextUint32())).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849, 3729100597, 4258142804,
    ]);
    const b = new Xoshiro128([0x9e3779b9, 0x243f6a88, 0xb7e15162, 0x6a09e667]);
    expect(Array.from({ length: 6 }, () => b.nextUint32())).toEqual([2463954730, 5524658, 3022325299, 3768446993, 2807704630, 2047592877]);
  });

  test('refuses the all-zero state', () => {
    expect(() => new Xoshiro128([0, 0, 0, 0])).toThrow(RangeError);
  });
});

describe('seededPrng', () => {
  test('the state is SHA-256 of the seed text, four little-endian words', () => {
    for (const seed of ['punto-banco', '', 'é🂡']) {
      const digest = createHash('sha256').update(seed, 'utf8').digest();
      const words = [0, 1, 2, 3].map((i) => digest.readUInt32LE(i * 4)) as [number, number, number, number];
      const expected = new Xoshiro128(words);
      const actual = seededPrng(seed);
      for (let i = 0; i < 8; i++) expect(actual.nextUint32()).toBe(expected.nextUint32());
    }
  });

  test('a number seeds as its decimal text; the same seed replays the same stream', () => {
    const a = seededPrng(7);
    const b = seededPrng('7');
    for (let i = 0; i < 5; i++) expect(a.below(312)).toBe(b.below(312));
    expect(seededPrng('x').nextUint32()).not.toBe(seededPrng('y').nextUint32());
  });

  test('a golden stream (changing it changes every recorded simulation)', () => {
    const r = seededPrng('punto-banco');
    expect(Array.from({ length: 4 }, () => r.nextUint32())).toEqual([3012390878, 2340718012, 452061690, 595331157]);
    expect(Array.from({ length: 6 }, () => r.below(312))).toEqual([74, 29, 48, 18, 230, 147]);
  });
});

describe('below(n): uniform, never biased', () => {
  test.each([1, 2, 3, 5, 7, 10, 13, 52, 312, 416, 1000, 40000, 65535, 65536])(
    'lemire16 over all 2^16 inputs, n = %i: every draw exactly ⌊2^16/n⌋ times',
    (n) => {
      const counts = new Uint32Array(n);
      let rejected = 0;
      for (let r = 0; r < 65536; r++) {
        const draw = lemire16(r, n);
        if (draw < 0) rejected++;
        else counts[draw]!++;
      }
      const each = Math.floor(65536 / n);
      expect(counts.every((c) => c === each)).toBe(true);
      expect(rejected).toBe(65536 % n);
    },
  );

  test('below takes 16 bits at a time: low half of an output, then the high half', () => {
    const a = seededPrng('halves');
    const b = seededPrng('halves');
    for (let i = 0; i < 4; i++) {
      const x = b.nextUint32();
      expect(a.below(65536)).toBe(x & 0xffff);
      expect(a.below(65536)).toBe(x >>> 16);
    }
  });

  test('draws stay in range, for small and large n', () => {
    const r = seededPrng('range');
    expect(r.below(1)).toBe(0);
    for (const n of [2, 312, 65537, 1e9, 3e9, 2 ** 32]) {
      for (let i = 0; i < 200; i++) {
        const x = r.below(n);
        expect(Number.isInteger(x) && x >= 0 && x < n).toBe(true);
      }
    }
  });

  test('below(7) and below(100003) pass a chi-square test', () => {
    const r = seededPrng('chi-square');
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 70_000; i++) counts[r.below(7)]!++;
    expect(counts.reduce((s, c) => s + (c - 10_000) ** 2 / 10_000, 0)).toBeLessThan(22.46); // 6 degrees of freedom, p ≈ 0.001
    // The path above 2^16: draws of below(100003) folded into 10 buckets of 10,000 (the last 10,003).
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 50_000; i++) buckets[Math.min(9, Math.floor(r.below(100_003) / 10_000))]!++;
    const chi = buckets.reduce((s, c, i) => {
      const expected = (50_000 * (i === 9 ? 10_003 : 10_000)) / 100_003;
      return s + (c - expected) ** 2 / expected;
    }, 0);
    expect(chi).toBeLessThan(27.88); // 9 degrees of freedom, p ≈ 0.001
  });

  test.each([0, -1, 1.5, Number.NaN, 2 ** 32 + 1, Infinity])('below(%d) is refused', (n) => {
    expect(() => seededPrng('bad').below(n)).toThrow(RangeError);
  });

  test('randomBelow is a RandomBelow bound to the generator', () => {
    const a = seededPrng('bound');
    const b = seededPrng('bound');
    const f = a.randomBelow;
    expect([f(10), f(10), f(10)]).toEqual([b.below(10), b.below(10), b.below(10)]);
  });
});
