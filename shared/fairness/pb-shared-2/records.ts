/**
 * pb-shared-2 records (FAIRNESS.md part IV): pb-shared-1's shared table, with a close that commits
 * to the accepted bets instead of listing them. The close signs the Merkle root of the bet
 * requests (tree.ts), their count and the totals per box; the list itself travels beside the
 * signed body in the transcript (`bets` of the close's entry) and in the round's bets file, and a
 * player gets only the close and the inclusion proof of its own bet. Each settlement names its
 * bet's leaf. The shoe's start commits the same way to the seated players' start requests (their
 * root, count and the shoe's cut; the list beside it), and the shoe's client seed comes from that
 * root. Every other record, the requests and their signatures are pb-shared-1's, signed under this
 * version's own record tag:
 *     hash = SHA-256("pb-shared-2/record\n" ‖ canonicalJson(body)), signature = Ed25519(operator key, hash).
 */
import type { SigningKey } from '../common/keys.ts';
import { type SignedRecordOf, signTagged, taggedDigest } from '../pb-fair-2/records.ts';
import type {
  SharedBetRequest,
  SharedClose,
  SharedCommitment,
  SharedDeal,
  SharedReveal,
  SharedSettlement,
  SharedStart,
  SharedStartRequest,
  SharedVoid,
  SignedSharedRequest,
} from '../pb-shared-1/records.ts';
import { SHARED_RECORD_TAG, type SharedRecord } from '../pb-shared-1/records.ts';
import type { SharedAlgorithm } from '../pb-shared-1/params.ts';

export const SHARED2 = 'pb-shared-2';
export const SHARED2_RECORD_TAG = 'pb-shared-2/record\n';

/** The stakes of a round by box, over every accepted bet (all sectors). */
export interface BoxTotals {
  player: number;
  banker: number;
  tie: number;
}

/** The close: pb-shared-1's without `bets`, with the root, the count and the totals of the bets. */
export interface MerkleClose extends Omit<SharedClose, 'bets'> {
  /** The RFC 9162 root (64 lowercase hex) over the accepted bet requests, ascending by player. */
  betsRoot: string;
  /** How many bet requests the root covers (at least one). */
  betCount: number;
  totals: BoxTotals;
}

/** The start: pb-shared-1's without `requests`, with the root and count of the start requests and the shoe's cut (FAIRNESS.md §D3a). */
export interface MerkleStart extends Omit<SharedStart, 'requests'> {
  /** The root (64 lowercase hex) over the signed start requests, ascending by player, each leaf under the start-leaf tag. */
  startsRoot: string;
  /** How many start requests the root covers (at least one). */
  startCount: number;
  /** The shoe's cut: §C4's combination of every request's cut. */
  cut: number;
}

/** A settlement naming the leaf (the place in the close's order) of the bet it settles. */
export interface MerkleSettlement extends SharedSettlement {
  leaf: number;
}

export type Shared2Record = SharedCommitment | MerkleStart | MerkleClose | SharedDeal | MerkleSettlement | SharedVoid | SharedReveal;

/** A signed pb-shared-2 record: `{ body, hash, signature }`. */
export type Signed2<T extends Shared2Record = Shared2Record> = SignedRecordOf<T>;

/** A signed close as the transcript holds it: the record, and the bet requests its root commits to. */
export interface CloseEntry extends Signed2<MerkleClose> {
  bets: SignedSharedRequest<SharedBetRequest>[];
}

/** A signed start as the transcript holds it: the record, and the start requests its root commits to. */
export interface StartEntry extends Signed2<MerkleStart> {
  requests: SignedSharedRequest<SharedStartRequest>[];
}

/** What a player receives with the close: where its bet sits in the tree and its audit path (hex, leaf side first). */
export interface BetProof {
  leaf: number;
  path: string[];
}

/** A shared table's pb-shared-2 history: its records in chain order, each close with its bets. */
export interface Shared2File {
  version: typeof SHARED2;
  records: (Signed2<Shared2Record> | CloseEntry | StartEntry)[];
}

/** SHA-256("pb-shared-2/record\n" ‖ canonicalJson(body)). */
export const shared2RecordDigest = (body: object): Uint8Array<ArrayBuffer> => taggedDigest(SHARED2_RECORD_TAG, body);

/** The operator signs a pb-shared-2 record body (its keyId must be the key's). */
export function signShared2Record<T extends Shared2Record>(body: T, key: SigningKey): Promise<Signed2<T>> {
  return signTagged(SHARED2_RECORD_TAG, body, key) as Promise<Signed2<T>>;
}

/** A signed record alone, without the list beside it: the close or the start every player's socket receives. */
export function recordOf<T extends Shared2Record>(entry: Signed2<T>): Signed2<T> {
  return { body: entry.body, hash: entry.hash, signature: entry.signature };
}

/** The signed close alone, without its bets. */
export const closeRecordOf = (entry: Signed2<MerkleClose>): Signed2<MerkleClose> => recordOf(entry);

/** Signs a shared-table record under its shoe's version: this version's tag for a pb-shared-2 shoe, pb-shared-1's for a pb-shared-1 shoe. */
export function signSharedRecordFor<T extends SharedRecord | Shared2Record>(algorithm: SharedAlgorithm, body: T, key: SigningKey): Promise<SignedRecordOf<T>> {
  return signTagged(algorithm === 'pb-shared-2' ? SHARED2_RECORD_TAG : SHARED_RECORD_TAG, body, key);
}
