/**
 * How a committed shoe is started: the client seed and cut a `ShoeStartProvider` gives (by default
 * the fairness panel's, see panels/drawer-controller.ts), and the randomness behind the defaults — a
 * random client seed and a random cut within the range the Worker allows, both from
 * crypto.getRandomValues. The one place the widget makes client seeds and cuts.
 */
import { DEFAULT_DECKS } from '../../shared/cards.ts';
import { cutRange, FAIR1_DEFAULT_SHOE_PARAMS } from '../../shared/fairness/pb-fair-1/params.ts';
import { newClientSeed, randomBelow } from '../../shared/random.ts';
import { emit } from '../element/emit.ts';
import type { ShoeStartChoice, ShoeState } from './api-types.ts';

/** Picks the client seed and cut for `shoe`; null: the player backed out, the shoe stays waiting. */
export type ShoeStartProvider = (shoe: ShoeState) => ShoeStartChoice | null | Promise<ShoeStartChoice | null>;

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

/** An unbiased integer in [min, max] (the engine's rejection sampling over this browser's CSPRNG). */
export function randomInt(min: number, max: number): number {
  return min + randomBelow(max - min + 1, randomBytes);
}

/** A client seed nobody chose (the engine's format: 128 random bits as 32 hex characters). */
export function randomClientSeed(): string {
  return newClientSeed(randomBytes);
}

/** Decks in a shoe: its commitment says, else its parameters, else the engine's default. */
export function shoeDecks(shoe: Pick<ShoeState, 'commitment' | 'params'>): number {
  return shoe.commitment?.body.params.decks ?? shoe.params?.decks ?? DEFAULT_DECKS;
}

/** The cuts the player may choose: the range the Worker sent, else the engine's for the shoe's decks. */
export function shoeCutRange(shoe: Pick<ShoeState, 'commitment' | 'params' | 'cutRange'>): { min: number; max: number } {
  return shoe.cutRange ?? cutRange({ ...FAIR1_DEFAULT_SHOE_PARAMS, decks: shoeDecks(shoe) });
}

/** Clamps `value` to a whole cut in [min, max] (what is not a number: `min`). */
export function clampCut(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return min;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/**
 * The cut at `fraction` of a stack of `size` cards (0: its top, 1: its bottom), kept in `range`:
 * where a cut card put at that point of a drawn stack cuts it.
 */
export function cutAtFraction(fraction: number, size: number, range: { min: number; max: number }): number {
  return clampCut(fraction * size, range.min, range.max);
}

/** A random seed and cut for `shoe`: what a player who never touched the fairness panel starts with. */
export function randomShoeStart(shoe: Pick<ShoeState, 'commitment' | 'params' | 'cutRange'>): ShoeStartChoice {
  const range = shoeCutRange(shoe);
  return { clientSeed: randomClientSeed(), cut: randomInt(range.min, range.max) };
}

/** Asks `provider` for `shoe`'s seed and cut; a provider that fails counts as no choice, and says why (`pb-error` on `host`). */
export async function chooseShoeStart(host: HTMLElement, provider: ShoeStartProvider, shoe: ShoeState): Promise<ShoeStartChoice | null> {
  try {
    return await provider(shoe);
  } catch (err) {
    emit(host, 'pb-error', { code: 'shoe_start_failed', message: String((err as Error)?.message ?? err) });
    return null;
  }
}
