/**
 * The pb-shared-1 verifier (FAIRNESS.md §C8): one shared table's history, records in chain order,
 * judged one after the other in the documented order; the first failure stops the check. Every
 * beacon round is checked against the committed chain's key (BLS, offline). The cards of a shoe
 * are derived when its reveal, wherever it sits, holds the committed seed; otherwise they are
 * checked for consistency only and the rounds are pending.
 */
import { checkChain, firstRoundAfter, timeOfRound, verifyBeacon } from '../../beacon.ts';
import { CARDS_PER_DECK } from '../../cards.ts';
import { type Round, roundFacts } from '../../round.ts';
import { settle } from '../../settle.ts';
import { type TableLimits, validateBets } from '../../table.ts';
import { checkRecordedClientSeed } from '../common/seeds.ts';
import { canonicalJson } from '../common/encoding.ts';
import { isVerifyKeys, type Jwks, verifyBytes, type VerifyKeys } from '../common/keys.ts';
import { receiptCards } from '../common/receipt-fields.ts';
import { LOOSEST_LIMITS } from '../common/loosest-limits.ts';
import { isHex32, seedCommitment } from '../pb-fair-2/derive.ts';
import { parseStrictJson } from '../common/strict-json.ts';
import { validateCommittedLimits } from '../pb-fair-2/params.ts';
import { importPlayerKey } from '../pb-fair-2/records.ts';
import {
  checkPlacement,
  checkSignedRecord,
  DEALT_CODES,
  DEALT_MEMBERS,
  PLACEMENT_CODES,
  RECORD_CODES,
  type RecordRules,
  type VerifyFailureOf,
  type VerifyReportOf,
  VerifyStop,
} from '../pb-fair-2/record-checks.ts';
import { importKidVerifyKeys, playListedCards } from '../pb-fair-2/verify.ts';
import { combinedClientSeed, combinedCut, dealSharedRound, type SharedShoeState, startSharedShoe } from './derive.ts';
import { sharedRevealDue } from './operator.ts';
import { type SharedAlgorithm, type SharedParams, validateSharedParams } from './params.ts';
import {
  type SharedBetRequest,
  type SharedClose,
  type SharedCommitment,
  type SharedDeal,
  type SharedRecord,
  sharedRecordDigest,
  type SharedReveal,
  type SharedSettlement,
  type SharedStart,
  type SharedStartRequest,
  type SignedShared,
  type SignedSharedRequest,
  verifySharedRequest,
} from './records.ts';
import { SHARED_BODIES, sharedEnvelope, sharedFileShape } from './shape.ts';
import type { ShapeCheck } from '../common/shape-checks.ts';
import { noteChain, type SharedChainSummary } from './chains.ts';

export { publicBeaconFinding, type SharedChainSummary, UNKNOWN_BEACON_CHAIN } from './chains.ts';

/** A finding of a version's own check: its code and message. */
export type SharedFinding = [code: string, message: string];

/**
 * What a shared-table version gives the walk of §C8: its tags, shapes and params, where a close's
 * bet requests are, and its own checks at three fixed places of the order (pb-shared-2, FAIRNESS.md
 * part IV, adds the Merkle root's; pb-shared-1 has none). Every other rule is this file's, once.
 */
export interface SharedProtocol {
  version: 'pb-shared-1' | 'pb-shared-2';
  algorithm: SharedAlgorithm;
  rules: RecordRules;
  fileShape: ShapeCheck;
  /** The close's bet requests, in its order. */
  closeBets(close: SignedShared): readonly SignedSharedRequest<SharedBetRequest>[];
  /** A close, after its round checks and before its requests are checked. */
  beforeRequests?(close: SignedShared, bets: readonly SignedSharedRequest<SharedBetRequest>[]): SharedFinding | null;
  /** A close, after its bets are checked against the limits and before its beacon round. */
  afterRequests?(close: SignedShared, bets: readonly SignedSharedRequest<SharedBetRequest>[]): SharedFinding | null;
  /** A settlement, after the deal it names and before its payouts; `leaf` is its bettor's place in the close. */
  settlement?(settlement: SharedSettlement, leaf: number): SharedFinding | null;
  /** A start that commits to its requests beside it (pb-shared-2): where they are, its checks before and after them, the shoe's client seed. */
  start?: {
    requests(start: SignedShared): readonly SignedSharedRequest<SharedStartRequest>[];
    beforeRequests(start: SignedShared, requests: readonly SignedSharedRequest<SharedStartRequest>[]): SharedFinding | null;
    afterRequests(start: SignedShared, requests: readonly SignedSharedRequest<SharedStartRequest>[], decks: number): SharedFinding | null;
    clientSeed(start: SignedShared): string;
  };
}

/** pb-shared-1 (part III): the close lists its bet requests in its body. */
export const PB_SHARED_1: SharedProtocol = {
  version: 'pb-shared-1',
  algorithm: 'pb-shared-1',
  rules: { envelope: sharedEnvelope, digest: sharedRecordDigest, bodies: SHARED_BODIES },
  fileShape: sharedFileShape,
  closeBets: (close) => (close.body as SharedClose).bets,
};

/** Every pb-shared-1 failure code (FAIRNESS.md §C8 gives the check order). */
export const SHARED_VERIFY_CODES = [
  ...RECORD_CODES,
  'missing_settlement',
  'unsettled_close',
  ...PLACEMENT_CODES,
  'bad_beacon_chain',
  'no_players',
  'bad_player_key',
  'bad_player_signature',
  'request_mismatch',
  'player_order',
  'bad_client_seed',
  'bad_cut',
  'round_mismatch',
  'round_after_cut_card',
  'round_over_limit',
  'no_bets',
  'bets_invalid',
  'beacon_round_too_early',
  'beacon_round_mismatch',
  'bad_beacon_signature',
  'bad_beacon_randomness',
  'deal_before_beacon',
  ...DEALT_CODES,
  'cut_card_mismatch',
  'duplicate_settlement',
  'unknown_settlement',
  'settlement_mismatch',
  'payout_mismatch',
  'stake_mismatch',
  'balance_mismatch',
  'void_too_early',
  'bad_server_seed',
  'commitment_mismatch',
  'round_count_mismatch',
  'reveal_reason_mismatch',
] as const;
export type SharedVerifyCode = (typeof SHARED_VERIFY_CODES)[number];

export interface SharedRoundStatus {
  shoe: number;
  round: number;
  status: 'verified' | 'pending' | 'voided' | 'unsettled' | 'failed';
  /** Players with a bet in the round. */
  players: number;
  /** Index of the close in `records`, and its hash. */
  index: number;
  close: string;
  code?: SharedVerifyCode;
}

export type SharedVerifyFailure = VerifyFailureOf<SharedVerifyCode>;

export interface SharedVerifyReport extends VerifyReportOf<SharedVerifyCode> {
  version: 'pb-shared-1' | 'pb-shared-2';
  rounds: SharedRoundStatus[];
  /**
   * Every beacon chain committed by a shoe the check reached, each once. An unknown chain
   * (`known: false`) does not fail the check — the local development beacon verifies as any chain
   * does — but whoever holds its key could know every round before the close: a verifier shows it
   * as a warning, and `publicBeaconFinding` turns it into a failure where a public chain is required.
   */
  chains: SharedChainSummary[];
}

class Stop extends VerifyStop<SharedVerifyCode> {}
type StopFn = (code: SharedVerifyCode, message: string) => never;
/** A version's own finding, if any, reported as the walk reports its own. */
const found = (f: SharedFinding | null | undefined, stop: StopFn): void => void (f && stop(f[0] as SharedVerifyCode, f[1]));

interface ShoeCtx {
  commitment: SignedShared<SharedCommitment>;
  params: SharedParams;
  limits: TableLimits;
  seed: string | null;
  cut: number;
  state: SharedShoeState | null;
  /** Without the seed: where the next card must come from, and copies seen. */
  nextPosition: number | null;
  copies: Map<string, number>;
  closed: number;
  cutCardOut: boolean;
  close: SignedShared | null;
  /** The current close's bet requests, in its order. */
  bets: readonly SignedSharedRequest<SharedBetRequest>[];
  deal: SignedShared<SharedDeal> | null;
  /** Settlements of the current deal so far. */
  settled: number;
}

/** Verifies the text of a pb-shared-1 file (integers and duplicate members are judged on the text). */
export async function verifySharedText(text: string, jwks: Jwks | VerifyKeys, protocol: SharedProtocol = PB_SHARED_1): Promise<SharedVerifyReport> {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return report(protocol, [], [], false, { index: null, shoe: null, round: null, code: 'bad_json', message: parsed.message });
  return verifySharedFile(parsed.value, jwks, protocol);
}

/** Either form: the file's text (the conformant entry point) or an already parsed file. */
export function verifySharedTranscript(transcript: string | object, jwks: Jwks | VerifyKeys): Promise<SharedVerifyReport> {
  return typeof transcript === 'string' ? verifySharedText(transcript, jwks) : verifySharedFile(transcript, jwks);
}

function report(
  protocol: SharedProtocol,
  rounds: SharedRoundStatus[],
  chains: SharedChainSummary[],
  pending: boolean,
  failure?: SharedVerifyFailure,
): SharedVerifyReport {
  const r: SharedVerifyReport = { version: protocol.version, ok: !failure, pending, code: failure?.code ?? 'ok', rounds, chains };
  if (failure) r.failure = failure;
  return r;
}

/** Verifies a parsed pb-shared-1 file `{ version, records, jwks? }` (or, with its protocol, a pb-shared-2 file). */
export async function verifySharedFile(file: unknown, jwks: Jwks | VerifyKeys, protocol: SharedProtocol = PB_SHARED_1): Promise<SharedVerifyReport> {
  const keys = isVerifyKeys(jwks) ? jwks : await importKidVerifyKeys(jwks);
  const rounds: SharedRoundStatus[] = [];
  const chains: SharedChainSummary[] = [];
  const shape = protocol.fileShape(file, 'file');
  if (shape) return report(protocol, rounds, chains, false, { index: null, shoe: null, round: null, code: 'bad_record', message: shape });
  const records = (file as { records: SignedShared[] }).records;
  let shoe: ShoeCtx | null = null;
  let index = 0;
  const stop: StopFn = (code, message) => {
    const b = records[index]?.body as { shoe?: unknown; round?: unknown } | undefined;
    const round = typeof b?.round === 'number' ? b.round : null;
    throw new Stop({ index, shoe: typeof b?.shoe === 'number' ? b.shoe : null, round, code, message });
  };
  const status = (s: SharedRoundStatus['status'], code?: SharedVerifyCode) => {
    const c = shoe!.close!;
    const at = rounds.findIndex((r) => r.close === c.hash);
    const entry: SharedRoundStatus = {
      shoe: c.body.shoe,
      round: (c.body as SharedClose).round,
      status: s,
      players: shoe!.bets.length,
      index: records.indexOf(c),
      close: c.hash,
      ...(code ? { code } : {}),
    };
    if (at >= 0) rounds[at] = entry;
    else rounds.push(entry);
  };
  try {
    for (index = 0; index < records.length; index++) {
      const signed = records[index]!;
      const path = `records[${index}]`;
      await checkSignedRecord(signed, path, protocol.rules, keys, verifyBytes, stop);
      const body = signed.body;
      const before = index === 0 ? null : records[index - 1]!;
      sequence(body, before?.body ?? null, shoe, stop);
      checkPlacement(body, before, path, records[0]!.body.table, shoe?.commitment.body.shoe ?? null, stop);

      switch (body.type) {
        case 'commitment':
          shoe = checkCommitment(protocol, signed as SignedShared<SharedCommitment>, records, index, stop);
          noteChain(chains, body);
          break;
        case 'start':
          await checkStart(protocol, shoe!, signed, stop);
          break;
        case 'close':
          await checkClose(protocol, shoe!, signed, stop);
          status('unsettled');
          break;
        case 'deal': {
          const sh = shoe!;
          const finding = checkDeal(sh, signed as SignedShared<SharedDeal>, stop);
          if (finding) {
            status('failed', finding[0]);
            stop(finding[0], finding[1]);
          }
          break;
        }
        case 'settlement': {
          const sh = shoe!;
          const finding = checkSettlement(protocol, sh, body, stop);
          if (finding) {
            status('failed', finding[0]);
            stop(finding[0], finding[1]);
          }
          if (sh.settled === sh.bets.length) status(sh.seed === null ? 'pending' : 'verified');
          break;
        }
        case 'void': {
          const sh = shoe!;
          const c = sh.close!.body as SharedClose;
          if (body.round !== c.round) stop('round_mismatch', `the void says round ${body.round}, its close round ${c.round}`);
          const due = timeOfRound(sh.commitment.body.beacon, c.beaconRound) + sh.params.beaconDeadlineSeconds * 1000;
          if (Date.parse(body.issuedAt) < due)
            stop(
              'void_too_early',
              `round ${c.round} was voided before beacon round ${c.beaconRound} was ${sh.params.beaconDeadlineSeconds} s late (${new Date(due).toISOString()})`,
            );
          status('voided');
          sh.close = null;
          break;
        }
        case 'reveal':
          checkReveal(shoe!, body, stop);
          break;
      }
    }
    if (records.length === 0) stop('bad_record', 'the file holds no record');
    index = records.length - 1;
    const last = records[index]!.body;
    if (last.type === 'close')
      stop('unsettled_close', `round ${last.round} of shoe ${last.shoe} was closed and is neither dealt nor voided: the operator owes it`);
    if (last.type === 'deal' || (last.type === 'settlement' && shoe!.settled < shoe!.bets.length)) {
      const c = shoe!.close!.body as SharedClose;
      stop('missing_settlement', `round ${c.round} of shoe ${c.shoe} was dealt, but ${shoe!.bets.length - shoe!.settled} player(s) have no settlement`);
    }
    return report(protocol, rounds, chains, last.type !== 'reveal');
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    const at = e.failure.index === null ? undefined : records[e.failure.index]?.body?.type;
    if (shoe?.close && (at === 'deal' || at === 'settlement')) status('failed', e.failure.code);
    return report(protocol, rounds, chains, records.at(-1)?.body?.type !== 'reveal', e.failure);
  }
}

/** The record types that may follow each type (§C7); a settlement run must be complete before anything else. */
function sequence(body: SharedRecord, before: SharedRecord | null, sh: ShoeCtx | null, stop: StopFn): void {
  const type = body.type;
  if (before === null) {
    if (type !== 'commitment') stop('out_of_sequence', 'a file starts with a commitment');
    return;
  }
  const b = before.type;
  if (b === 'close' && type !== 'deal' && type !== 'void') {
    if (type === 'reveal' || type === 'close')
      stop('unsettled_close', `round ${before.round} was closed and is neither dealt nor voided: the operator owes it`);
    stop('out_of_sequence', `a ${type} record cannot follow a close`);
  }
  if (b === 'deal' || b === 'settlement') {
    const c = sh!.close!.body as SharedClose;
    const remaining = sh!.bets.length - sh!.settled;
    if (remaining > 0 && type !== 'settlement')
      stop('missing_settlement', `round ${c.round}: ${remaining} player(s) have no settlement before the ${type} record`);
    if (remaining === 0 && type === 'settlement') {
      const p = body.player;
      stop(
        sh!.bets.some((r) => r.body.player === p) ? 'duplicate_settlement' : 'unknown_settlement',
        `round ${c.round}: every player is settled; another settlement for ${p}`,
      );
    }
    if (type === 'settlement') return;
  }
  const allowed: Record<string, string[]> = {
    commitment: ['start', 'reveal'],
    start: ['close', 'reveal'],
    close: ['deal', 'void'],
    deal: ['settlement'],
    settlement: ['close', 'reveal'],
    void: ['close', 'reveal'],
    reveal: ['commitment'],
  };
  if (!allowed[b]!.includes(type)) stop('out_of_sequence', `a ${type} record cannot follow a ${b} record`);
}

function checkCommitment(
  protocol: SharedProtocol,
  signed: SignedShared<SharedCommitment>,
  records: readonly SignedShared[],
  index: number,
  stop: StopFn,
): ShoeCtx {
  const body = signed.body;
  const params = validateSharedParams(body.params, protocol.algorithm);
  if (!params.ok) stop('bad_params', params.error.message);
  let limits: TableLimits = LOOSEST_LIMITS;
  if (body.limits !== undefined) {
    const l = validateCommittedLimits(body.limits);
    if (!l.ok) stop('bad_params', `the committed limits: ${l.error.message}`);
    limits = body.limits;
  }
  const chain = checkChain(body.beacon);
  if (!chain.ok) stop('bad_beacon_chain', chain.error.message);
  return {
    commitment: signed,
    params: body.params,
    limits,
    seed: seedOf(records, index, body.serverSeedHash),
    cut: 0,
    state: null,
    nextPosition: null,
    copies: new Map(),
    closed: 0,
    cutCardOut: false,
    close: null,
    bets: [],
    deal: null,
    settled: 0,
  };
}

/** The request's player key and signature. */
async function checkRequest(r: SignedSharedRequest, what: string, stop: StopFn): Promise<void> {
  if ((await importPlayerKey(r.body.player)) === null)
    stop('bad_player_key', `${what}: player ${JSON.stringify(r.body.player)} is not an Ed25519 public key (32 bytes, canonical base64url)`);
  if (!(await verifySharedRequest(r))) stop('bad_player_signature', `${what}: the signature does not verify with the key of player ${r.body.player}`);
}

function checkOrder(requests: readonly SignedSharedRequest[], what: string, stop: StopFn): void {
  for (let i = 1; i < requests.length; i++) {
    if (!(requests[i - 1]!.body.player < requests[i]!.body.player))
      stop(
        'player_order',
        `${what}: the requests must be strictly ascending by player (a player once): ${requests[i]!.body.player} follows ${requests[i - 1]!.body.player}`,
      );
  }
}

async function checkStart(protocol: SharedProtocol, sh: ShoeCtx, signed: SignedShared, stop: StopFn): Promise<void> {
  const body = signed.body as SharedStart;
  const list = protocol.start?.requests(signed) ?? body.requests;
  found(protocol.start?.beforeRequests(signed, list), stop);
  if (list.length === 0) stop('no_players', 'a start names at least one seated player');
  const size = sh.params.decks * CARDS_PER_DECK;
  for (const [i, req] of list.entries()) {
    const r = req.body;
    const what = `start request ${i + 1}`;
    await checkRequest(req, what, stop);
    if (r.table !== body.table || r.shoe !== body.shoe || r.commitment !== sh.commitment.hash)
      stop('request_mismatch', `${what} names another table, shoe or commitment`);
    const seed = checkRecordedClientSeed(r.clientSeed);
    if (!seed.ok) stop('bad_client_seed', `${what}: ${seed.error.message}`);
    if (r.cut < 1 || r.cut > size - 1) stop('bad_cut', `${what}: the cut ${r.cut} is outside 1–${size - 1}`);
  }
  checkOrder(list, 'the start', stop);
  found(protocol.start?.afterRequests(signed, list, sh.params.decks), stop);
  const requests = list.map((r) => r.body);
  sh.cut = combinedCut(
    sh.params.decks,
    requests.map((r) => r.cut),
  );
  if (sh.seed !== null) sh.state = startSharedShoe(sh.params, sh.seed, protocol.start?.clientSeed(signed) ?? combinedClientSeed(requests), sh.cut);
}

async function checkClose(protocol: SharedProtocol, sh: ShoeCtx, signed: SignedShared, stop: StopFn): Promise<void> {
  const body = signed.body as SharedClose;
  const bets = protocol.closeBets(signed);
  if (body.round !== sh.closed + 1) stop('round_mismatch', `the close says round ${body.round}; it is round ${sh.closed + 1} of the shoe`);
  if (sh.cutCardOut) stop('round_after_cut_card', `round ${body.round} was closed after the cut card came out`);
  if (sh.params.mode === 'reshuffle' && body.round > sh.params.roundLimit)
    stop('round_over_limit', `round ${body.round} is beyond the committed roundLimit ${sh.params.roundLimit}`);
  found(protocol.beforeRequests?.(signed, bets), stop);
  if (bets.length === 0) stop('no_bets', `round ${body.round} was closed with no bet: a round is dealt only for bets`);
  for (const [i, req] of bets.entries()) {
    const r = req.body;
    const what = `round ${body.round}, bet request ${i + 1}`;
    await checkRequest(req, what, stop);
    if (r.table !== body.table || r.shoe !== body.shoe || r.round !== body.round)
      stop('request_mismatch', `${what} (player ${r.player}) is for another table, shoe or round`);
  }
  checkOrder(bets, `round ${body.round}`, stop);
  for (const req of bets) {
    const v = validateBets(req.body.bets, sh.limits);
    if (!v.ok) stop('bets_invalid', `round ${body.round}, player ${req.body.player}: ${v.error.message} (${v.error.code})`);
  }
  found(protocol.afterRequests?.(signed, bets), stop);
  const due = firstRoundAfter(sh.commitment.body.beacon, Date.parse(body.issuedAt));
  if (body.beaconRound < due)
    stop(
      'beacon_round_too_early',
      `round ${body.round} closed at ${body.issuedAt} names beacon round ${body.beaconRound}, published before the close; the first round after it is ${due}`,
    );
  if (body.beaconRound !== due)
    stop(
      'beacon_round_mismatch',
      `round ${body.round} closed at ${body.issuedAt} must name beacon round ${due}, the first published after the close, not ${body.beaconRound}`,
    );
  sh.closed++;
  sh.close = signed;
  sh.bets = bets;
  sh.deal = null;
  sh.settled = 0;
}

function checkDeal(sh: ShoeCtx, signed: SignedShared<SharedDeal>, stop: StopFn): [SharedVerifyCode, string] | null {
  const body = signed.body;
  const close = sh.close! as SignedShared<SharedClose>;
  const chain = sh.commitment.body.beacon;
  if (body.round !== close.body.round) stop('round_mismatch', `the deal says round ${body.round}, its close round ${close.body.round}`);
  if (body.beacon.round !== close.body.beaconRound)
    stop('beacon_round_mismatch', `round ${body.round} is bound to beacon round ${close.body.beaconRound}; the deal uses ${body.beacon.round}`);
  const beacon = verifyBeacon(chain, body.beacon);
  if (!beacon.ok)
    stop(beacon.error.code === 'bad_beacon_randomness' ? 'bad_beacon_randomness' : 'bad_beacon_signature', `round ${body.round}: ${beacon.error.message}`);
  if (Date.parse(body.issuedAt) < timeOfRound(chain, body.beacon.round))
    stop(
      'deal_before_beacon',
      `round ${body.round} was dealt at ${body.issuedAt}, before its beacon round was published (${new Date(timeOfRound(chain, body.beacon.round)).toISOString()})`,
    );
  const dealt = deal(sh, body, close.hash, stop);
  sh.deal = signed;
  const expected = {
    cards: canonicalJson(receiptCards(dealt.round)),
    ...roundFacts(dealt.round),
    cutCardOut: dealt.cutCardOut,
  };
  const got: Record<string, unknown> = { ...body, cards: canonicalJson(body.cards) };
  const order: [keyof typeof expected, SharedVerifyCode][] = [...DEALT_MEMBERS, ['cutCardOut', 'cut_card_mismatch']];
  for (const [k, code] of order) {
    if (expected[k] !== got[k]) return [code, `round ${body.round}: ${k} should be ${String(expected[k])}, the deal says ${String(got[k])}`];
  }
  sh.cutCardOut = body.cutCardOut;
  return null;
}

function checkSettlement(protocol: SharedProtocol, sh: ShoeCtx, body: SharedSettlement, stop: StopFn): [SharedVerifyCode, string] | null {
  const close = sh.close!.body as SharedClose;
  const deal = sh.deal!;
  const expected = sh.bets[sh.settled]!;
  if (body.player !== expected.body.player) {
    const at = sh.bets.findIndex((r) => r.body.player === body.player);
    if (at < 0) stop('unknown_settlement', `round ${close.round}: a settlement for ${body.player}, who has no bet in the close`);
    if (at < sh.settled) stop('duplicate_settlement', `round ${close.round}: a second settlement for ${body.player}`);
    stop('missing_settlement', `round ${close.round}: no settlement for ${expected.body.player} (the settlements follow the close's order)`);
  }
  if (body.round !== close.round) stop('round_mismatch', `the settlement says round ${body.round}, its close round ${close.round}`);
  if (body.deal !== deal.hash) stop('settlement_mismatch', `round ${close.round}: the settlement of ${body.player} names deal ${body.deal}, not ${deal.hash}`);
  found(protocol.settlement?.(body, sh.settled), stop);
  sh.settled++;
  const s = settle(expected.body.bets, deal.body.outcome);
  const payouts = canonicalJson(s.bets.map((b) => ({ sector: b.sector, box: b.box, amount: b.amount, result: b.result, returned: b.returned, net: b.net })));
  const who = `round ${close.round}, player ${body.player}`;
  if (canonicalJson(body.payouts) !== payouts)
    return ['payout_mismatch', `${who}: the payouts do not follow from the signed bets and the outcome ${deal.body.outcome}`];
  if (body.staked !== s.staked) return ['stake_mismatch', `${who}: staked should be ${s.staked}, the settlement says ${body.staked}`];
  if (body.returned !== s.returned) return ['payout_mismatch', `${who}: returned should be ${s.returned}, the settlement says ${body.returned}`];
  const covered = validateBets(expected.body.bets, sh.limits, body.balanceBefore);
  if (!covered.ok) return ['bets_invalid', `${who}: ${covered.error.message} (${covered.error.code})`];
  if (body.balanceAfter !== body.balanceBefore - s.staked + s.returned)
    return ['balance_mismatch', `${who}: balanceAfter should be ${body.balanceBefore - s.staked + s.returned}, the settlement says ${body.balanceAfter}`];
  return null;
}

function checkReveal(sh: ShoeCtx, r: SharedReveal, stop: StopFn): void {
  if (!isHex32(r.serverSeed)) stop('bad_server_seed', 'the revealed server seed must be 64 lowercase hex characters');
  if (seedCommitment(r.serverSeed) !== sh.commitment.body.serverSeedHash)
    stop('commitment_mismatch', 'the revealed seed does not hash to the committed serverSeedHash');
  if (r.rounds !== sh.closed) stop('round_count_mismatch', `the reveal counts ${r.rounds} rounds, the shoe closed ${sh.closed}`);
  const reasons = ['cut-card', 'reshuffle-limit', 'closed'];
  if (!reasons.includes(r.reason)) stop('reveal_reason_mismatch', `the reason must be one of ${reasons.join(', ')}`);
  const forced = sharedRevealDue(sh.params, { cutCardOut: sh.cutCardOut, closed: sh.closed });
  if (forced !== null && r.reason !== forced) stop('reveal_reason_mismatch', `the shoe ended by ${forced}, the reveal says ${r.reason}`);
  if (forced === null && r.reason !== 'closed') stop('reveal_reason_mismatch', `the reveal says ${r.reason}, but the shoe did not reach it`);
}

/** The seed of the shoe committed at `at`, when its reveal holds one that matches the commitment. */
function seedOf(records: readonly SignedShared[], at: number, serverSeedHash: string): string | null {
  for (let j = at + 1; j < records.length; j++) {
    const b = records[j]?.body as { type?: unknown; serverSeed?: unknown } | undefined;
    if (b?.type === 'commitment') return null;
    if (b?.type === 'reveal') return isHex32(b.serverSeed) && seedCommitment(b.serverSeed) === serverSeedHash ? b.serverSeed : null;
  }
  return null;
}

/** The round the rules deal: derived with the seed, else played from the deal's own cards (pending). */
function deal(sh: ShoeCtx, claimed: SharedDeal, closeHash: string, stop: StopFn): { round: Round; cutCardOut: boolean } {
  const p = sh.params;
  if (sh.seed !== null) {
    const d = dealSharedRound(p, sh.state!, sh.seed, sh.cut, claimed.beacon.randomness, closeHash);
    sh.state = d.state;
    return d;
  }
  return playListedCards(p, claimed.cards, sh, stop);
}
