import { expect, test } from 'vitest';
import { CLIENT_SEED_BYTES, DEFAULT_ROOM, newClientSeed, oneOf, randomBelow, ROOM_IDS, ROOMS, validateClientSeed } from '../../shared/index.ts';

/** Replays the given bytes in order, as a CSPRNG would have produced them. */
function replay(...bytes: number[]) {
  let at = 0;
  return (n: number) => Uint8Array.from({ length: n }, () => bytes[at++]!);
}

test('a new client seed is its 16 bytes in hex, and a valid client seed as it is', () => {
  const bytes = Array.from({ length: CLIENT_SEED_BYTES }, (_, i) => i * 17);
  const seed = newClientSeed(replay(...bytes));
  expect(seed).toBe('00112233445566778899aabbccddeeff');
  expect(validateClientSeed(seed)).toEqual({ ok: true, value: seed });
  expect(() => newClientSeed(() => new Uint8Array(3))).toThrow(RangeError);
});

test('randomBelow reads big-endian 32-bit words and rejects the biased top of the range', () => {
  expect(randomBelow(10, replay(0, 0, 0, 23))).toBe(3);
  // 0xffffffff is past the largest multiple of 10 below 2^32: rejected, the next word is used.
  expect(randomBelow(10, replay(0xff, 0xff, 0xff, 0xff, 0, 0, 1, 0))).toBe(256 % 10);
  expect(() => randomBelow(0, replay())).toThrow(RangeError);
});

test('the room ids are the rooms, the default one of them; choices read as a sentence', () => {
  expect(ROOM_IDS).toEqual(Object.keys(ROOMS));
  expect(ROOM_IDS).toContain(DEFAULT_ROOM);
  expect(oneOf(['a', 'b', 'c'])).toBe('"a", "b" or "c"');
  expect(oneOf(['a', 'b'], false)).toBe('a or b');
  expect(oneOf(['a'])).toBe('"a"');
});
