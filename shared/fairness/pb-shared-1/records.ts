/**
 * pb-shared-1 records (FAIRNESS.md part III): a shared table's history. Many players sit at one
 * shoe; each round's betting window is closed by the operator's signed close record, and the
 * round's cards depend on the committed server seed AND a public drand beacon round published
 * after the close. Two kinds of signer, as in pb-fair-2:
 *  - each player signs its own requests (start with seed and cut, bet):
 *      signature = Ed25519(player key, SHA-256("pb-shared-1/request\n" ‖ canonicalJson(body)))
 *    the request names its signer in `player` (the key's `x`, canonical base64url: the pseudonym);
 *  - the operator signs every record:
 *      hash = SHA-256("pb-shared-1/record\n" ‖ canonicalJson(body)), signature = Ed25519(operator key, hash).
 */
import type { BeaconChain, BeaconRound } from '../../beacon.ts';
import type { RoundFacts } from '../../round.ts';
import type { Bet, TableLimits } from '../../table.ts';
import { signBytes, type SigningKey } from '../common/keys.ts';
import type { ReceiptCard, SettledFields } from '../common/receipt-fields.ts';
import { type RecordCommon, type SignedRecordOf, signTagged, taggedDigest, verifyTagged } from '../pb-fair-2/records.ts';
import type { SharedParams } from './params.ts';

export const SHARED = 'pb-shared-1';
export const SHARED_RECORD_TAG = 'pb-shared-1/record\n';
export const SHARED_REQUEST_TAG = 'pb-shared-1/request\n';

// ── The players' requests ──────────────────────────────────────────────────────────────────────

/** A seated player's seed and cut for a shoe, bound to the commitment it answers. */
export interface SharedStartRequest {
  type: 'start';
  table: string;
  shoe: number;
  /** The hash of the commitment record the player saw. */
  commitment: string;
  /** The player's Ed25519 public key `x` (canonical base64url, 32 bytes): its pseudonym at the table. */
  player: string;
  clientSeed: string;
  /** 1 … N − 1. The shoe is cut at the combination of every seated player's cut (FAIRNESS.md §C4). */
  cut: number;
}

/** A player's bets for one round (its last request before the close is the one that counts). */
export interface SharedBetRequest {
  type: 'bet';
  table: string;
  shoe: number;
  round: number;
  player: string;
  bets: Bet[];
}

export type SharedRequest = SharedStartRequest | SharedBetRequest;

export interface SignedSharedRequest<T extends SharedRequest = SharedRequest> {
  body: T;
  /** Ed25519 by the key `body.player` over sharedRequestDigest(body), canonical base64url. */
  signature: string;
}

// ── The operator's records ─────────────────────────────────────────────────────────────────────

export interface SharedCommitment extends RecordCommon {
  type: 'commitment';
  params: SharedParams;
  limits?: TableLimits;
  /** The beacon chain whose rounds the shoe uses: committed, so its signatures verify offline. */
  beacon: BeaconChain;
  serverSeedHash: string;
}

export interface SharedStart extends RecordCommon {
  type: 'start';
  /** One signed start request per player seated at the start, ascending by `player`, at least one. */
  requests: SignedSharedRequest<SharedStartRequest>[];
  prev: string;
}

export interface SharedClose extends RecordCommon {
  type: 'close';
  round: number;
  /** Every accepted bet request, one per player, ascending by `player`, at least one. */
  bets: SignedSharedRequest<SharedBetRequest>[];
  /** firstRoundAfter(beacon, issuedAt): the first beacon round published strictly after the close. */
  beaconRound: number;
  prev: string;
}

export interface SharedDeal extends RecordCommon, RoundFacts {
  type: 'deal';
  round: number;
  /** The beacon round as the relays serve it; its randomness is SHA-256 of the signature. */
  beacon: BeaconRound;
  cards: ReceiptCard[];
  cutCardOut: boolean;
  /** The close's hash. */
  prev: string;
}

/** One player's part of a dealt round; its balanceBefore and balanceAfter are the player's balance at its session before the stake, and after the round. */
export interface SharedSettlement extends RecordCommon, SettledFields {
  type: 'settlement';
  round: number;
  player: string;
  /** The hash of the deal it settles: with the deal and the close, the player's own proof. */
  deal: string;
  prev: string;
}

export interface SharedVoid extends RecordCommon {
  type: 'void';
  round: number;
  /** The close's hash; issued at least beaconDeadlineSeconds after the beacon round was due. */
  prev: string;
}

export type SharedRevealReason = 'cut-card' | 'reshuffle-limit' | 'closed';

export interface SharedReveal extends RecordCommon {
  type: 'reveal';
  serverSeed: string;
  /** Rounds closed in the shoe (dealt or voided). */
  rounds: number;
  reason: SharedRevealReason;
  prev: string;
}

export type SharedRecord = SharedCommitment | SharedStart | SharedClose | SharedDeal | SharedSettlement | SharedVoid | SharedReveal;

export type SignedShared<T extends SharedRecord = SharedRecord> = SignedRecordOf<T>;

/** A shared table's history: its records in chain order. */
export interface SharedFile {
  version: typeof SHARED;
  records: SignedShared[];
}

/** SHA-256("pb-shared-1/record\n" ‖ canonicalJson(body)). */
export const sharedRecordDigest = (body: object): Uint8Array<ArrayBuffer> => taggedDigest(SHARED_RECORD_TAG, body);
/** SHA-256("pb-shared-1/request\n" ‖ canonicalJson(body)). */
export const sharedRequestDigest = (body: object): Uint8Array<ArrayBuffer> => taggedDigest(SHARED_REQUEST_TAG, body);

/** The operator signs a record body (its keyId must be the key's). */
export function signSharedRecord<T extends SharedRecord>(body: T, key: SigningKey): Promise<SignedShared<T>> {
  return signTagged(SHARED_RECORD_TAG, body, key);
}

/** A player signs one of its requests (the body's `player` must be its key). */
export async function signSharedRequest<T extends SharedRequest>(body: T, playerKey: SigningKey): Promise<SignedSharedRequest<T>> {
  return { body, signature: await signBytes(playerKey, sharedRequestDigest(body)) };
}

/** Whether a signed request carries a valid signature by the key its body names. */
export async function verifySharedRequest(signed: SignedSharedRequest): Promise<boolean> {
  return typeof signed.body.player === 'string' && verifyTagged(signed.body.player, SHARED_REQUEST_TAG, signed);
}
