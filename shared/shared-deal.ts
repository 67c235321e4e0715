/**
 * How a shared table's round is dealt from its committed shoe and the public beacon (issue 13).
 * Pure and deterministic: anyone with the revealed server seed, the shoe's start and the round's
 * beacon value recomputes the same cards.
 *
 * The shoe's stack is fixed when the shoe starts (server seed, the seated players' client seeds,
 * a seated player's cut: `deriveStack`). Before each round, the cards not yet dealt are shuffled
 * again with a stream keyed by the server seed and a round seed = SHA-256(start seed ‖ round ‖
 * beacon randomness): the house cannot know the round's cards before the beacon round is published
 * (after betting closes), and no one who sees the beacon can steer them without the server seed.
 * The multiset of cards left in the shoe is unchanged, so shoe mode keeps its shoe (the cut card,
 * the discard tray); reshuffle mode starts every round from a full fresh stack and does the same.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { type Card } from './cards.ts';
import { serverSeedBytes } from './fairness/commit.ts';
import { deriveStack } from './fairness/derive.ts';
import { type ShoeParams } from './fairness/params.ts';
import { randomBelowFrom, shuffleStream } from './fairness/stream.ts';
import { dealRound, type Dealt, prepareShoe, type Shoe, shuffleCards } from './shoe.ts';
import type { EngineError, Result } from './errors.ts';

/** The round's seed: binds the shoe's start, the round number and the beacon's randomness. */
export function sharedRoundSeed(startSeed: string, round: number, beaconRandomness: string): string {
  return bytesToHex(sha256(utf8ToBytes(`pb-shared/round\n${startSeed}\n${round}\n${beaconRandomness}`)));
}

/** The seed of a shoe's start: SHA-256 of the seated players' client seeds, sorted, one per line. */
export function sharedStartSeed(clientSeeds: readonly string[]): string {
  return bytesToHex(sha256(utf8ToBytes(`pb-shared/start\n${[...clientSeeds].sort().join('\n')}`)));
}

/** The shoe as it stands when the shoe starts (shoe mode), or before a reshuffle round (a fresh stack). */
export function sharedShoe(params: ShoeParams, serverSeed: string, startSeed: string, cut: number): Shoe {
  return prepareShoe(deriveStack({ ...params, mode: 'shoe' }, serverSeed, startSeed, cut), params);
}

/** Reshuffles the undealt cards of `shoe` for round `round` with its beacon value, then deals the round. */
export function dealSharedRound(
  shoe: Shoe,
  serverSeed: string,
  startSeed: string,
  round: number,
  beaconRandomness: string,
): Result<Dealt, EngineError<'shoe_ended'>> {
  const seed = sharedRoundSeed(startSeed, round, beaconRandomness);
  const undealt: Card[] = shoe.cards.slice(shoe.next);
  const reshuffled = shuffleCards(undealt, randomBelowFrom(shuffleStream(serverSeedBytes(serverSeed), seed, 0)));
  return dealRound({ ...shoe, cards: [...shoe.cards.slice(0, shoe.next), ...reshuffled] });
}
