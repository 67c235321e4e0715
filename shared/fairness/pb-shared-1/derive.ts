/**
 * pb-shared-1 derivation (FAIRNESS.md §C4–§C5). It reuses pb-fair-2's primitives: the commitment
 * (seedCommitment), the shoe stream and stack (shoeStack), the round key K and the round
 * stream R_i = HMAC(K, "pb-fair-2/round\n" ‖ s ‖ h ‖ u32be(i)) with
 *   s := the beacon round's randomness (32 bytes), h := the close record's hash (32 bytes).
 * The one change: in shoe mode the remaining cards are SHUFFLED (Fisher–Yates over R) before every
 * round, not rotated. At a shared table any party may hold a seat, the operator too, so the order
 * the start fixed may have been chosen (by grinding a seat's client seed); a full shuffle makes
 * each round a uniform draw from the cards left, whatever that order was. The burn is taken at
 * the first dealt round, after its shuffle, for the same reason.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { CARDS_PER_DECK } from '../../cards.ts';
import { playRound, type Round } from '../../round.ts';
import { burnCount, shuffleCards } from '../../shoe.ts';
import { bytesToHex, concatBytes, u32be, utf8Bytes } from '../common/encoding.ts';
import { randomBelowFrom } from '../common/stream.ts';
import { type AcceptedDeal, roundStack, roundStream, shoeStack, type ShoeState } from '../pb-fair-2/derive.ts';
import { asShoeParams, type SharedParams } from './params.ts';
import type { SharedStartRequest } from './records.ts';

export const SEEDS_TAG = 'pb-shared-1/seeds\n';

/**
 * The shoe's client seed: hex(SHA-256("pb-shared-1/seeds\n" ‖ for each start request in player
 * order: u32be(len player) ‖ utf8(player) ‖ u32be(len seed) ‖ utf8(clientSeed))), lengths in UTF-8 bytes.
 */
export function combinedClientSeed(requests: readonly Pick<SharedStartRequest, 'player' | 'clientSeed'>[]): string {
  const h = sha256.create().update(utf8Bytes(SEEDS_TAG));
  for (const r of requests) {
    const player = utf8Bytes(r.player);
    const seed = utf8Bytes(r.clientSeed);
    h.update(concatBytes(u32be(player.length), player, u32be(seed.length), seed));
  }
  return bytesToHex(h.digest());
}

/** The shoe's cut: 1 + (Σ (cut_i − 1) mod (N − 1)), so every seated player's cut counts and none is chosen by the operator. */
export function combinedCut(decks: number, cuts: readonly number[]): number {
  const n = decks * CARDS_PER_DECK - 1;
  return 1 + (cuts.reduce((sum, c) => (sum + (c - 1)) % n, 0) % n);
}

/** Where a shared shoe stands between rounds (pb-fair-2's state; `burned` stays 0 until the first dealt round). */
export type SharedShoeState = ShoeState;

/** The shoe after the start: shoe mode, the shuffled and cut stack (no burn yet); reshuffle mode, empty. */
export function startSharedShoe(params: SharedParams, serverSeed: string, clientSeed: string, cut: number): SharedShoeState {
  if (params.mode === 'reshuffle') return { remaining: [], dealt: 0, burned: 0, cutCardAt: 0, rounds: 0 };
  const stack = shoeStack(asShoeParams(params), serverSeed, clientSeed, cut);
  return { remaining: stack, dealt: 0, burned: 0, cutCardAt: stack.length - params.cutCardFromEnd, rounds: 0 };
}

/**
 * Deals one closed round from the state, the server seed, the start's cut, the beacon round's
 * randomness and the close's hash. Pure. Positions count the cards out of the shoe before each
 * card, burn included (shoe mode), or index the round's stack (reshuffle mode).
 */
export function dealSharedRound(
  params: SharedParams,
  state: SharedShoeState,
  serverSeed: string,
  cut: number,
  beaconRandomness: string,
  closeHash: string,
): AcceptedDeal {
  if (params.mode === 'reshuffle') {
    const round = playRound(roundStack(asShoeParams(params), serverSeed, beaconRandomness, closeHash, cut), 0);
    return { round, cutCardOut: false, state: { ...state, rounds: state.rounds + 1 }, offset: null };
  }
  if (state.dealt >= state.cutCardAt) throw new RangeError('the cut card has come out: no round follows');
  let stack = shuffleCards(state.remaining, randomBelowFrom(roundStream(serverSeed, beaconRandomness, closeHash)));
  let { dealt, burned } = state;
  if (dealt === 0 && params.burn) {
    burned = burnCount(stack[0]!);
    stack = stack.slice(burned);
    dealt = burned;
  }
  const played = playRound(stack, 0);
  const round: Round = { ...played, positions: played.positions.map((p) => p + dealt) };
  dealt += played.cardsUsed;
  return {
    round,
    cutCardOut: dealt >= state.cutCardAt,
    state: { remaining: stack.slice(played.cardsUsed), dealt, burned, cutCardAt: state.cutCardAt, rounds: state.rounds + 1 },
    offset: null,
  };
}
