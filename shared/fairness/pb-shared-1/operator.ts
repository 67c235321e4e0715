/**
 * pb-shared-1 record builders, one per step of a shared table's round loop (FAIRNESS.md §C2):
 * what the Worker calls. Pure; the caller signs (signSharedRecord) and stores. The beacon's
 * signature is checked here before a deal is built, so the operator never signs a bad one.
 */
import { type BeaconChain, type BeaconRound, firstRoundAfter, timeOfRound, verifyBeacon } from '../../beacon.ts';
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import { settle } from '../../settle.ts';
import { type TableLimits, validateBets } from '../../table.ts';
import type { SigningKey } from '../common/keys.ts';
import { receiptCards, settledFields } from '../common/receipt-fields.ts';
import { roundFacts } from '../../round.ts';
import { LOOSEST_LIMITS } from '../common/loosest-limits.ts';
import { checkRecordedClientSeed } from '../common/seeds.ts';
import { seedCommitment } from '../pb-fair-2/derive.ts';
import { commitmentHead } from '../pb-fair-2/operator.ts';
import { SHAPE_CHECKS } from '../pb-fair-2/shape.ts';
import { combinedClientSeed, combinedCut, dealSharedRound, type SharedShoeState } from './derive.ts';
import type { SharedParams } from './params.ts';
import {
  type SharedBetRequest,
  type SharedClose,
  type SharedCommitment,
  type SharedDeal,
  type SharedRevealReason,
  type SharedReveal,
  type SharedSettlement,
  type SharedStart,
  type SharedStartRequest,
  type SharedVoid,
  type SignedShared,
  type SignedSharedRequest,
  signSharedRecord,
  verifySharedRequest,
} from './records.ts';
import { byPlayer } from './requests.ts';
import { SHARED_REQUESTS } from './shape.ts';

export interface SharedCommitArgs {
  table: string;
  shoe: number;
  keyId: string;
  params: SharedParams;
  limits?: TableLimits;
  beacon: BeaconChain;
  serverSeed: string;
  /** The previous shoe's reveal hash; null for shoe 1. */
  prev: string | null;
  issuedAt: string;
}

export function buildSharedCommitment(a: SharedCommitArgs): SharedCommitment {
  const { hash, scheme, publicKey, periodSeconds, genesisTime } = a.beacon;
  return {
    ...commitmentHead(a),
    beacon: { hash, scheme, publicKey, periodSeconds, genesisTime },
    serverSeedHash: seedCommitment(a.serverSeed),
    prev: a.prev,
    issuedAt: a.issuedAt,
  };
}

export type SharedRequestErrorCode = 'bad_request' | 'bad_player_signature' | 'request_mismatch' | 'bets_invalid';

/** Shape and signature of a signed request of `kind` as it arrives from the network. */
export async function validateSharedRequest<K extends 'start' | 'bet'>(
  value: unknown,
  kind: K,
): Promise<Result<SignedSharedRequest<Extract<SharedStartRequest | SharedBetRequest, { type: K }>>, EngineError<SharedRequestErrorCode>>> {
  const shape = SHAPE_CHECKS.obj({ body: SHARED_REQUESTS[kind], signature: (v, p) => (typeof v === 'string' ? null : `${p} must be a string`) })(
    value,
    'request',
  );
  if (shape) return fail('bad_request', shape);
  const signed = value as SignedSharedRequest<Extract<SharedStartRequest | SharedBetRequest, { type: K }>>;
  if (!(await verifySharedRequest(signed))) return fail('bad_player_signature', `the ${kind} request is not signed by the key it names`);
  return ok(signed);
}

/**
 * A bet request for round `round` of table/shoe: its shape, the signature of the player it names,
 * that it is for this round, and its bets against the committed limits and the player's balance.
 */
export async function validateSharedBet(
  value: unknown,
  at: { table: string; shoe: number; round: number; limits?: TableLimits; balance: number; player?: string },
): Promise<Result<SignedSharedRequest<SharedBetRequest>, EngineError<SharedRequestErrorCode>>> {
  const signed = await validateSharedRequest(value, 'bet');
  if (!signed.ok) return signed;
  const r = signed.value.body;
  if (r.table !== at.table || r.shoe !== at.shoe || r.round !== at.round)
    return fail('request_mismatch', `the bet request is for table ${JSON.stringify(r.table)} shoe ${r.shoe} round ${r.round}, not this round`);
  if (at.player !== undefined && r.player !== at.player) return fail('request_mismatch', "the bet request is signed by another player than the session's");
  const bets = validateBets(r.bets, at.limits ?? LOOSEST_LIMITS, at.balance);
  if (!bets.ok) return fail('bets_invalid', bets.error.message);
  return signed;
}

export type StartErrorCode = 'no_players' | 'duplicate_player' | 'request_mismatch' | 'bad_cut' | 'bad_client_seed';
export type StartRequestErrorCode = 'request_mismatch' | 'bad_client_seed' | 'bad_cut';

/**
 * One start request against the commitment it answers, by the rules the verifier applies to the
 * start (FAIRNESS.md §C6): the table, shoe and commitment it names, its client seed
 * (`checkRecordedClientSeed`: 1–128 code points, NFC, no control character, nothing unassigned)
 * and its cut (1 … N − 1). The table calls it on every start request before storing it, and
 * `buildSharedStart` on every request it signs into a start.
 */
export function checkSharedStartRequest(
  commitment: SignedShared<SharedCommitment>,
  r: SharedStartRequest,
): Result<SharedStartRequest, EngineError<StartRequestErrorCode>> {
  const c = commitment.body;
  if (r.table !== c.table || r.shoe !== c.shoe || r.commitment !== commitment.hash)
    return fail('request_mismatch', `the start request must answer the commitment of shoe ${c.shoe} of table ${c.table}`);
  const seed = checkRecordedClientSeed(r.clientSeed);
  if (!seed.ok) return seed;
  const n = c.params.decks * 52;
  if (!Number.isSafeInteger(r.cut) || r.cut < 1 || r.cut > n - 1) return fail('bad_cut', `the cut must be a whole number from 1 to ${n - 1}, got ${r.cut}`);
  return ok(r);
}

/** The start: every seated player's signed start request (signatures already checked), sorted by player. */
export function buildSharedStart(
  commitment: SignedShared<SharedCommitment>,
  requests: readonly SignedSharedRequest<SharedStartRequest>[],
  keyId: string,
  issuedAt: string,
): Result<SharedStart, EngineError<StartErrorCode>> {
  const c = commitment.body;
  if (requests.length === 0) return fail('no_players', 'a shoe starts with at least one seated player');
  const sorted = [...requests].sort(byPlayer);
  for (const [i, r] of sorted.entries()) {
    if (i > 0 && r.body.player === sorted[i - 1]!.body.player) return fail('duplicate_player', `player ${r.body.player} sent two start requests`);
    const checked = checkSharedStartRequest(commitment, r.body);
    if (!checked.ok) return fail(checked.error.code, `player ${r.body.player}: ${checked.error.message}`);
  }
  return ok({ type: 'start', table: c.table, shoe: c.shoe, keyId, requests: sorted, prev: commitment.hash, issuedAt });
}

/** The shoe's client seed and cut from its start (what startSharedShoe takes). */
export function sharedStartInputs(start: SharedStart, decks: number): { clientSeed: string; cut: number } {
  const requests = start.requests.map((r) => r.body);
  return {
    clientSeed: combinedClientSeed(requests),
    cut: combinedCut(
      decks,
      requests.map((r) => r.cut),
    ),
  };
}

export type CloseErrorCode = 'no_bets' | 'duplicate_player' | 'request_mismatch';

/**
 * Closes a round's betting: every accepted (validated) bet request, one per player, sorted by
 * player; the beacon round is the first published strictly after the close time `issuedAt`.
 */
export function buildClose(a: {
  last: { body: { table: string; shoe: number }; hash: string };
  round: number;
  bets: readonly SignedSharedRequest<SharedBetRequest>[];
  beacon: BeaconChain;
  keyId: string;
  issuedAt: string;
}): Result<SharedClose, EngineError<CloseErrorCode>> {
  if (a.bets.length === 0) return fail('no_bets', 'a round with no bets is not closed: the table waits');
  const sorted = [...a.bets].sort(byPlayer);
  const { table, shoe } = a.last.body;
  for (const [i, r] of sorted.entries()) {
    if (i > 0 && r.body.player === sorted[i - 1]!.body.player)
      return fail('duplicate_player', `two bet requests of player ${r.body.player}: keep the last one`);
    if (r.body.table !== table || r.body.shoe !== shoe || r.body.round !== a.round)
      return fail('request_mismatch', `player ${r.body.player}'s bet request is for another round`);
  }
  return ok({
    type: 'close',
    table,
    shoe,
    keyId: a.keyId,
    round: a.round,
    bets: sorted,
    beaconRound: firstRoundAfter(a.beacon, Date.parse(a.issuedAt)),
    prev: a.last.hash,
    issuedAt: a.issuedAt,
  });
}

/** What a deal or a void needs of the close it follows: its round, beacon round and hash (a pb-shared-1 or a pb-shared-2 close). */
export interface ClosedRound {
  body: Pick<SharedClose, 'table' | 'shoe' | 'round' | 'beaconRound'>;
  hash: string;
}

export type DealErrorCode = 'beacon_round_mismatch' | 'bad_beacon_signature' | 'bad_beacon_randomness';

/** Deals a closed round once its beacon round is out: the beacon is verified first. Needs the server seed. */
export function buildSharedDeal(a: {
  params: SharedParams;
  state: SharedShoeState;
  serverSeed: string;
  cut: number;
  chain: BeaconChain;
  close: ClosedRound;
  beacon: { round: number; signature: string; randomness?: string };
  keyId: string;
  issuedAt: string;
}): Result<{ body: SharedDeal; state: SharedShoeState }, EngineError<DealErrorCode>> {
  const c = a.close.body;
  if (a.beacon.round !== c.beaconRound)
    return fail('beacon_round_mismatch', `round ${c.round} is bound to beacon round ${c.beaconRound}, not ${a.beacon.round}`);
  const checked = verifyBeacon(a.chain, a.beacon);
  if (!checked.ok) return fail(checked.error.code === 'bad_beacon_randomness' ? 'bad_beacon_randomness' : 'bad_beacon_signature', checked.error.message);
  const beacon: BeaconRound = checked.value;
  const dealt = dealSharedRound(a.params, a.state, a.serverSeed, a.cut, beacon.randomness, a.close.hash);
  const r = dealt.round;
  return ok({
    body: {
      type: 'deal',
      table: c.table,
      shoe: c.shoe,
      keyId: a.keyId,
      round: c.round,
      beacon: { round: beacon.round, randomness: beacon.randomness, signature: beacon.signature },
      cards: receiptCards(r),
      ...roundFacts(r),
      cutCardOut: dealt.cutCardOut,
      prev: a.close.hash,
      issuedAt: a.issuedAt,
    },
    state: dealt.state,
  });
}

/** One player's settlement of a dealt round: its bets (from its signed request in the close) against the outcome. */
export function buildSharedSettlement(a: {
  deal: SignedShared<SharedDeal>;
  last: { hash: string };
  request: SignedSharedRequest<SharedBetRequest>;
  balanceBefore: number;
  keyId: string;
  issuedAt: string;
}): SharedSettlement {
  const d = a.deal.body;
  const s = settle(a.request.body.bets, d.outcome);
  return {
    type: 'settlement',
    table: d.table,
    shoe: d.shoe,
    keyId: a.keyId,
    round: d.round,
    player: a.request.body.player,
    deal: a.deal.hash,
    ...settledFields(s, a.balanceBefore),
    prev: a.last.hash,
    issuedAt: a.issuedAt,
  };
}

/**
 * Every settlement of a dealt round, in the close's player order, each chained to the one before
 * (the first to the deal), signed with `key`. `balances` maps each bettor to its balance before the stake.
 */
export async function signSharedSettlements(a: {
  deal: SignedShared<SharedDeal>;
  close: SignedShared<SharedClose>;
  balances: ReadonlyMap<string, number>;
  key: SigningKey;
  issuedAt: string;
}): Promise<SignedShared<SharedSettlement>[]> {
  const out: SignedShared<SharedSettlement>[] = [];
  let last: SignedShared = a.deal;
  for (const request of a.close.body.bets) {
    const balanceBefore = a.balances.get(request.body.player);
    if (balanceBefore === undefined) throw new RangeError(`no balance for player ${request.body.player}`);
    const signed = await signSharedRecord(
      buildSharedSettlement({ deal: a.deal, last, request, balanceBefore, keyId: a.key.keyId, issuedAt: a.issuedAt }),
      a.key,
    );
    out.push(signed);
    last = signed;
  }
  return out;
}

/** The earliest time (Unix ms) a closed round may be voided: its beacon round's due time + the committed deadline. */
export function voidNotBefore(chain: BeaconChain, params: SharedParams, beaconRound: number): number {
  return timeOfRound(chain, beaconRound) + params.beaconDeadlineSeconds * 1000;
}

/** Voids a closed round whose beacon is late past the deadline: every stake is returned. */
export function buildSharedVoid(a: {
  close: ClosedRound;
  chain: BeaconChain;
  params: SharedParams;
  keyId: string;
  issuedAt: string;
}): Result<SharedVoid, EngineError<'void_too_early'>> {
  const c = a.close.body;
  if (Date.parse(a.issuedAt) < voidNotBefore(a.chain, a.params, c.beaconRound))
    return fail('void_too_early', `beacon round ${c.beaconRound} is not yet ${a.params.beaconDeadlineSeconds} s late`);
  return ok({ type: 'void', table: c.table, shoe: c.shoe, keyId: a.keyId, round: c.round, prev: a.close.hash, issuedAt: a.issuedAt });
}

/** The reveal the rules force after a round, if any. */
export function sharedRevealDue(params: SharedParams, shoe: { cutCardOut: boolean; closed: number }): 'cut-card' | 'reshuffle-limit' | null {
  if (params.mode === 'shoe') return shoe.cutCardOut ? 'cut-card' : null;
  return shoe.closed >= params.roundLimit ? 'reshuffle-limit' : null;
}

export function buildSharedReveal(a: {
  last: SignedShared;
  serverSeed: string;
  rounds: number;
  reason: SharedRevealReason;
  keyId: string;
  issuedAt: string;
}): SharedReveal {
  return {
    type: 'reveal',
    table: a.last.body.table,
    shoe: a.last.body.shoe,
    keyId: a.keyId,
    serverSeed: a.serverSeed,
    rounds: a.rounds,
    reason: a.reason,
    prev: a.last.hash,
    issuedAt: a.issuedAt,
  };
}
