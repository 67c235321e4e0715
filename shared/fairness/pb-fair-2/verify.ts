/**
 * The pb-fair-2 verifier (FAIRNESS.md §B10): one table's history, records in chain order, judged
 * one after the other in the documented order; the first failure stops the check (nothing after
 * it is judged, so there is no question of where dealing or balances resume). The cards of a
 * shoe are checked against the derivation when the shoe's reveal, wherever it sits, holds a seed
 * that matches the commitment (a matching seed authenticates itself); otherwise they are checked
 * for consistency only, and the rounds are pending.
 */
import { type Card, CARDS_PER_DECK, isCardCode, parseCard } from '../../cards.ts';
import { playRound, type Round, roundFacts } from '../../round.ts';
import { type CommissionRule, settle } from '../../settle.ts';
import { type TableLimits, validateBets } from '../../table.ts';
import { checkRecordedClientSeed } from '../common/seeds.ts';
import { base64urlToBytes, canonicalJson } from '../common/encoding.ts';
import { importVerifyKeys, isVerifyKeys, type Jwks, type VerifyKeys } from '../common/keys.ts';
import { receiptCards, settledFields } from '../common/receipt-fields.ts';
import { LOOSEST_LIMITS } from '../common/loosest-limits.ts';
import { dealAcceptedRound, isHex32, lockOf, seedCommitment, type ShoeState, startShoe } from './derive.ts';
import { parseStrictJson } from '../common/strict-json.ts';
import { revealDue } from './operator.ts';
import { type ShoeParams, validateCommittedLimits, validateParams } from './params.ts';
import {
  type Acceptance,
  type Commitment,
  importPlayerKey,
  type Receipt,
  recordDigest,
  type Reveal,
  type SignedRequest,
  type Signed,
  type Start,
  type Transfer,
  type Void,
  type WalletOfShoe,
} from './records.ts';
import { checkPlacement, checkSignedRecord, digestOnce, DEALT_MEMBERS, type RecordRules, VerifyStop } from './record-checks.ts';
import { BODIES, envelopeShape, fileShape } from './shape.ts';
import { type SignatureChecks, startSignatureChecks } from './signatures.ts';
import { balanceAfterTransfer, transferShapeError } from './transfer.ts';
import { commissionRuleOf } from './wallet.ts';
import { checkCredit, checkDebit, checkTransaction, checkTransferWallet, checkWallet, walletMembers } from './verify-wallet.ts';

export {
  VERIFY_CODES,
  type RoundStatus,
  type Unsettled,
  type VerifyCode,
  type VerifyFailure,
  type VerifyOptions,
  type VerifyReport,
  type WalletStatement,
  type WalletStatementLine,
} from './verify-codes.ts';
import type { RoundStatus, Unsettled, VerifyCode, VerifyFailure, VerifyOptions, VerifyReport, WalletStatement } from './verify-codes.ts';

/** Verifies the text of a pb-fair-2 file (the conformant entry point: integers and duplicates are judged on the text). */
export async function verifyText(text: string, jwks: Jwks | VerifyKeys, options: VerifyOptions = {}): Promise<VerifyReport> {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return report([], [], false, { index: null, shoe: null, round: null, code: 'bad_json', message: parsed.message });
  return verifyFile(parsed.value, jwks, options);
}

/** pb-fair-2 keys: only JWKS entries with a `kid` (no thumbprint fallback). */
export async function importKidVerifyKeys(jwks: Jwks): Promise<VerifyKeys> {
  const keys = jwks && Array.isArray(jwks.keys) ? jwks.keys.filter((k) => typeof (k as { kid?: unknown })?.kid === 'string') : [];
  return importVerifyKeys({ keys });
}

class Stop extends VerifyStop<VerifyCode> {}

function report(rounds: RoundStatus[], unsettled: Unsettled[], pending: boolean, failure?: VerifyFailure, wallet?: WalletStatement): VerifyReport {
  const r: VerifyReport = { version: 'pb-fair-2', ok: !failure, pending, code: failure?.code ?? 'ok', rounds, unsettled };
  if (failure) r.failure = failure;
  if (wallet) r.wallet = wallet;
  return r;
}

export interface ShoeCtx {
  commitment: Signed<Commitment>;
  params: ShoeParams;
  limits: TableLimits;
  seed: string | null;
  start: Start | null;
  state: ShoeState | null;
  /** Without the seed: where the next card must come from, and copies seen. */
  nextPosition: number | null;
  copies: Map<string, number>;
  accepted: number;
  balance: number;
  acceptance: Signed<Acceptance> | null;
  cutCardOut: boolean;
  /** Wallet mode: the shoe's wallet, and its last debit attempt. */
  wallet: WalletOfShoe | undefined;
  attempt: number;
  /** How the shoe pays the Banker's commission: round-down in a wallet shoe. */
  rule: CommissionRule;
}

/** Verifies a parsed pb-fair-2 file `{ version, records, jwks?, sent? }`. */
export async function verifyFile(file: unknown, jwks: Jwks | VerifyKeys, options: VerifyOptions = {}): Promise<VerifyReport> {
  const keys = isVerifyKeys(jwks) ? jwks : await importKidVerifyKeys(jwks);
  const shape = fileShape(file, 'file');
  if (shape) return report([], [], false, { index: null, shoe: null, round: null, code: 'bad_record', message: shape });
  const records = (file as { records: Signed[] }).records;
  const rules = digestOnce(V2_RULES);
  const w = startWalk(records, startSignatureChecks(records, rules, keys, options.playerKey ?? null), options.playerKey ?? null);
  let pending = false;
  try {
    for (w.index = 0; w.index < records.length; w.index++) await checkRecord(w, rules, keys);
    if (w.shoe !== null && (records.at(-1)?.body.type ?? 'reveal') !== 'reveal') pending = true;
    checkEnd(w);
    return report(w.rounds, w.unsettled, pending, undefined, w.statement ?? undefined);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    const acceptance = w.shoe?.acceptance;
    if (e.failure.code === 'unsettled_acceptance' && acceptance && !w.unsettled.some((u) => u.acceptance === acceptance.hash)) {
      w.unsettled.push({ shoe: acceptance.body.shoe, round: acceptance.body.round, index: records.indexOf(acceptance), acceptance: acceptance.hash });
      roundStatus(w, 'unsettled');
    }
    return report(w.rounds, w.unsettled, pending || records.at(-1)?.body?.type !== 'reveal', e.failure, w.statement ?? undefined);
  }
}

/** What the walk through a file's records carries from one record to the next. */
export interface FileWalk {
  records: Signed[];
  signatures: SignatureChecks;
  /** The record being checked. */
  index: number;
  shoe: ShoeCtx | null;
  playerKey: string | null;
  /** The previous shoe's closing balance. */
  closing: number | null;
  /** The newest record that is not a transfer: what the sequence rules and a player's request follow. */
  lastPrivate: Signed | null;
  transfers: Set<string>;
  /** The table's wallet statement, once its first commitment named a wallet; undefined before the first commitment, null for a play table. */
  statement: WalletStatement | null | undefined;
  rounds: RoundStatus[];
  unsettled: Unsettled[];
  /** Stops the walk with the failure of the record being checked. */
  stop: StopFn;
}

function startWalk(records: Signed[], signatures: FileWalk['signatures'], playerKey: string | null): FileWalk {
  const w: FileWalk = {
    records,
    signatures,
    index: 0,
    shoe: null,
    playerKey,
    closing: null,
    lastPrivate: null,
    transfers: new Set(),
    statement: undefined,
    rounds: [],
    unsettled: [],
    stop: (code, message) => {
      const b = records[w.index]?.body as { shoe?: unknown; round?: unknown } | undefined;
      const round =
        typeof b?.round === 'number'
          ? b.round
          : w.shoe?.acceptance && b && (b as { type?: string }).type !== 'acceptance'
            ? w.shoe.acceptance.body.round
            : null;
      throw new Stop({ index: w.index, shoe: typeof b?.shoe === 'number' ? b.shoe : null, round, code, message });
    },
  };
  return w;
}

/** Records the status of the round the shoe's acceptance opened. */
function roundStatus(w: FileWalk, status: RoundStatus['status'], code?: VerifyCode): void {
  const a = w.shoe!.acceptance!.body;
  w.rounds.push({ shoe: a.shoe, round: a.round, status, ...(code ? { code } : {}) });
}

/** One record: the checks every record passes (envelope, hash, key, signature, body shape, sequence, table, shoe, chain, time), then those of its type. */
async function checkRecord(w: FileWalk, rules: RecordRules, keys: VerifyKeys): Promise<void> {
  const { records, index, stop } = w;
  const signed = records[index]!;
  const path = `records[${index}]`;
  await checkSignedRecord(signed, path, rules, keys, (key, signature, digest) => w.signatures.operator(index, key, signature, digest), stop);
  const body = signed.body;
  const before = index === 0 ? null : records[index - 1]!;
  sequence(body.type, before?.body.type ?? null, w.lastPrivate?.body.type ?? null, stop);
  checkPlacement(body, before, path, records[0]!.body.table, w.shoe?.commitment.body.shoe ?? null, stop);
  if (body.type !== 'commitment') walletMembers(w.shoe!, body, stop);
  switch (body.type) {
    case 'commitment':
      w.shoe = await checkCommitment(w, signed as Signed<Commitment>);
      break;
    case 'start':
      await checkStart(w, w.shoe!, body);
      break;
    case 'acceptance':
      await checkAcceptance(w, w.shoe!, signed as Signed<Acceptance>);
      break;
    case 'receipt':
      await checkReceipt(w, w.shoe!, body);
      break;
    case 'void':
      await checkVoid(w, w.shoe!, body);
      break;
    case 'reveal':
      await checkRevealRecord(w, w.shoe!, body, before!);
      break;
    case 'transfer':
      checkTransfer(w, w.shoe!, body);
      break;
  }
  if (body.type !== 'transfer') w.lastPrivate = signed;
}

/** A commitment opens a shoe: its params, limits, the player's key and the balance it opens with. */
async function checkCommitment(w: FileWalk, s: Signed<Commitment>): Promise<ShoeCtx> {
  const { body } = s;
  const stop = w.stop;
  const params = checkParams(body.params, stop);
  checkWallet(w, body);
  const rule = commissionRuleOf(body);
  let limits = LOOSEST_LIMITS;
  if (body.limits !== undefined) {
    const l = validateCommittedLimits(body.limits, rule);
    if (!l.ok) stop('bad_params', `the committed limits: ${l.error.message}`);
    limits = body.limits;
  }
  if (base64urlToBytes(body.playerKey)?.length !== 32 || (await importPlayerKey(body.playerKey)) === null)
    stop('bad_player_key', 'playerKey must be an Ed25519 public key: 32 bytes in canonical base64url');
  if (w.playerKey !== null && body.playerKey !== w.playerKey)
    stop('player_key_mismatch', `the commitment names player key ${body.playerKey}, not the table's ${w.playerKey}`);
  w.playerKey = body.playerKey;
  if (w.closing !== null && body.openingBalance !== w.closing)
    stop('opening_balance_mismatch', `shoe ${body.shoe} opens with ${body.openingBalance}, the previous shoe closed with ${w.closing}`);
  return {
    commitment: s,
    params,
    limits,
    seed: seedOf(w.records, w.index, body.serverSeedHash),
    start: null,
    state: null,
    nextPosition: null,
    copies: new Map(),
    accepted: 0,
    balance: body.openingBalance,
    acceptance: null,
    cutCardOut: false,
    wallet: body.wallet,
    attempt: 0,
    rule,
  };
}

/** The player's signed seed and cut. */
async function checkStart(w: FileWalk, sh: ShoeCtx, body: Start): Promise<void> {
  const { stop } = w;
  const r = body.request.body;
  if (!(await w.signatures.player(w.playerKey!, body.request)))
    stop('bad_player_signature', "the start request's signature does not verify with the player's key");
  if (r.table !== body.table || r.shoe !== body.shoe || r.commitment !== sh.commitment.hash)
    stop('request_mismatch', 'the start request names another table, shoe or commitment');
  const seed = checkRecordedClientSeed(r.clientSeed);
  if (!seed.ok) stop('bad_client_seed', seed.error.message);
  const size = sh.params.decks * CARDS_PER_DECK;
  if (r.cut < 1 || r.cut > size - 1) stop('bad_cut', `the cut ${r.cut} is outside 1–${size - 1}`);
  sh.start = body;
  if (sh.seed !== null) sh.state = startShoe(sh.params, sh.seed, r.clientSeed, r.cut);
}

/** The next round's locked bets, within the limits and the balance carried. */
async function checkAcceptance(w: FileWalk, sh: ShoeCtx, signed: Signed<Acceptance>): Promise<void> {
  const { stop } = w;
  const body = signed.body;
  const r = body.request.body;
  if (body.round !== sh.accepted + 1) stop('round_mismatch', `the acceptance says round ${body.round}; it is round ${sh.accepted + 1} of the shoe`);
  if (sh.cutCardOut) stop('round_after_cut_card', `round ${body.round} was accepted after the cut card came out`);
  if (sh.params.mode === 'reshuffle' && body.round > sh.params.roundLimit)
    stop('round_over_limit', `round ${body.round} is beyond the committed roundLimit ${sh.params.roundLimit}`);
  if (!(await w.signatures.player(w.playerKey!, body.request)))
    stop('bad_player_signature', "the bet request's signature does not verify with the player's key");
  if (r.table !== body.table || r.shoe !== body.shoe || r.round !== body.round || !followsSeen(r.prev, body.prev, w.lastPrivate))
    stop('request_mismatch', 'the bet request names another table, shoe, round or previous record');
  if (body.debit !== undefined) await checkDebit(w, sh, body);
  else if (body.balanceBefore !== sh.balance)
    stop('balance_mismatch', `the acceptance's balanceBefore ${body.balanceBefore} is not the balance carried, ${sh.balance}`);
  const bets = validateBets(r.bets, sh.limits, body.balanceBefore);
  if (!bets.ok) stop('bets_invalid', `${bets.error.message} (${bets.error.code})`);
  sh.accepted++;
  sh.acceptance = signed;
}

/** The accepted round settled: the secret opens the lock, and the cards, totals and payouts are the ones dealt. */
async function checkReceipt(w: FileWalk, sh: ShoeCtx, body: Receipt): Promise<void> {
  const { stop } = w;
  const acc = sh.acceptance!;
  const r = body.request.body;
  if (body.round !== acc.body.round) stop('round_mismatch', `the receipt says round ${body.round}, its acceptance round ${acc.body.round}`);
  if (!(await w.signatures.player(w.playerKey!, body.request))) {
    roundStatus(w, 'failed', 'bad_player_signature');
    stop('bad_player_signature', "the secret request's signature does not verify with the player's key");
  }
  if (r.table !== body.table || r.shoe !== body.shoe || r.round !== body.round || r.acceptance !== acc.hash)
    stop('request_mismatch', 'the secret request answers another acceptance');
  if (!isHex32(r.secret)) stop('bad_secret', 'the round secret must be 64 lowercase hex characters');
  if (lockOf(r.secret) !== acc.body.request.body.lock) stop('lock_mismatch', 'the revealed secret does not open the lock the bet request carried');
  const round = dealt(sh, body, r.secret, acc.hash, stop);
  const finding = compareReceipt(sh, acc.body, body, round.round, round.cutCardOut) ?? (await checkCredit(w, sh, acc.body, body));
  if (finding) {
    roundStatus(w, 'failed', finding[0]);
    stop(finding[0], finding[1]);
  }
  roundStatus(w, sh.seed === null ? 'pending' : 'verified');
  sh.balance = body.balanceAfter;
  sh.cutCardOut = body.cutCardOut;
  sh.acceptance = null;
}

/** The accepted round voided: not before the committed time, and the stake returned. */
async function checkVoid(w: FileWalk, sh: ShoeCtx, body: Void): Promise<void> {
  const { stop } = w;
  const acc = sh.acceptance!;
  if (body.round !== acc.body.round) stop('round_mismatch', `the void says round ${body.round}, its acceptance round ${acc.body.round}`);
  if (Date.parse(body.issuedAt) - Date.parse(acc.body.issuedAt) < sh.params.voidAfterSeconds * 1000)
    stop('void_too_early', `round ${body.round} was voided before the committed ${sh.params.voidAfterSeconds} s had passed`);
  if (body.balanceBefore !== acc.body.balanceBefore || body.balanceAfter !== acc.body.balanceBefore)
    stop('balance_mismatch', "a void returns the stake: balanceBefore and balanceAfter must both be the acceptance's balanceBefore");
  if (body.rollback !== undefined) {
    const d = acc.body.debit!;
    await checkTransaction(w, sh, body, d.attempt, 'rollback', body.rollback.transaction, body.rollback.amount);
    if (body.rollback.amount !== d.amount)
      stop('rollback_amount_mismatch', `round ${body.round}: the rollback is ${body.rollback.amount}, the debit it undoes ${d.amount}`);
  }
  roundStatus(w, 'voided');
  sh.balance = body.balanceAfter;
  sh.acceptance = null;
}

/** The shoe's end: the seed and the closing balance, and the player's end request when the player ended it. */
async function checkRevealRecord(w: FileWalk, sh: ShoeCtx, body: Reveal, before: Signed): Promise<void> {
  const { stop } = w;
  checkReveal(sh, body, before, stop);
  if (body.reason === 'player' && !(await w.signatures.player(w.playerKey!, body.request!)))
    stop('bad_player_signature', "the end request's signature does not verify with the player's key");
  if (
    body.reason === 'player' &&
    (body.request!.body.table !== body.table || body.request!.body.shoe !== body.shoe || !followsSeen(body.request!.body.prev, body.prev, w.lastPrivate))
  )
    stop('request_mismatch', 'the end request names another table, shoe or previous record');
  w.closing = body.closingBalance;
}

/** After the last record: an acceptance no receipt or void answers is owed; an empty file holds nothing. */
function checkEnd(w: FileWalk): void {
  const { records } = w;
  const last = records.at(-1);
  if (last?.body.type === 'acceptance') {
    w.index = records.length - 1;
    const a = last.body as Acceptance;
    w.unsettled.push({ shoe: a.shoe, round: a.round, index: w.index, acceptance: last.hash });
    roundStatus(w, 'unsettled');
    w.stop('unsettled_acceptance', `round ${a.round} of shoe ${a.shoe} was accepted and is neither settled nor voided: the operator owes it (see owedRound)`);
  }
  if (records.length === 0) w.stop('bad_record', 'the file holds no record');
}

export type StopFn = (code: VerifyCode, message: string) => never;

const V2_RULES: RecordRules = { envelope: envelopeShape, digest: recordDigest, bodies: BODIES };

/**
 * The record types that may follow each type (§B9). A reveal after an acceptance leaves it
 * unsettled. Transfers (§B14) stand outside the rounds: one may follow any record but an
 * acceptance (`transfer_in_round`) or a reveal, and the record after transfers follows the rules
 * of the newest record before them that is not a transfer (`privateBefore`).
 */
function sequence(type: string, before: string | null, privateBefore: string | null, stop: StopFn): void {
  if (type === 'transfer') {
    if (before === 'acceptance')
      stop('transfer_in_round', 'a transfer between an acceptance and its receipt or void: the balance moved while a round was open');
    if (before === null || before === 'reveal') stop('out_of_sequence', `a transfer cannot ${before === null ? 'start a file' : 'follow a reveal'}`);
    return;
  }
  if (before === 'transfer') before = privateBefore;
  const allowed: Record<string, string[]> = {
    start: ['acceptance', 'reveal'],
    commitment: ['start', 'reveal'],
    acceptance: ['receipt', 'void'],
    receipt: ['acceptance', 'reveal'],
    void: ['acceptance', 'reveal'],
    reveal: ['commitment'],
  };
  if (before === null) {
    if (type !== 'commitment') stop('out_of_sequence', 'a file starts with a commitment');
    return;
  }
  if (before === 'acceptance' && type === 'reveal')
    stop('unsettled_acceptance', 'the shoe was revealed while an accepted round was neither settled nor voided: the operator owes it');
  if (!allowed[before]!.includes(type)) stop('out_of_sequence', `a ${type} record cannot follow a ${before} record`);
}

/**
 * A player's request names the record it follows: the record right before the operator's record
 * that embeds it, or — when transfers sit between — the newest record before them, which is all
 * a player who did not see the transfers knows (§B14).
 */
function followsSeen(named: string, prev: string, lastPrivate: Signed | null): boolean {
  return named === prev || (lastPrivate !== null && named === lastPrivate.hash);
}

/** A transfer record (§B14): its members, its id once per file, then the balance it moves (in a wallet shoe, its wallet member first: §B15). */
function checkTransfer(w: FileWalk, sh: ShoeCtx, t: Transfer): void {
  const { stop, transfers: seen } = w;
  const shape = transferShapeError({ id: t.transfer, shoe: t.sharedShoe, round: t.sharedRound, kind: t.kind, amount: t.amount }, sh.wallet !== undefined);
  if (shape) stop('bad_transfer', shape);
  if (seen.has(t.transfer)) stop('duplicate_transfer', `transfer ${t.transfer} is recorded twice: a shared table's movement applies once`);
  seen.add(t.transfer);
  if (sh.wallet !== undefined) checkTransferWallet(w, sh, t);
  else if (t.balanceBefore !== sh.balance)
    stop('balance_mismatch', `the transfer's balanceBefore ${t.balanceBefore} is not the balance carried, ${sh.balance}`);
  const after = balanceAfterTransfer(t.kind, t.amount, t.balanceBefore);
  if (after === null) stop('transfer_overdrawn', `a debit of ${t.amount} from a balance of ${t.balanceBefore}: a debit the balance does not cover is refused`);
  if (t.balanceAfter !== after)
    stop('balance_mismatch', `a ${t.kind} of ${t.amount} from ${t.balanceBefore} leaves ${after}, the transfer says ${t.balanceAfter}`);
  sh.balance = after!;
}

function checkParams(p: unknown, stop: StopFn): ShoeParams {
  const o = p as Record<string, unknown>;
  const members =
    o.mode === 'reshuffle'
      ? ['algorithm', 'decks', 'mode', 'roundLimit', 'voidAfterSeconds']
      : ['algorithm', 'burn', 'cutCardFromEnd', 'decks', 'mode', 'voidAfterSeconds'];
  const have = Object.keys(o).sort();
  if (have.join() !== members.join())
    stop('bad_params', `the params of mode ${JSON.stringify(o.mode)} are exactly ${members.join(', ')}; got ${have.join(', ')}`);
  if (o.mode === 'shoe' && typeof o.burn !== 'boolean') stop('bad_params', 'burn must be true or false');
  const v = validateParams(p as ShoeParams);
  if (!v.ok) stop('bad_params', v.error.message);
  return p as ShoeParams;
}

/** The seed of the shoe committed at `at`, when its reveal holds one that matches the commitment. */
function seedOf(records: readonly Signed[], at: number, serverSeedHash: string): string | null {
  for (let j = at + 1; j < records.length; j++) {
    const b = records[j]?.body as { type?: unknown; serverSeed?: unknown } | undefined;
    if (b?.type === 'commitment') return null;
    if (b?.type === 'reveal') return isHex32(b.serverSeed) && seedCommitment(b.serverSeed) === serverSeedHash ? b.serverSeed : null;
  }
  return null;
}

/** The round the rules deal: from the derivation with the seed, else from the receipt's own cards. */
function dealt(sh: ShoeCtx, claimed: Receipt, secret: string, accHash: string, stop: StopFn): { round: Round; cutCardOut: boolean } {
  const p = sh.params;
  if (sh.seed !== null) {
    const d = dealAcceptedRound(p, sh.state!, sh.seed, sh.start!.request.body.cut, secret, accHash);
    sh.state = d.state;
    return d;
  }
  return playListedCards(p, claimed.cards, sh, stop);
}

/**
 * A pending round (no seed yet): played from its listed cards, which must be card codes forming a
 * complete round at consecutive positions (the first after a burn that explains it), with no card
 * more often than the decks hold; `at` carries the next position and the copies seen (shoe mode).
 * Shared by pb-fair-2 receipts and pb-shared-1 deals.
 */
export function playListedCards(
  p: { mode: 'shoe'; decks: number; burn: boolean; cutCardFromEnd: number } | { mode: 'reshuffle'; decks: number },
  listed: readonly { code: string; position: number }[],
  at: { nextPosition: number | null; copies: Map<string, number> },
  stop: (code: 'card_mismatch', message: string) => never,
): { round: Round; cutCardOut: boolean } {
  const cards: Card[] = [];
  for (const [i, c] of listed.entries()) {
    if (!isCardCode(c.code)) stop('card_mismatch', `card ${i + 1} "${c.code}" is not a card code`);
    cards.push(parseCard(c.code)!);
  }
  if (cards.length < 4) stop('card_mismatch', 'a round deals at least 4 cards');
  const played = playRound(cards.concat([0, 0]), 0);
  let first: number;
  if (p.mode === 'reshuffle') first = 0;
  else if (at.nextPosition !== null) first = at.nextPosition;
  else {
    first = listed[0]!.position;
    if (p.burn ? first < 2 || first > 11 : first !== 0)
      stop('card_mismatch', `the first card of the shoe comes from position ${first}, which no burn explains`);
  }
  const round: Round = { ...played, positions: played.positions.map((x) => x + first) };
  const end = first + played.cardsUsed;
  const counts = p.mode === 'shoe' ? at.copies : new Map<string, number>();
  for (const c of listed.slice(0, played.cardsUsed)) {
    const n = (counts.get(c.code) ?? 0) + 1;
    counts.set(c.code, n);
    if (n > p.decks) stop('card_mismatch', `${c.code} is dealt ${n} times, but ${p.decks} deck(s) hold only ${p.decks}`);
  }
  at.nextPosition = end;
  const cutCardOut = p.mode === 'shoe' && end >= p.decks * CARDS_PER_DECK - p.cutCardFromEnd;
  return { round, cutCardOut };
}

function compareReceipt(sh: ShoeCtx, acc: Acceptance, claimed: Receipt, round: Round, cutCardOut: boolean): [VerifyCode, string] | null {
  const bets = acc.request.body.bets;
  const settled = settledFields(settle(bets, round.outcome, sh.rule), acc.balanceBefore);
  const expected = {
    cards: canonicalJson(receiptCards(round)),
    ...roundFacts(round),
    ...settled,
    payouts: canonicalJson(settled.payouts),
    cutCardOut,
  };
  const got: Record<string, unknown> = { ...claimed, cards: canonicalJson(claimed.cards), payouts: canonicalJson(claimed.payouts) };
  const order: [keyof typeof expected, VerifyCode][] = [
    ...DEALT_MEMBERS,
    ['payouts', 'payout_mismatch'],
    ['staked', 'stake_mismatch'],
    ['returned', 'payout_mismatch'],
    ['balanceBefore', 'balance_mismatch'],
    ['balanceAfter', 'balance_mismatch'],
    ['cutCardOut', 'cut_card_mismatch'],
  ];
  for (const [k, code] of order) {
    if (expected[k] !== got[k]) return [code, `round ${claimed.round}: ${k} should be ${String(expected[k])}, the receipt says ${String(got[k])}`];
  }
  return null;
}

function checkReveal(sh: ShoeCtx, r: Reveal, before: Signed, stop: StopFn): void {
  if (!isHex32(r.serverSeed)) stop('bad_server_seed', 'the revealed server seed must be 64 lowercase hex characters');
  if (seedCommitment(r.serverSeed) !== sh.commitment.body.serverSeedHash)
    stop('commitment_mismatch', 'the revealed seed does not hash to the committed serverSeedHash');
  if (r.rounds !== sh.accepted) stop('round_count_mismatch', `the reveal counts ${r.rounds} rounds, the shoe accepted ${sh.accepted}`);
  if (r.closingBalance !== sh.balance) stop('closing_balance_mismatch', `the reveal closes with ${r.closingBalance}, the balance carried is ${sh.balance}`);
  const reasons = ['cut-card', 'player', 'void-timeout', 'reshuffle-limit'];
  if (!reasons.includes(r.reason)) stop('reveal_reason_mismatch', `the reason must be one of ${reasons.join(', ')}`);
  if ((r.reason === 'player') !== (r.request !== undefined))
    stop('reveal_reason_mismatch', 'a reveal carries the player\'s end request exactly when its reason is "player"');
  const p = sh.params;
  const forced = revealDue(p, { cutCardOut: sh.cutCardOut, accepted: sh.accepted });
  if (forced !== null && r.reason !== forced) stop('reveal_reason_mismatch', `the shoe ended by ${forced}, the reveal says ${r.reason}`);
  if (forced === null && (r.reason === 'cut-card' || r.reason === 'reshuffle-limit'))
    stop('reveal_reason_mismatch', `the reveal says ${r.reason}, but the shoe did not reach it`);
  if (r.reason === 'void-timeout' && Date.parse(r.issuedAt) - Date.parse(before.body.issuedAt) < p.voidAfterSeconds * 1000) {
    stop('reveal_too_early', `a void-timeout reveal must wait ${p.voidAfterSeconds} s after the last record`);
  }
}

/** A player's signed request as a value for `verifyRequest` (re-exported for the copies module). */
export type { SignedRequest, Void };
