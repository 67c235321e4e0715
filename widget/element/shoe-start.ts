/**
 * The default way a committed shoe is started: a random client seed and a random cut within the
 * range the Worker allows, both from crypto.getRandomValues. The element takes any other provider
 * through its `shoeStartProvider` property (issue 6 lets the player edit the seed and choose the cut).
 */
import type { ShoeStartChoice, ShoeState } from './api-types.ts';

/** Picks the client seed and cut for `shoe`. */
export type ShoeStartProvider = (shoe: ShoeState) => ShoeStartChoice | Promise<ShoeStartChoice>;

/** An unbiased integer in [min, max] by rejection sampling over 32-bit draws. */
export function randomInt(min: number, max: number): number {
  const span = max - min + 1;
  if (!(span > 0) || span > 2 ** 32) throw new RangeError(`bad range ${min}..${max}`);
  const limit = 2 ** 32 - (2 ** 32 % span);
  const draw = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(draw);
    if (draw[0]! < limit) return min + (draw[0]! % span);
  }
}

/** 128 random bits as 32 hex characters: a client seed nobody chose. */
export function randomClientSeed(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export const randomShoeStart: ShoeStartProvider = (shoe) => {
  const range = shoe.cutRange ?? { min: 1, max: 1 };
  return { clientSeed: randomClientSeed(), cut: randomInt(range.min, range.max) };
};
