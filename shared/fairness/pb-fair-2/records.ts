/**
 * pb-fair-2 records (FAIRNESS.md §B7–§B9). Two signers:
 *  - the player signs every state-changing request (start, bet with lock, secret, end):
 *      signature = Ed25519(player key, SHA-256("pb-fair-2/request\n" ‖ canonicalJson(request body)))
 *    and travels as `{ body, signature }`, embedded in the operator's record;
 *  - the operator signs every record:
 *      hash = SHA-256("pb-fair-2/record\n" ‖ canonicalJson(body)), signature = Ed25519(operator key, hash)
 *    travelling as `{ body, hash, signature }`; `keyId` is a member of the body, so it is signed.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { RoundFacts } from '../../round.ts';
import type { Bet, TableLimits } from '../../table.ts';
import { base64urlToBytes, bytesToHex, canonicalJson, concatBytes, utf8Bytes } from '../common/encoding.ts';
import { importPublicKey, type PublicKey, signBytes, type SigningKey, verifyBytes } from '../common/keys.ts';
import type { ReceiptCard, SettledFields } from '../common/receipt-fields.ts';
import type { ShoeParams } from './params.ts';

export const RECORD_TAG = 'pb-fair-2/record\n';
export const REQUEST_TAG = 'pb-fair-2/request\n';

// ── The player's requests ──────────────────────────────────────────────────────────────────────

/** The player's seed and cut, bound to the commitment they answer. */
export interface StartRequest {
  type: 'start';
  table: string;
  shoe: number;
  /** The hash of the commitment record the player saw (its player key, opening balance, params). */
  commitment: string;
  clientSeed: string;
  cut: number;
}

/** Bets and the lock of the round's secret, bound to the last record the player saw. */
export interface BetRequest {
  type: 'bet';
  table: string;
  shoe: number;
  round: number;
  /** Hash of the record the acceptance will follow. */
  prev: string;
  bets: Bet[];
  /** lockOf(secret). */
  lock: string;
}

/** The round's secret, revealed after the acceptance. */
export interface SecretRequest {
  type: 'secret';
  table: string;
  shoe: number;
  round: number;
  /** Hash of the acceptance it answers. */
  acceptance: string;
  secret: string;
}

/** The player ends the shoe. */
export interface EndRequest {
  type: 'end';
  table: string;
  shoe: number;
  /** Hash of the record the reveal will follow. */
  prev: string;
}

export type PlayerRequest = StartRequest | BetRequest | SecretRequest | EndRequest;

export interface SignedRequest<T extends PlayerRequest = PlayerRequest> {
  body: T;
  /** Ed25519 by the player's key over requestDigest(body), canonical base64url. */
  signature: string;
}

// ── The operator's records ─────────────────────────────────────────────────────────────────────

/** The members every operator record has (pb-fair-2 and pb-shared-1). */
export interface RecordCommon {
  table: string;
  shoe: number;
  /** The operator key's `kid` in the JWKS: inside the signed bytes. */
  keyId: string;
  prev: string | null;
  /** UTC, exactly YYYY-MM-DDTHH:MM:SS.sssZ. */
  issuedAt: string;
}

export interface Commitment extends RecordCommon {
  type: 'commitment';
  params: ShoeParams;
  limits?: TableLimits;
  serverSeedHash: string;
  /** The player's Ed25519 public key, `x` as canonical base64url (32 bytes). */
  playerKey: string;
  /** The balance the shoe opens with: the previous shoe's closing balance. */
  openingBalance: number;
  /** Wallet mode only (§B15): whose wallet the shoe's money moves in. Absent in play mode. */
  wallet?: WalletOfShoe;
}

/**
 * A wallet-mode shoe's wallet (FAIRNESS.md §B15): the operator, the operator's own id of the player
 * and the ISO 4217 currency. Every amount of the shoe is in that currency's minor units; every shoe
 * of a wallet table carries the same one.
 */
export interface WalletOfShoe {
  operator: string;
  player: string;
  currency: string;
}

/**
 * The wallet debit that took a round's stake (§B15): its transaction id, the debit's `attempt`
 * (1 for the shoe's first debit sent, +1 for every debit sent, never reused), the amount (the
 * round's total stake) and the balance the wallet answered after it.
 */
export interface WalletDebit {
  transaction: string;
  attempt: number;
  amount: number;
  balanceAfter: number;
}

/** A wallet credit or rollback (§B15): its transaction id and amount (a credit: what the round returns; a rollback: the stake). */
export interface WalletMovement {
  transaction: string;
  amount: number;
}

export interface Start extends RecordCommon {
  type: 'start';
  request: SignedRequest<StartRequest>;
  prev: string;
}

export interface Acceptance extends RecordCommon {
  type: 'acceptance';
  round: number;
  affiliate: string | null;
  request: SignedRequest<BetRequest>;
  /** The balance before the stake is debited; in a wallet shoe debit.balanceAfter + debit.amount. */
  balanceBefore: number;
  /** Wallet mode only: the debit of the round's stake. */
  debit?: WalletDebit;
  prev: string;
}

export interface Receipt extends RecordCommon, RoundFacts, SettledFields {
  type: 'receipt';
  round: number;
  request: SignedRequest<SecretRequest>;
  /** Positions count from the first card out of the shoe (burn included); reshuffle: of the round's stack. */
  cards: ReceiptCard[];
  cutCardOut: boolean;
  /** Wallet mode only: the credit of what the round returns (0 for a lost round). */
  credit?: WalletMovement;
  prev: string;
}

export interface Void extends RecordCommon {
  type: 'void';
  round: number;
  balanceBefore: number;
  /** Equal to balanceBefore: the stake is returned. */
  balanceAfter: number;
  /** Wallet mode only: the rollback of the round's debit (amount: the stake). */
  rollback?: WalletMovement;
  prev: string;
}

export type RevealReason = 'cut-card' | 'player' | 'void-timeout' | 'reshuffle-limit';

export interface Reveal extends RecordCommon {
  type: 'reveal';
  serverSeed: string;
  /** Accepted rounds in the shoe (settled or voided). */
  rounds: number;
  reason: RevealReason;
  /** Only with reason "player": the player's signed end request. */
  request?: SignedRequest<EndRequest>;
  closingBalance: number;
  prev: string;
}

/** Why a shared table moved the balance: a stake taken, winnings paid, a stake given back. */
export type TransferKind = 'debit' | 'credit' | 'refund';

/**
 * A movement of the balance asked by a shared table (FAIRNESS.md §B14): it sits between the
 * private rounds, never between an acceptance and its settlement, so the balance the chain
 * carries stays continuous. `table` and `shoe` are the private table's, as in every record.
 */
export interface Transfer extends RecordCommon {
  type: 'transfer';
  /** The shared table's id for this movement, 16–64 lowercase hex: one record per id in a history. */
  transfer: string;
  /** The shared table, shoe and round that asked for it (pb-shared-1). */
  sharedTable: string;
  sharedShoe: number;
  sharedRound: number;
  kind: TransferKind;
  /** Minor units, ≥ 1: taken by a debit, added by a credit or refund (a wallet shoe's credit may be 0: it closes a lost shared round). */
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
  /** Wallet mode only (§B15), the member of its kind: a debit's wallet debit, a credit's wallet credit, a refund's wallet rollback. */
  debit?: WalletDebit;
  credit?: WalletMovement;
  rollback?: WalletMovement;
  prev: string;
}

export type FileRecord = Commitment | Start | Acceptance | Receipt | Void | Reveal | Transfer;

/** A record as the operator signed it: `hash` is the hex of its tagged digest. */
export interface SignedRecordOf<T> {
  body: T;
  hash: string;
  signature: string;
}

export type Signed<T extends FileRecord = FileRecord> = SignedRecordOf<T>;

/** A table's history: its records in chain order (shoe after shoe). */
export interface FairnessFile {
  version: 'pb-fair-2';
  records: Signed[];
  /** Player copies only: requests the player signed that no record answers yet. */
  sent?: SignedRequest[];
}

/** SHA-256(tag ‖ canonicalJson(body)): how pb-fair-2 and pb-shared-1 hash records and requests. */
export function taggedDigest(tag: string, body: object): Uint8Array<ArrayBuffer> {
  // One string, one encoding, one pass of the hash: the same bytes as tag ‖ canonical body.
  return sha256(utf8Bytes(tag + canonicalJson(body))) as Uint8Array<ArrayBuffer>;
}

/** SHA-256("pb-fair-2/record\n" ‖ canonicalJson(body)). */
export const recordDigest = (body: object): Uint8Array<ArrayBuffer> => taggedDigest(RECORD_TAG, body);
/** SHA-256("pb-fair-2/request\n" ‖ canonicalJson(body)). */
export const requestDigest = (body: object): Uint8Array<ArrayBuffer> => taggedDigest(REQUEST_TAG, body);
export const recordBytes = (body: object): Uint8Array<ArrayBuffer> => concatBytes(utf8Bytes(RECORD_TAG), utf8Bytes(canonicalJson(body)));

/** The operator signs a record body (its keyId must be the key's). */
export function signRecord<T extends FileRecord>(body: T, key: SigningKey): Promise<Signed<T>> {
  return signTagged(RECORD_TAG, body, key);
}

/** The operator signs a record body under its version's tag (its keyId must be the key's). */
export async function signTagged<T extends { keyId: string }>(tag: string, body: T, key: SigningKey): Promise<SignedRecordOf<T>> {
  if (body.keyId !== key.keyId) throw new RangeError(`the body names key ${body.keyId}, the signing key is ${key.keyId}`);
  const d = taggedDigest(tag, body);
  return { body, hash: bytesToHex(d), signature: await signBytes(key, d) };
}

/** The player signs a request body. */
export async function signRequest<T extends PlayerRequest>(body: T, playerKey: SigningKey): Promise<SignedRequest<T>> {
  return { body, signature: await signBytes(playerKey, requestDigest(body)) };
}

/** The player's public key (`x`, canonical base64url) of a signing key: what the commitment carries. */
export function playerKeyOf(key: SigningKey): string {
  return (key.publicJwk as { x: string }).x;
}

const imported = new Map<string, Promise<PublicKey | null>>();

/** The player's key (commitment `playerKey`) ready to verify with; null if it is not 32 canonical base64url bytes. */
export function importPlayerKey(x: string): Promise<PublicKey | null> {
  let k = imported.get(x);
  if (!k) {
    k = base64urlToBytes(x)?.length === 32 ? importPublicKey(x).catch(() => null) : Promise.resolve(null);
    if (imported.size < 256) imported.set(x, k);
  }
  return k;
}

/** Whether a signed request carries a valid signature by the player key `x`. */
export function verifyRequest(x: string, signed: SignedRequest): Promise<boolean> {
  return verifyTagged(x, REQUEST_TAG, signed);
}

/** Whether a player's signature by the key `x` verifies over the tagged digest of the body (false if either is unusable). */
export async function verifyTagged(x: string, tag: string, signed: { body: object; signature: string }): Promise<boolean> {
  const key = await importPlayerKey(x);
  if (!key) return false;
  let d: Uint8Array<ArrayBuffer>;
  try {
    d = taggedDigest(tag, signed.body);
  } catch {
    return false;
  }
  return verifyBytes(key, signed.signature, d);
}
