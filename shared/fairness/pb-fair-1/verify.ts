/**
 * The verifier (FAIRNESS.md §1, point 6): given a shoe's transcript and the operator's public keys,
 * it re-derives the shoe from the revealed seed and re-plays every round through the engine
 * (`dealRound`, `validateBets`, `settle`, `buildFair1ReceiptBody`): no rule is written twice.
 *
 * Records are judged in chain order and the first failure is the one reported (each round still
 * gets its own status for the table):
 *   1. the commitment: hash, signature, shape, parameters, link to the previous shoe;
 *   2. the start: hash, signature, shape, chain, table and shoe, client seed, cut;
 *   3. each receipt: hash, signature, shape, chain, round number, table and shoe, bets, cards,
 *      totals, outcome, natural, pairs, payouts, stake, balances, cut card;
 *   4. the reveal: hash, signature, shape, its seed against the commitment, round count, chain, reason.
 * The reveal is authenticated before the rounds are dealt, since every card depends on its seed; a
 * reveal that fails leaves the rounds 'unverifiable'.
 * Without a reveal the cards cannot be checked yet: the rounds are 'pending', but signatures, the
 * chain and everything that follows from the listed cards (totals, outcome, payouts, balances,
 * contiguous positions, the cut card) are still checked.
 */
import { type Card, isCardCode, parseCard } from '../../cards.ts';
import { settle } from '../../settle.ts';
import { dealRound, type Dealt, prepareShoe, type Shoe } from '../../shoe.ts';
import { type TableLimits, validateBets, validateLimits } from '../../table.ts';
import { isServerSeed, validateClientSeed } from '../common/seeds.ts';
import { fair1SeedCommitment } from './commit.ts';
import { bytesToHex, canonicalJson } from '../common/encoding.ts';
import { deriveFair1RoundShoe, deriveFair1Shoe } from './derive.ts';
import { importVerifyKeys, isVerifyKeys, type Jwks, verifyBytes, type VerifyKeys } from '../common/keys.ts';
import { LOOSEST_LIMITS } from '../common/loosest-limits.ts';
import { cutRange, FAIR1_VERSION, stackSize, validateFair1ShoeParams, type Fair1ShoeParams } from './params.ts';
import {
  buildFair1ReceiptBody,
  type Fair1CommitmentBody,
  type Fair1ReceiptBody,
  fair1RecordDigest,
  type Fair1RevealBody,
  type Fair1Signed,
  type Fair1StartBody,
  type Fair1Transcript,
} from './records.ts';
import { fair1EnvelopeShapeError, fair1SignedShapeError, fair1TranscriptShapeError } from './shape.ts';

export type Fair1VerifyFailureCode =
  | 'bad_record' // not a transcript/record of the documented shape, or a value in the wrong format
  | 'hash_mismatch' // the body does not hash to the record's hash: changed after signing
  | 'unknown_key' // the key id is not in the JWKS
  | 'bad_signature' // the signature does not verify with that key
  | 'chain_broken' // prev is not the previous record's hash: a record removed, inserted or reordered
  | 'table_mismatch'
  | 'shoe_mismatch'
  | 'round_mismatch' // a receipt's round number is not its place in the chain
  | 'bad_params' // committed parameters or limits the engine refuses
  | 'bad_client_seed'
  | 'bad_cut'
  | 'missing_start' // receipts without the start record
  | 'commitment_mismatch' // the revealed seed does not hash to the committed value
  | 'round_count_mismatch' // the reveal counts a different number of rounds
  | 'reveal_reason_mismatch'
  | 'round_after_cut_card' // a round dealt after the shoe had ended
  | 'bets_invalid'
  | 'card_mismatch'
  | 'total_mismatch'
  | 'outcome_mismatch'
  | 'natural_mismatch'
  | 'pair_mismatch'
  | 'payout_mismatch'
  | 'stake_mismatch'
  | 'balance_mismatch'
  | 'cut_card_mismatch'
  | 'unverifiable'; // (round status only) the round could not be checked because an earlier record failed

export type Fair1RecordKind = 'commitment' | 'start' | 'receipt' | 'reveal';

export interface Fair1RoundCheck {
  round: number;
  ok: boolean;
  status: 'verified' | 'pending' | 'failed';
  /** Why the round failed or is pending, for people. */
  reason?: string;
  /** The failure code when status is 'failed' (addition to the first contract). */
  code?: Fair1VerifyFailureCode;
}

export interface Fair1VerifyFailure {
  round: number | null;
  record: Fair1RecordKind;
  code: Fair1VerifyFailureCode;
  message: string;
}

export interface Fair1VerifyReport {
  ok: boolean;
  /** No reveal yet: the cards themselves could not be checked. */
  pending: boolean;
  rounds: Fair1RoundCheck[];
  failure?: Fair1VerifyFailure;
}

/** Verifies one shoe's transcript. `jwks` may be pre-imported keys (`importVerifyKeys`) to verify many. */
export async function verifyFair1Transcript(t: Fair1Transcript, jwks: Jwks | VerifyKeys): Promise<Fair1VerifyReport> {
  const keys = isVerifyKeys(jwks) ? jwks : await importVerifyKeys(jwks);
  return verifyShoe(t, keys, undefined);
}

/**
 * Verifies several shoes (a `play` output holds several), importing the keys once. Consecutive
 * shoes of one table are also checked to chain: shoe n+1's commitment names shoe n's reveal.
 */
export async function verifyFair1Transcripts(ts: Fair1Transcript[], jwks: Jwks | VerifyKeys): Promise<Fair1VerifyReport[]> {
  const keys = isVerifyKeys(jwks) ? jwks : await importVerifyKeys(jwks);
  const reports: Fair1VerifyReport[] = [];
  for (let i = 0; i < ts.length; i++) reports.push(await verifyShoe(ts[i]!, keys, previousReveal(ts[i - 1], ts[i]!)));
  return reports;
}

/** What the commitment's prev must be, when the previous transcript is the same table's previous shoe. */
function previousReveal(before: Fair1Transcript | undefined, t: Fair1Transcript): { hash: string | null } | undefined {
  const a = before?.commitment?.body;
  const b = t?.commitment?.body;
  if (!a || !b || a.table !== b.table || b.shoe !== a.shoe + 1) return undefined;
  return { hash: typeof before?.reveal?.hash === 'string' ? before.reveal.hash : null };
}

type Finding = { code: Fair1VerifyFailureCode; message: string };

const problem = (code: Fair1VerifyFailureCode, message: string): Finding => ({ code, message });

async function verifyShoe(input: Fair1Transcript, keys: VerifyKeys, linked: { hash: string | null } | undefined): Promise<Fair1VerifyReport> {
  const shape = fair1TranscriptShapeError(input);
  if (shape) return failed([], null, 'commitment', problem('bad_record', shape));
  const t = input;

  // Authenticate every record at once (signature checks run in parallel), judge them in order below.
  const receiptShapes = t.receipts.map((r, i) => fair1SignedShapeError(r, 'receipt', `receipts[${i}]`));
  const [commitmentAuth, startAuth, revealAuth, ...receiptAuth] = await Promise.all([
    authenticate(t.commitment, 'commitment', 'commitment', keys),
    t.start === undefined ? null : authenticate(t.start, 'start', 'start', keys),
    t.reveal === undefined ? null : authenticate(t.reveal, 'reveal', 'reveal', keys),
    ...t.receipts.map((r, i) => authenticate(r, 'receipt', `receipts[${i}]`, keys, receiptShapes[i])),
  ]);

  const unverifiable = (why: string): Fair1RoundCheck[] =>
    t.receipts.map((_, i) => ({ round: i + 1, ok: false, status: 'failed', code: 'unverifiable', reason: `not checked: ${why}` }));

  // 1. The commitment.
  const commitmentProblem = commitmentAuth ?? checkCommitment(t.commitment.body, linked);
  if (commitmentProblem) return failed(unverifiable('the commitment failed'), null, 'commitment', commitmentProblem);
  const commitment = t.commitment.body;
  const params = commitment.params;

  // 2. The start.
  let start: Fair1StartBody | null = null;
  if (t.start === undefined) {
    if (t.receipts.length > 0)
      return failed(
        unverifiable('there is no start record'),
        null,
        'start',
        problem('missing_start', 'rounds were dealt but the transcript has no start record (client seed and cut)'),
      );
  } else {
    const startProblem = startAuth ?? checkStart(t.start.body, t.commitment, params);
    if (startProblem) return failed(unverifiable('the start record failed'), null, 'start', startProblem);
    start = t.start.body;
  }

  // 3. The reveal's seed, needed for every card (its failure is reported after the rounds').
  let seed: string | null = null;
  let firstFailure: Fair1VerifyFailure | undefined;
  const revealProblem = t.reveal === undefined ? null : (revealAuth ?? checkRevealSeed(t.reveal.body, commitment));
  if (t.reveal !== undefined && revealProblem === null) seed = t.reveal.body.serverSeed;

  // 4. Every round.
  const rounds: Fair1RoundCheck[] = [];
  const dealer = start === null ? null : new Dealer(params, start, seed);
  const limits = commitment.limits ?? LOOSEST_LIMITS;
  const wellFormed = receiptShapes.map((shape) => shape === null);
  for (let i = 0; i < t.receipts.length; i++) {
    const auth = receiptAuth[i] ?? null;
    const body = wellFormed[i] ? t.receipts[i]!.body : null;
    const previous = i === 0 ? null : t.receipts[i - 1]!;
    const prevBody = wellFormed[i - 1] ? previous!.body : null;
    const prevHash = previous === null ? t.start!.hash : (previous as { hash?: unknown } | null)?.hash;
    // Deal every round, even one that already failed, so the rounds after it stay in step.
    const play = body === null ? (dealer!.skip(), null) : checkRoundPlay(body, prevBody, i, dealer!, limits, commitment);
    const finding = auth ?? checkReceiptIdentity(body!, i, prevHash, commitment) ?? play;
    if (finding === null && seed === null && t.reveal !== undefined) {
      rounds.push({ round: i + 1, ok: false, status: 'failed', code: 'unverifiable', reason: 'cards not checked: the reveal failed' });
    } else if (finding === null) {
      rounds.push(
        seed === null
          ? { round: i + 1, ok: true, status: 'pending', reason: 'cards pending until the server seed is revealed' }
          : { round: i + 1, ok: true, status: 'verified' },
      );
    } else {
      rounds.push({ round: i + 1, ok: false, status: 'failed', code: finding.code, reason: finding.message });
      firstFailure ??= { round: i + 1, record: 'receipt', ...finding };
    }
  }

  // 5. The reveal: its seed, then its bookkeeping.
  if (revealProblem) firstFailure ??= { round: null, record: 'reveal', ...revealProblem };
  if (t.reveal !== undefined && firstFailure === undefined) {
    const last = t.receipts.at(-1) ?? t.start ?? t.commitment;
    const bookkeeping = checkRevealEnd(t.reveal.body, t.receipts, last.hash, params);
    if (bookkeeping) firstFailure = { record: 'reveal', ...bookkeeping };
  }

  const report: Fair1VerifyReport = { ok: firstFailure === undefined, pending: t.reveal === undefined, rounds };
  if (firstFailure) report.failure = firstFailure;
  return report;
}

function failed(rounds: Fair1RoundCheck[], round: number | null, record: Fair1RecordKind, finding: Finding): Fair1VerifyReport {
  return { ok: false, pending: false, rounds, failure: { round, record, ...finding } };
}

/**
 * Hash, key, signature and shape of one record; null when authentic. The hash comes first: any
 * change to a signed body is reported as that, whatever the change made of it.
 */
async function authenticate(signed: unknown, kind: Fair1RecordKind, path: string, keys: VerifyKeys, knownShape?: string | null): Promise<Finding | null> {
  const envelope = fair1EnvelopeShapeError(signed, path);
  if (envelope) return problem('bad_record', envelope);
  const record = signed as Fair1Signed<object>;
  let digest: Uint8Array<ArrayBuffer>;
  try {
    digest = fair1RecordDigest(record.body);
  } catch (err) {
    return problem('bad_record', `${path}: ${(err as Error).message}`);
  }
  const hash = bytesToHex(digest);
  if (hash !== record.hash) {
    return problem(
      'hash_mismatch',
      `the body of the ${describe(kind, path)} hashes to ${hash}, not to its recorded hash ${record.hash}: it was changed after signing`,
    );
  }
  const key = keys.byId.get(record.keyId);
  if (!key) return problem('unknown_key', `the ${describe(kind, path)} is signed with key "${record.keyId}", which is not in the JWKS`);
  if (!(await verifyBytes(key, record.signature, digest))) {
    return problem('bad_signature', `the ${describe(kind, path)} signature does not verify with key "${record.keyId}"`);
  }
  const shape = knownShape === undefined ? fair1SignedShapeError(signed, kind, path) : knownShape;
  return shape ? problem('bad_record', `the ${describe(kind, path)} is signed but malformed: ${shape}`) : null;
}

function describe(kind: Fair1RecordKind, path: string): string {
  const m = /^receipts\[(\d+)\]$/.exec(path);
  return m ? `receipt of round ${Number(m[1]) + 1}` : `${kind} record`;
}

function checkCommitment(c: Fair1CommitmentBody, linked: { hash: string | null } | undefined): Finding | null {
  const p = validateFair1ShoeParams(c.params);
  if (!p.ok) return problem('bad_params', `the committed parameters are not playable: ${p.error.message}`);
  if (c.limits !== undefined) {
    const l = validateLimits(c.limits);
    if (!l.ok) return problem('bad_params', `the committed limits are not valid: ${l.error.message}`);
  }
  if (c.shoe < 1) return problem('bad_record', `shoe numbers start at 1, got ${c.shoe}`);
  if (!isServerSeed(c.serverSeedHash)) return problem('bad_record', 'the serverSeedHash must be 64 lowercase hex characters');
  if (c.shoe === 1 && c.prev !== null) return problem('chain_broken', 'shoe 1 of a table has no previous shoe, but the commitment names one');
  if (c.shoe > 1 && !isServerSeed(c.prev))
    return problem('chain_broken', `shoe ${c.shoe} must name the previous shoe's reveal hash (64 hex characters) in prev`);
  if (linked && c.prev !== linked.hash) {
    return problem(
      'chain_broken',
      linked.hash === null
        ? `shoe ${c.shoe - 1} was never revealed, yet shoe ${c.shoe} was committed`
        : `the commitment's prev ${String(c.prev)} is not the hash of shoe ${c.shoe - 1}'s reveal ${linked.hash}`,
    );
  }
  return null;
}

function checkStart(s: Fair1StartBody, commitment: Fair1Signed<Fair1CommitmentBody>, params: Fair1ShoeParams): Finding | null {
  if (s.prev !== commitment.hash) return problem('chain_broken', `the start's prev ${s.prev} is not the commitment's hash ${commitment.hash}`);
  const identity = checkIdentity(s, commitment.body, 'start record');
  if (identity) return identity;
  const seed = validateClientSeed(s.clientSeed);
  if (!seed.ok) return problem('bad_client_seed', seed.error.message);
  if (seed.value !== s.clientSeed) return problem('bad_client_seed', 'the client seed is not in Unicode NFC, the only form the derivation accepts');
  const range = cutRange(params);
  if (s.cut < range.min || s.cut > range.max) return problem('bad_cut', `the cut ${s.cut} is outside ${range.min}–${range.max} for ${params.decks} decks`);
  return null;
}

function checkRevealSeed(r: Fair1RevealBody, commitment: Fair1CommitmentBody): Finding | null {
  const identity = checkIdentity(r, commitment, 'reveal record');
  if (identity) return identity;
  if (!isServerSeed(r.serverSeed)) return problem('bad_record', 'the revealed server seed must be 64 lowercase hex characters');
  const hash = fair1SeedCommitment(r.serverSeed);
  if (hash !== commitment.serverSeedHash) {
    return problem('commitment_mismatch', `the revealed seed hashes to ${hash}, but the commitment published ${commitment.serverSeedHash}`);
  }
  return null;
}

function checkRevealEnd(
  r: Fair1RevealBody,
  receipts: readonly Fair1Signed<Fair1ReceiptBody>[],
  lastHash: string,
  params: Fair1ShoeParams,
): Omit<Fair1VerifyFailure, 'record'> | null {
  if (r.rounds !== receipts.length) {
    const missing = r.rounds > receipts.length;
    return {
      round: Math.min(r.rounds, receipts.length) + 1,
      code: 'round_count_mismatch',
      message: `the reveal says ${r.rounds} rounds were dealt, the transcript holds ${receipts.length}: ${missing ? `round ${receipts.length + 1} is missing` : `round ${r.rounds + 1} is one too many`}`,
    };
  }
  if (r.prev !== lastHash)
    return { round: null, code: 'chain_broken', message: `the reveal's prev ${r.prev} is not the hash of the record before it, ${lastHash}` };
  if (r.reason !== 'cut-card' && r.reason !== 'ended-early') {
    return { round: null, code: 'reveal_reason_mismatch', message: `the reveal reason must be "cut-card" or "ended-early", got ${JSON.stringify(r.reason)}` };
  }
  if (params.mode === 'shoe') {
    const cutOut = receipts.at(-1)?.body.cutCardOut === true;
    if (cutOut !== (r.reason === 'cut-card')) {
      return {
        round: null,
        code: 'reveal_reason_mismatch',
        message: cutOut
          ? 'the cut card came out in the last round, but the reveal says the shoe ended early'
          : 'the reveal says the cut card came out, but no round reached it',
      };
    }
  }
  return null;
}

function checkIdentity(b: { table: string; shoe: number }, c: Fair1CommitmentBody, what: string): Finding | null {
  if (b.table !== c.table)
    return problem('table_mismatch', `the ${what} is for table ${JSON.stringify(b.table)}, the commitment for ${JSON.stringify(c.table)}`);
  if (b.shoe !== c.shoe) return problem('shoe_mismatch', `the ${what} is for shoe ${b.shoe}, the commitment for shoe ${c.shoe}`);
  return null;
}

function checkReceiptIdentity(r: Fair1ReceiptBody, index: number, prevHash: unknown, c: Fair1CommitmentBody): Finding | null {
  if (r.prev !== prevHash) {
    return problem(
      'chain_broken',
      `the receipt in place ${index + 1} (it says round ${r.round}) does not follow the record before it: its prev is ${r.prev}, not ${String(prevHash)}; a round was removed, inserted or reordered`,
    );
  }
  if (r.round !== index + 1) return problem('round_mismatch', `the receipt in place ${index + 1} of the chain says it is round ${r.round}`);
  return checkIdentity(r, c, `receipt of round ${index + 1}`);
}

/**
 * Deals the rounds the verifier compares against: from the derived shoe when the seed is known,
 * otherwise from the cards the receipts list, placed at the positions they claim (so everything
 * except the shuffle itself is still checked by the engine).
 */
class Dealer {
  #params: Fair1ShoeParams;
  #start: Fair1StartBody;
  #seed: string | null;
  #shoe: Shoe | null = null;
  #stack: Card[] = [];
  #copies = new Map<string, number>();

  constructor(params: Fair1ShoeParams, start: Fair1StartBody, seed: string | null) {
    this.#params = params;
    this.#start = start;
    this.#seed = seed;
  }

  /** The engine's deal of round `index + 1`, or why it cannot be dealt. */
  deal(index: number, claimed: Fair1ReceiptBody): { dealt: Dealt } | Finding {
    const { clientSeed, cut } = this.#start;
    if (this.#seed !== null) {
      if (this.#params.mode === 'reshuffle') this.#shoe = deriveFair1RoundShoe(this.#params, this.#seed, clientSeed, cut, index + 1);
      else this.#shoe ??= deriveFair1Shoe(this.#params, this.#seed, clientSeed, cut);
    } else {
      const placed = this.#place(index, claimed);
      if (placed) return placed;
    }
    const dealt = dealRound(this.#shoe!);
    if (!dealt.ok) return problem('round_after_cut_card', `round ${index + 1} was dealt after the cut card had come out: the shoe had ended`);
    this.#shoe = dealt.value.shoe;
    return { dealt: dealt.value };
  }

  /** Keeps dealing in step past a round whose receipt is unreadable. */
  skip(): void {
    if (this.#seed === null) return; // nothing to place: the next receipt's own positions will show any gap
    if (this.#params.mode === 'reshuffle') return;
    this.#shoe ??= deriveFair1Shoe(this.#params, this.#seed, this.#start.clientSeed, this.#start.cut);
    const dealt = dealRound(this.#shoe);
    if (dealt.ok) this.#shoe = dealt.value.shoe;
  }

  /** Without the seed: writes the receipt's cards into a stack at their claimed positions. */
  #place(index: number, claimed: Fair1ReceiptBody): Finding | null {
    const size = stackSize(this.#params);
    const fresh = this.#params.mode === 'reshuffle' || this.#shoe === null;
    if (fresh) this.#stack = new Array<Card>(size).fill(0);
    for (const [i, c] of claimed.cards.entries()) {
      if (!isCardCode(c.code)) return problem('card_mismatch', `card ${i + 1} "${c.code}" is not a card code`);
      const card = parseCard(c.code)!;
      if (c.position < 0 || c.position >= size)
        return problem('card_mismatch', `card ${i + 1} (${c.code}) claims position ${c.position}, outside the ${size}-card stack`);
      if (this.#params.mode === 'shoe') {
        const n = (this.#copies.get(c.code) ?? 0) + 1;
        this.#copies.set(c.code, n);
        if (n > this.#params.decks)
          return problem('card_mismatch', `${c.code} is dealt ${n} times, but ${this.#params.decks} deck(s) hold only ${this.#params.decks}`);
      }
      if (!fresh && c.position < this.#shoe!.next) continue; // already dealt: the comparison will flag it
      this.#stack[c.position] = card;
    }
    if (fresh) {
      const first = claimed.cards[0]?.position ?? 0;
      if (this.#params.mode === 'shoe' && this.#params.burn) {
        // The turned card is not in any receipt; choose one whose burn matches the first dealt position.
        if (first < 2 || first > 11) return problem('card_mismatch', `the first card is dealt at position ${first}, but the burn takes 2 to 11 cards`);
        this.#stack[0] = first === 11 ? 9 : first - 2; // T burns 11 cards in all; A..9 burn 2..10
      }
      this.#shoe = prepareShoe(this.#stack, this.#params);
    }
    return null;
  }
}

/** Re-plays one round through the engine and compares every field, in the order of the module comment. */
function checkRoundPlay(
  claimed: Fair1ReceiptBody,
  previous: Fair1ReceiptBody | null,
  index: number,
  dealer: Dealer,
  limits: TableLimits,
  c: Fair1CommitmentBody,
): Finding | null {
  const balanceBefore = previous !== null && typeof previous.balanceAfter === 'number' ? previous.balanceAfter : claimed.balanceBefore;
  const bets = validateBets(claimed.bets, limits, balanceBefore);
  const deal = dealer.deal(index, claimed); // deal first so that dealing stays in step even when this round fails
  if (!bets.ok) return problem('bets_invalid', `the bets break the table rules: ${bets.error.message} (${bets.error.code})`);
  if (!('dealt' in deal)) return deal;
  const { round, cutCardOut } = deal.dealt;
  const expected = buildFair1ReceiptBody({
    table: c.table,
    shoe: c.shoe,
    round: index + 1,
    affiliate: claimed.affiliate,
    bets: bets.value,
    dealt: round,
    settlement: settle(bets.value, round.outcome),
    balanceBefore,
    cutCardOut,
    prev: claimed.prev,
    issuedAt: claimed.issuedAt,
  });
  return (
    compareCards(expected, claimed) ??
    same(expected, claimed, 'playerTotal', 'total_mismatch', 'the player total') ??
    same(expected, claimed, 'bankerTotal', 'total_mismatch', 'the banker total') ??
    same(expected, claimed, 'outcome', 'outcome_mismatch', 'the outcome') ??
    same(expected, claimed, 'natural', 'natural_mismatch', 'natural') ??
    same(expected, claimed, 'playerPair', 'pair_mismatch', 'the player pair') ??
    same(expected, claimed, 'bankerPair', 'pair_mismatch', 'the banker pair') ??
    comparePayouts(expected, claimed) ??
    same(expected, claimed, 'staked', 'stake_mismatch', 'the amount staked') ??
    same(expected, claimed, 'returned', 'payout_mismatch', 'the amount returned') ??
    same(expected, claimed, 'balanceBefore', 'balance_mismatch', "the balance before (the previous round's balance after)") ??
    same(expected, claimed, 'balanceAfter', 'balance_mismatch', 'the balance after (before − staked + returned)') ??
    same(expected, claimed, 'cutCardOut', 'cut_card_mismatch', 'whether the cut card came out')
  );
}

function same<K extends keyof Fair1ReceiptBody>(
  expected: Fair1ReceiptBody,
  claimed: Fair1ReceiptBody,
  key: K,
  code: Fair1VerifyFailureCode,
  what: string,
): Finding | null {
  if (expected[key] === claimed[key]) return null;
  return problem(code, `${what} should be ${JSON.stringify(expected[key])}, the receipt says ${JSON.stringify(claimed[key])}`);
}

function compareCards(expected: Fair1ReceiptBody, claimed: Fair1ReceiptBody): Finding | null {
  const e = expected.cards;
  const got = claimed.cards;
  for (let i = 0; i < Math.max(e.length, got.length); i++) {
    const a = e[i];
    const b = got[i];
    if (a && b && a.code === b.code && a.position === b.position && a.hand === b.hand) continue;
    if (!a) return problem('card_mismatch', `the rules deal ${e.length} cards this round, the receipt lists ${got.length}`);
    if (!b)
      return problem(
        'card_mismatch',
        `the rules deal ${e.length} cards this round (card ${i + 1}, ${a.code} to the ${a.hand} from position ${a.position}), the receipt lists ${got.length}`,
      );
    return problem(
      'card_mismatch',
      `card ${i + 1} of the round: the shoe deals ${a.code} to the ${a.hand} from position ${a.position}; the receipt says ${b.code} to the ${b.hand} from position ${b.position}`,
    );
  }
  return null;
}

function comparePayouts(expected: Fair1ReceiptBody, claimed: Fair1ReceiptBody): Finding | null {
  const e = expected.payouts;
  const got = claimed.payouts;
  if (e.length !== got.length) return problem('payout_mismatch', `${e.length} bets were settled, the receipt lists ${got.length} payouts`);
  for (let i = 0; i < e.length; i++) {
    if (canonicalJson(e[i]) !== canonicalJson(got[i])) {
      return problem('payout_mismatch', `payout ${i + 1} should be ${canonicalJson(e[i])}, the receipt says ${canonicalJson(got[i])}`);
    }
  }
  return null;
}

/** A transcript file: `{ "transcripts": [...] }` or one transcript. Returns the list, or why it is neither. */
export function fair1TranscriptsOf(file: unknown): { ok: true; value: Fair1Transcript[] } | { ok: false; message: string } {
  if (typeof file === 'object' && file !== null && !Array.isArray(file)) {
    const f = file as { transcripts?: unknown; version?: unknown };
    if (Array.isArray(f.transcripts)) return { ok: true, value: f.transcripts as Fair1Transcript[] };
    if (f.version === FAIR1_VERSION || 'commitment' in f) return { ok: true, value: [file as Fair1Transcript] };
  }
  return { ok: false, message: 'expected a transcript object or { "transcripts": [...] }' };
}
