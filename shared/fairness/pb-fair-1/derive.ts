/**
 * The derivation (FAIRNESS.md §1, points 2 and 3): seeds → shuffled stack → the player's cut →
 * burn and cut card. Every step is the engine's own (`orderedDecks`, `shuffleCards`, `cutStack`,
 * `prepareShoe`); this module only feeds them the keyed stream.
 *
 *   stack = cutStack(shuffleCards(orderedDecks(decks), uniformBelow over the stream), cut)
 *   shoe  = prepareShoe(stack, params)
 *
 * Shoe mode deals every round from one stack (nonce 0). Reshuffle mode deals round r (1-based)
 * from its own stack, derived with nonce r and the same client seed and cut.
 */
import { type Card, orderedDecks } from '../../cards.ts';
import { cutStack, prepareShoe, type Shoe, shuffleCards } from '../../shoe.ts';
import { serverSeedBytes, validateClientSeed } from '../common/seeds.ts';
import { type Fair1ShoeParams, validateShoeCut, validateFair1ShoeParams } from './params.ts';
import { randomBelowFrom } from '../common/stream.ts';
import { fair1ShuffleStream } from './shuffle.ts';

const MAX_NONCE = 0xffffffff;

/** Fisher–Yates over all 52 × decks cards, before the cut. Throws RangeError on invalid inputs. */
export function fair1ShuffledDecks(params: Fair1ShoeParams, serverSeedHex: string, clientSeed: string, roundNonce = 0): Card[] {
  check(params, clientSeed, roundNonce);
  const stream = fair1ShuffleStream(serverSeedBytes(serverSeedHex), clientSeed, roundNonce);
  return shuffleCards(orderedDecks(params.decks), randomBelowFrom(stream));
}

/**
 * The stack in dealing order: shuffled, then cut by the player. `roundNonce` is 0 in shoe mode and
 * the round number (1-based) in reshuffle mode. Throws RangeError on invalid inputs.
 */
export function deriveFair1Stack(params: Fair1ShoeParams, serverSeedHex: string, clientSeed: string, cut: number, roundNonce = 0): Card[] {
  const cutOk = validateShoeCut(params, cut);
  if (!cutOk.ok) throw new RangeError(cutOk.error.message);
  return cutStack(fair1ShuffledDecks(params, serverSeedHex, clientSeed, roundNonce), cut);
}

/** The shoe of shoe mode: `prepareShoe(deriveFair1Stack(…))`, burned and with its cut card placed. */
export function deriveFair1Shoe(params: Fair1ShoeParams, serverSeedHex: string, clientSeed: string, cut: number): Shoe {
  if (params.mode !== 'shoe')
    throw new RangeError('reshuffle mode derives one stack per round: use deriveFair1RoundShoe(params, seed, clientSeed, cut, round)');
  return prepareShoe(deriveFair1Stack(params, serverSeedHex, clientSeed, cut), params);
}

/** Reshuffle mode: the shoe round `round` (1-based) is dealt from, a fresh stack derived with nonce `round`. */
export function deriveFair1RoundShoe(params: Fair1ShoeParams, serverSeedHex: string, clientSeed: string, cut: number, round: number): Shoe {
  if (params.mode !== 'reshuffle') throw new RangeError('shoe mode deals every round from one shoe: use deriveFair1Shoe');
  return prepareShoe(deriveFair1Stack(params, serverSeedHex, clientSeed, cut, round), params);
}

function check(params: Fair1ShoeParams, clientSeed: string, nonce: number): void {
  const p = validateFair1ShoeParams(params);
  if (!p.ok) throw new RangeError(p.error.message);
  const seed = validateClientSeed(clientSeed);
  if (!seed.ok) throw new RangeError(seed.error.message);
  if (seed.value !== clientSeed) throw new RangeError('the client seed must be in Unicode NFC: pass validateClientSeed(text).value');
  if (params.mode === 'shoe' ? nonce !== 0 : !Number.isInteger(nonce) || nonce < 1 || nonce > MAX_NONCE) {
    throw new RangeError(
      params.mode === 'shoe' ? `shoe mode derives with nonce 0, got ${nonce}` : `reshuffle mode derives round r with nonce r ≥ 1, got ${nonce}`,
    );
  }
}
