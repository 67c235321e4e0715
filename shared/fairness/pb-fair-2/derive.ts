/**
 * pb-fair-2 derivation (FAIRNESS.md part II, §B4–§B6): the shoe is shuffled once from the server
 * seed and the client seed, cut by the player, burned; then, before every round, the remaining
 * stack is cut again at an offset that depends on the round's secret, which only the player knew
 * when the operator accepted the bets. Reshuffle mode shuffles a fresh stack per round from the
 * same per-round stream. Every byte string here is spelled out in FAIRNESS.md.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { type Card, orderedDecks } from '../../cards.ts';
import { playRound, type Round } from '../../round.ts';
import { burnCount, cutStack, shuffleCards } from '../../shoe.ts';
import { bytesToHex, concatBytes, hexToBytes, u32be, utf8Bytes } from '../common/encoding.ts';
import { randomBelowFrom, uniformBelow, type WordStream } from '../common/stream.ts';
import type { ShoeParams } from './params.ts';

export const COMMIT_TAG = 'pb-fair-2/commit\n';
export const SHUFFLE_TAG = 'pb-fair-2/shuffle\n';
export const ROUND_KEY_TAG = 'pb-fair-2/round-key\n';
export const ROUND_TAG = 'pb-fair-2/round\n';
export const LOCK_TAG = 'pb-fair-2/lock\n';

/** 64 lowercase hex characters: a server seed, a round secret, a hash. */
export function isHex32(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

function bytes32(hex: string, what: string): Uint8Array<ArrayBuffer> {
  if (!isHex32(hex)) throw new RangeError(`${what} must be 64 lowercase hex characters`);
  return hexToBytes(hex)!;
}

/** hex(SHA-256("pb-fair-2/commit\n" ‖ seed)): the commitment's serverSeedHash. */
export function seedCommitment(serverSeed: string): string {
  return bytesToHex(sha256(concatBytes(utf8Bytes(COMMIT_TAG), bytes32(serverSeed, 'the server seed'))));
}

/** hex(SHA-256("pb-fair-2/lock\n" ‖ secret)): the lock a bet request carries for its round secret. */
export function lockOf(secret: string): string {
  return bytesToHex(sha256(concatBytes(utf8Bytes(LOCK_TAG), bytes32(secret, 'the round secret'))));
}

/** A fresh 32-byte round secret (hex) from the given CSPRNG: the player draws one per bet. */
export function newRoundSecret(randomBytes: (n: number) => Uint8Array): string {
  const b = randomBytes(32);
  if (b.length !== 32) throw new RangeError('randomBytes(32) must return 32 bytes');
  return bytesToHex(b);
}

type Keyed = ReturnType<typeof hmac.create>;

/** A keyed stream of 32-bit words: block i = HMAC-SHA256(key, prefix ‖ u32be(i)). */
function blockStream(key: Uint8Array | Keyed, prefix: Uint8Array): WordStream {
  const prefixed = (key instanceof Uint8Array ? hmac.create(sha256, key) : key.clone()).update(prefix);
  const block = new Uint8Array(32);
  const view = new DataView(block.buffer);
  let counter = 0;
  let word = 8;
  return {
    nextWord(): number {
      if (word === 8) {
        prefixed.clone().update(u32be(counter++)).digestInto(block);
        word = 0;
      }
      return view.getUint32(4 * word++, false);
    },
    get blocks() {
      return counter;
    },
  };
}

/** The shoe stream: HMAC(seed, "pb-fair-2/shuffle\n" ‖ u32be(L) ‖ utf8(clientSeed) ‖ u32be(i)). */
export function shoeStream(serverSeed: string, clientSeed: string): WordStream {
  const seed = utf8Bytes(clientSeed);
  return blockStream(bytes32(serverSeed, 'the server seed'), concatBytes(utf8Bytes(SHUFFLE_TAG), u32be(seed.length), seed));
}

/** The shoe's round key: HMAC-SHA256(key = seed, msg = "pb-fair-2/round-key\n"). Secret until the reveal. */
export function roundKey(serverSeed: string): Uint8Array<ArrayBuffer> {
  return hmac(sha256, bytes32(serverSeed, 'the server seed'), utf8Bytes(ROUND_KEY_TAG)) as Uint8Array<ArrayBuffer>;
}

/**
 * HMAC keyed with the shoe's round key, before any message: the same for every round of a shoe,
 * so the last shoe's is kept (a verifier or dealer goes through a shoe's rounds one after another).
 */
let keyedRounds: { serverSeed: string; keyed: Keyed } | null = null;
function roundKeyed(serverSeed: string): Keyed {
  if (keyedRounds?.serverSeed !== serverSeed) keyedRounds = { serverSeed, keyed: hmac.create(sha256, roundKey(serverSeed)) };
  return keyedRounds.keyed;
}

/** The round stream: HMAC(roundKey, "pb-fair-2/round\n" ‖ secret (32 bytes) ‖ acceptance hash (32 bytes) ‖ u32be(i)). */
export function roundStream(serverSeed: string, secret: string, acceptanceHash: string): WordStream {
  return blockStream(roundKeyed(serverSeed), roundMessagePrefix(secret, acceptanceHash));
}

/** The round stream's message without the block counter (for vectors and other implementations). */
export function roundMessagePrefix(secret: string, acceptanceHash: string): Uint8Array<ArrayBuffer> {
  return concatBytes(utf8Bytes(ROUND_TAG), bytes32(secret, 'the round secret'), bytes32(acceptanceHash, 'the acceptance hash'));
}

/** Shoe mode, before the first round: Fisher–Yates over the shoe stream, then the player's cut. */
export function shoeStack(params: ShoeParams, serverSeed: string, clientSeed: string, cut: number): Card[] {
  const shuffled = shuffleCards(orderedDecks(params.decks), randomBelowFrom(shoeStream(serverSeed, clientSeed)));
  return cutStack(shuffled, cut);
}

/** Where a pb-fair-2 shoe stands between rounds. Server-side: `remaining` is what the seed hides. */
export interface ShoeState {
  /** The undealt cards in their current order (shoe mode); empty in reshuffle mode. */
  remaining: Card[];
  /** Cards out of the shoe so far, burn included: the position of the next card dealt. */
  dealt: number;
  burned: number;
  /** Shoe mode: the round during which `dealt` reaches this is the last. */
  cutCardAt: number;
  /** Rounds dealt (settled) so far. */
  rounds: number;
}

/** The shoe (shoe mode) after the shuffle, the cut and the burn; in reshuffle mode an empty state. */
export function startShoe(params: ShoeParams, serverSeed: string, clientSeed: string, cut: number): ShoeState {
  if (params.mode === 'reshuffle') return { remaining: [], dealt: 0, burned: 0, cutCardAt: 0, rounds: 0 };
  const stack = shoeStack(params, serverSeed, clientSeed, cut);
  const burned = params.burn ? burnCount(stack[0]!) : 0;
  return { remaining: stack.slice(burned), dealt: burned, burned, cutCardAt: stack.length - params.cutCardFromEnd, rounds: 0 };
}

/** The re-cut offset of a round: uniform in [0, m) from the round stream (m = cards remaining). */
export function recutOffset(serverSeed: string, secret: string, acceptanceHash: string, m: number): number {
  return uniformBelow(roundStream(serverSeed, secret, acceptanceHash), m);
}

/** Reshuffle mode: the round's stack, Fisher–Yates over the round stream, then the player's cut. */
export function roundStack(params: ShoeParams, serverSeed: string, secret: string, acceptanceHash: string, cut: number): Card[] {
  return cutStack(shuffleCards(orderedDecks(params.decks), randomBelowFrom(roundStream(serverSeed, secret, acceptanceHash))), cut);
}

export interface AcceptedDeal {
  /** The engine's round, positions counted from the first card out of the shoe (shoe mode) or of the round's stack (reshuffle). */
  round: Round;
  cutCardOut: boolean;
  state: ShoeState;
  /** Shoe mode: the re-cut offset used; reshuffle mode: null. */
  offset: number | null;
}

/** Deals one accepted round whose secret has been revealed. Pure. */
export function dealAcceptedRound(params: ShoeParams, state: ShoeState, serverSeed: string, cut: number, secret: string, acceptanceHash: string): AcceptedDeal {
  if (params.mode === 'reshuffle') {
    const round = playRound(roundStack(params, serverSeed, secret, acceptanceHash, cut), 0);
    return { round, cutCardOut: false, state: { ...state, rounds: state.rounds + 1 }, offset: null };
  }
  if (state.dealt >= state.cutCardAt) throw new RangeError('the cut card has come out: no round follows');
  const m = state.remaining.length;
  const offset = recutOffset(serverSeed, secret, acceptanceHash, m);
  const recut = state.remaining.slice(offset).concat(state.remaining.slice(0, offset));
  const played = playRound(recut, 0);
  const round: Round = { ...played, positions: played.positions.map((p) => p + state.dealt) };
  const dealt = state.dealt + played.cardsUsed;
  return {
    round,
    cutCardOut: dealt >= state.cutCardAt,
    state: { remaining: recut.slice(played.cardsUsed), dealt, burned: state.burned, cutCardAt: state.cutCardAt, rounds: state.rounds + 1 },
    offset,
  };
}
