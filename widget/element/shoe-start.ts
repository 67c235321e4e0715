/**
 * How a committed shoe is started: the client seed and cut a `ShoeStartProvider` gives (by default
 * the fairness panel's, see panels-controller.ts), and the randomness behind the defaults — a
 * random client seed and a random cut within the range the Worker allows, both from
 * crypto.getRandomValues. The one place the widget makes client seeds and cuts.
 */
import { DEFAULT_DECKS } from '../../shared/cards.ts';
import { cutRange, DEFAULT_SHOE_PARAMS } from '../../shared/fairness/params.ts';
import type { ShoeStartChoice, ShoeState } from './api-types.ts';

/** Picks the client seed and cut for `shoe`; null: the player backed out, the shoe stays waiting. */
export type ShoeStartProvider = (shoe: ShoeState) => ShoeStartChoice | null | Promise<ShoeStartChoice | null>;

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
// TODO(merge): use shared newClientSeed
export function randomClientSeed(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Decks in a shoe: its commitment says, else its parameters, else the engine's default. */
export function shoeDecks(shoe: Pick<ShoeState, 'commitment' | 'params'>): number {
  return shoe.commitment?.body.params.decks ?? shoe.params?.decks ?? DEFAULT_DECKS;
}

/** The cuts the player may choose: the range the Worker sent, else the engine's for the shoe's decks. */
export function shoeCutRange(shoe: Pick<ShoeState, 'commitment' | 'params' | 'cutRange'>): { min: number; max: number } {
  return shoe.cutRange ?? cutRange({ ...DEFAULT_SHOE_PARAMS, decks: shoeDecks(shoe) });
}

/** A random seed and cut for `shoe`: what a player who never touched the fairness panel starts with. */
export function randomShoeStart(shoe: Pick<ShoeState, 'commitment' | 'params' | 'cutRange'>): ShoeStartChoice {
  const range = shoeCutRange(shoe);
  return { clientSeed: randomClientSeed(), cut: randomInt(range.min, range.max) };
}
