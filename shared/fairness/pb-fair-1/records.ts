/**
 * Signed records (FAIRNESS.md §1, point 4): the commitment, the start (the player's seed and cut),
 * one receipt per round and the reveal, chained by hash. Each record is
 *
 *   hash      = SHA-256("pb-fair-1/record\n" ‖ UTF-8(canonicalJson(body)))     (hex in `hash`)
 *   signature = Ed25519(private key, the 32 hash bytes)                         (base64url)
 *
 * and travels as `{ body, hash, keyId, signature }`. FAIRNESS.md gives every byte.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { type Round, type RoundFacts, roundFacts } from '../../round.ts';
import type { Settlement } from '../../settle.ts';
import type { Bet, TableLimits } from '../../table.ts';
import { fair1SeedCommitment } from './commit.ts';
import { bytesToHex, canonicalJson, concatBytes, utf8Bytes } from '../common/encoding.ts';
import { signBytes, type SigningKey } from '../common/keys.ts';
import { receiptCards, type ReceiptCard, type SettledFields, settledFields } from '../common/receipt-fields.ts';
import type { Fair1Version, Fair1ShoeParams } from './params.ts';

/** Domain tag of record hashes. */
export const FAIR1_RECORD_TAG = 'pb-fair-1/record\n';

/** A record body with its hash, the signing key's id and the Ed25519 signature. */
export interface Fair1Signed<T> {
  body: T;
  /** Lowercase hex SHA-256 of the record bytes. */
  hash: string;
  keyId: string;
  /** Ed25519 over the 32 hash bytes, base64url without padding. */
  signature: string;
}

/** Published before the player's seed or any bet: the seed's hash and every parameter that decides the cards. */
export interface Fair1CommitmentBody {
  type: 'commitment';
  table: string;
  /** Shoe number at this table, from 1. */
  shoe: number;
  params: Fair1ShoeParams;
  /** fair1SeedCommitment(serverSeed). */
  serverSeedHash: string;
  /** Hash of the previous shoe's reveal at this table; null for shoe 1. */
  prev: string | null;
  issuedAt: string;
  /**
   * The table's bet limits (addition to the first contract): when present the verifier checks
   * every round's bets against them; without them, only against the rules that keep payouts whole.
   */
  limits?: TableLimits;
}

/** The player's seed and cut, accepted after the commitment. */
export interface Fair1StartBody {
  type: 'start';
  table: string;
  shoe: number;
  /** In NFC, as `validateClientSeed` returns it. */
  clientSeed: string;
  cut: number;
  /** The commitment's hash. */
  prev: string;
  issuedAt: string;
}

/** Everything one round decided. */
export interface Fair1ReceiptBody extends RoundFacts, SettledFields {
  type: 'receipt';
  table: string;
  shoe: number;
  /** From 1 within the shoe. */
  round: number;
  affiliate: string | null;
  /** As validated by table.ts. */
  bets: Bet[];
  /** In dealt order: P, B, P, B, then the third cards; position = index in the shoe's stack. */
  cards: ReceiptCard[];
  /** The cut card came out during this round (always true in reshuffle mode: the stack is done). */
  cutCardOut: boolean;
  /** Hash of the previous receipt, or of the start record for round 1. */
  prev: string;
  issuedAt: string;
}

/** The end of a shoe: the server seed, which lets anyone re-derive every card. */
export interface Fair1RevealBody {
  type: 'reveal';
  table: string;
  shoe: number;
  serverSeed: string;
  /** Rounds dealt from the shoe. */
  rounds: number;
  reason: 'cut-card' | 'ended-early';
  /** Hash of the last receipt (or the start, or the commitment, when nothing came after them). */
  prev: string;
  issuedAt: string;
}

export type Fair1RecordBody = Fair1CommitmentBody | Fair1StartBody | Fair1ReceiptBody | Fair1RevealBody;

/** One shoe's records in order. `start`, receipts and `reveal` appear as the shoe progresses. */
export interface Fair1Transcript {
  version: Fair1Version;
  commitment: Fair1Signed<Fair1CommitmentBody>;
  start?: Fair1Signed<Fair1StartBody>;
  receipts: Fair1Signed<Fair1ReceiptBody>[];
  reveal?: Fair1Signed<Fair1RevealBody>;
}

/** The exact bytes a record's hash covers: the domain tag, then the body's canonical JSON in UTF-8. */
export function fair1RecordBytes(body: object): Uint8Array<ArrayBuffer> {
  return concatBytes(utf8Bytes(FAIR1_RECORD_TAG), utf8Bytes(canonicalJson(body)));
}

const RECORD_TAG_BYTES = utf8Bytes(FAIR1_RECORD_TAG);

/** SHA-256 of the record bytes (raw 32 bytes: what is signed). */
export function fair1RecordDigest(body: object): Uint8Array<ArrayBuffer> {
  const digest = new Uint8Array(32);
  sha256
    .create()
    .update(RECORD_TAG_BYTES)
    .update(utf8Bytes(canonicalJson(body)))
    .digestInto(digest);
  return digest;
}

/** Lowercase hex SHA-256 of the record bytes. */
export function fair1RecordHash(body: object): string {
  return bytesToHex(fair1RecordDigest(body));
}

/** Hashes and signs a record body. */
export async function signFair1Record<T extends { type: string }>(body: T, key: SigningKey): Promise<Fair1Signed<T>> {
  const digest = fair1RecordDigest(body);
  return { body, hash: bytesToHex(digest), keyId: key.keyId, signature: await signBytes(key, digest) };
}

export interface Fair1ReceiptArgs {
  table: string;
  shoe: number;
  round: number;
  affiliate: string | null;
  bets: readonly Bet[];
  /** The engine's round, positions into the shoe's stack (`dealRound(…).round`). */
  dealt: Round;
  /** `settle(bets, dealt.outcome)`. */
  settlement: Settlement;
  balanceBefore: number;
  cutCardOut: boolean;
  prev: string;
  issuedAt: string;
}

/** The receipt body of a dealt and settled round, every field from the engine's values. */
export function buildFair1ReceiptBody(args: Fair1ReceiptArgs): Fair1ReceiptBody {
  const { dealt, settlement } = args;
  return {
    type: 'receipt',
    table: args.table,
    shoe: args.shoe,
    round: args.round,
    affiliate: args.affiliate,
    bets: args.bets.map((b) => ({ sector: b.sector, box: b.box, amount: b.amount })),
    cards: receiptCards(dealt),
    ...roundFacts(dealt),
    ...settledFields(settlement, args.balanceBefore),
    cutCardOut: args.cutCardOut,
    prev: args.prev,
    issuedAt: args.issuedAt,
  };
}

export interface Fair1CommitmentArgs {
  table: string;
  shoe: number;
  params: Fair1ShoeParams;
  /** The shoe's secret seed: only its commitment enters the record. */
  serverSeed: string;
  prev: string | null;
  issuedAt: string;
  limits?: TableLimits;
}

/** The commitment body of a shoe: its parameters, the seed's commitment, the limits when given. */
export function buildFair1CommitmentBody(args: Fair1CommitmentArgs): Fair1CommitmentBody {
  return {
    type: 'commitment',
    table: args.table,
    shoe: args.shoe,
    params: args.params,
    serverSeedHash: fair1SeedCommitment(args.serverSeed),
    prev: args.prev,
    issuedAt: args.issuedAt,
    ...(args.limits ? { limits: args.limits } : {}),
  };
}

/** The start body: the player's seed (already `validateClientSeed`d) and cut, after the commitment. */
export function buildFair1StartBody(args: Omit<Fair1StartBody, 'type'>): Fair1StartBody {
  return { type: 'start', table: args.table, shoe: args.shoe, clientSeed: args.clientSeed, cut: args.cut, prev: args.prev, issuedAt: args.issuedAt };
}

/** The reveal body: the shoe's server seed, the rounds dealt from it and why it ended. */
export function buildFair1RevealBody(args: Omit<Fair1RevealBody, 'type'>): Fair1RevealBody {
  return {
    type: 'reveal',
    table: args.table,
    shoe: args.shoe,
    serverSeed: args.serverSeed,
    rounds: args.rounds,
    reason: args.reason,
    prev: args.prev,
    issuedAt: args.issuedAt,
  };
}
