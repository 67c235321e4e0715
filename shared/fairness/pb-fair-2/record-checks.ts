/**
 * The checks every record of a pb-fair-2 (§B10) or pb-shared-1 (§C8) file passes before the
 * checks of its type, in the documented order. The versions differ in their tags, bodies and
 * sequence rules, passed in; a failure goes to the caller's `stop`, which does not return.
 */
import type { RoundFacts } from '../../round.ts';
import { bytesToHex } from '../common/encoding.ts';
import type { PublicKey, VerifyKeys } from '../common/keys.ts';
import type { ShapeCheck } from '../common/shape-checks.ts';

/** What the first checks need of a protocol version. */
export interface RecordRules {
  envelope: ShapeCheck;
  /** SHA-256 of the version's record tag and the canonical body. */
  digest: (body: object) => Uint8Array<ArrayBuffer>;
  bodies: Record<string, ShapeCheck>;
}

/**
 * The rules with each body's digest computed once per verification: a verifier that starts the
 * signature checks early needs the digest there and again in the ordered pass. Keyed by the body
 * object, which nothing changes while a verification runs.
 */
export function digestOnce(rules: RecordRules): RecordRules {
  const digests = new WeakMap<object, Uint8Array<ArrayBuffer>>();
  return {
    ...rules,
    digest(body) {
      let d = digests.get(body);
      if (d === undefined) {
        d = rules.digest(body);
        digests.set(body, d);
      }
      return d;
    },
  };
}

/** The members every chained record has. */
export interface ChainedBody {
  type: string;
  table: string;
  shoe: number;
  prev: string | null;
  issuedAt: string;
}

interface SignedRecord {
  body: ChainedBody;
  hash: string;
  signature: string;
}

/** The codes of the first checks, as both versions list them: a file's text and each record's signature. */
export const RECORD_CODES = ['bad_json', 'bad_record', 'hash_mismatch', 'unknown_key', 'bad_signature', 'out_of_sequence'] as const;
/** The codes of a record's place in the chain, and of its shoe's parameters. */
export const PLACEMENT_CODES = ['table_mismatch', 'shoe_gap', 'shoe_out_of_order', 'shoe_mismatch', 'chain_broken', 'time_went_back', 'bad_params'] as const;
/** The codes of a dealt round's record that does not match the derivation. */
export const DEALT_CODES = ['card_mismatch', 'total_mismatch', 'outcome_mismatch', 'natural_mismatch', 'pair_mismatch'] as const;

type RecordCode = (typeof RECORD_CODES)[number];
type PlacementCode = 'bad_record' | (typeof PLACEMENT_CODES)[number];

/** The members of a dealt round's record the derivation decides, in the order compared, and the code each fails with. */
export const DEALT_MEMBERS: ['cards' | keyof RoundFacts, (typeof DEALT_CODES)[number]][] = [
  ['cards', 'card_mismatch'],
  ['playerTotal', 'total_mismatch'],
  ['bankerTotal', 'total_mismatch'],
  ['outcome', 'outcome_mismatch'],
  ['natural', 'natural_mismatch'],
  ['playerPair', 'pair_mismatch'],
  ['bankerPair', 'pair_mismatch'],
];

/**
 * Envelope, hash, operator key, signature, body shape. `signedBy` checks the operator's signature
 * (a verifier may have started it early); the body's shape is judged only once it is signed.
 */
export async function checkSignedRecord(
  signed: SignedRecord,
  path: string,
  rules: RecordRules,
  keys: VerifyKeys,
  signedBy: (key: PublicKey, signature: string, digest: Uint8Array<ArrayBuffer>) => Promise<boolean>,
  stop: (code: RecordCode, message: string) => never,
): Promise<void> {
  const env = rules.envelope(signed, path);
  if (env) stop('bad_record', env);
  let digest: Uint8Array<ArrayBuffer>;
  try {
    digest = rules.digest(signed.body);
  } catch (err) {
    return stop('bad_record', `${path}: ${(err as Error).message}`);
  }
  if (bytesToHex(digest) !== signed.hash)
    stop('hash_mismatch', `${path}: the body hashes to ${bytesToHex(digest)}, not to its recorded hash: it was changed after signing`);
  const keyId = (signed.body as { keyId?: unknown }).keyId;
  const key = typeof keyId === 'string' ? keys.byId.get(keyId) : undefined;
  if (!key) stop('unknown_key', `${path}: keyId ${JSON.stringify(keyId)} is not the kid of any key in the JWKS`);
  if (!(await signedBy(key, signed.signature, digest))) stop('bad_signature', `${path}: the operator's signature does not verify with key ${String(keyId)}`);
  const bodyShape = rules.bodies[signed.body.type]!(signed.body, `${path}.body`);
  if (bodyShape) stop('bad_record', bodyShape);
}

/**
 * Where a record sits (after its sequence is checked): the file's table, its shoe against the
 * current commitment's (`committedShoe`, null before the first), its prev and time against the
 * record before it.
 */
export function checkPlacement(
  body: ChainedBody,
  before: SignedRecord | null,
  path: string,
  table: string,
  committedShoe: number | null,
  stop: (code: PlacementCode, message: string) => never,
): void {
  if (body.table !== table) stop('table_mismatch', `${path} is for table ${JSON.stringify(body.table)}, the file for ${JSON.stringify(table)}`);
  if (body.type === 'commitment') {
    if (body.shoe < 1) stop('bad_record', 'shoe numbers start at 1');
    if (committedShoe !== null && body.shoe > committedShoe + 1) stop('shoe_gap', `shoe ${body.shoe} follows shoe ${committedShoe}: shoes are missing`);
    if (committedShoe !== null && body.shoe <= committedShoe) stop('shoe_out_of_order', `shoe ${body.shoe} follows shoe ${committedShoe}`);
  } else if (body.shoe !== committedShoe) stop('shoe_mismatch', `${path} is for shoe ${body.shoe}, its commitment for shoe ${String(committedShoe)}`);
  if (before === null) {
    if ((body.shoe === 1) !== (body.prev === null))
      stop(
        'chain_broken',
        body.shoe === 1 ? 'shoe 1 has no previous shoe, but its prev names one' : `shoe ${body.shoe} must name the previous shoe's reveal in prev`,
      );
  } else if (body.prev !== before.hash) stop('chain_broken', `${path}: prev ${String(body.prev)} is not the hash of the record before it, ${before.hash}`);
  if (before !== null && body.issuedAt < before.body.issuedAt)
    stop('time_went_back', `${path} is issued at ${body.issuedAt}, before the record it follows (${before.body.issuedAt})`);
}

/** Where and why a verification stopped. */
export interface VerifyFailureOf<C extends string> {
  /** Index of the record in `records` (null: the file itself). */
  index: number | null;
  shoe: number | null;
  round: number | null;
  code: C;
  message: string;
}

/** What every verifier's report says first. */
export interface VerifyReportOf<C extends string> {
  ok: boolean;
  /** Some shoe is not revealed yet: its cards were checked for consistency only. */
  pending: boolean;
  /** The first failure's code, or "ok". */
  code: C | 'ok';
  failure?: VerifyFailureOf<C>;
}

/** Thrown by a verifier's `stop`: the ordered pass ends at its first failure. */
export class VerifyStop<C extends string> extends Error {
  readonly failure: VerifyFailureOf<C>;
  constructor(failure: VerifyFailureOf<C>) {
    super(failure.message);
    this.failure = failure;
  }
}
