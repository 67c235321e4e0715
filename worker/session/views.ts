/**
 * What a pb-fair-2 session shows: the session, a shoe (committed, never its seed), and the
 * answers of the changes (a bet's acceptance, a settled round, an ended shoe). Built from explicit
 * fields of the stored rows and records, the same for a first answer and its replay.
 */
import {
  type AcceptanceAnswer,
  type Acceptance,
  type EndAnswer,
  type Receipt,
  type Reveal,
  ROOMS,
  type RoundAnswer,
  type SessionCommon,
  type SessionView,
  type ShoeParams,
  type ShoeSummary,
  type ShoeView,
  type Signed,
} from '../../shared/index.ts';
import { iso } from './parts.ts';
import { cutRangeV2, type Ending, type NextShoe } from './shoes.ts';
import type { SessionRow, ShoeRow, TableStore } from './store.ts';

const stakeOf = (a: Acceptance): number => a.request.body.bets.reduce((sum, b) => sum + b.amount, 0);

export function shoeView(shoe: Pick<ShoeRow, 'number' | 'status' | 'rounds' | 'params' | 'commitment' | 'start' | 'reveal'>): ShoeView {
  const view: ShoeView = {
    number: shoe.number,
    status: shoe.status,
    rounds: shoe.rounds,
    params: shoe.params,
    cutRange: cutRangeV2(shoe.params),
    commitment: shoe.commitment,
  };
  if (shoe.start) view.start = shoe.start;
  if (shoe.reveal) view.reveal = shoe.reveal;
  return view;
}

/** What a session's view says in every protocol: who, where, the balance and the room's limits. */
export function sessionCommon(session: SessionRow): SessionCommon {
  const room = ROOMS[session.room];
  return {
    sessionId: session.sessionId,
    room: session.room,
    roomName: room.name,
    affiliate: session.affiliate,
    attribution: session.attribution,
    balance: session.balance,
    limits: room.limits,
  };
}

/** The session: balance, limits, current shoe, head, pending round, last receipt. */
export function sessionView(store: TableStore, session: SessionRow): SessionView {
  const head = store.lastRecord(null)!;
  return {
    protocol: 'pb-fair-2',
    ...sessionCommon(session),
    playerKey: session.playerKey!,
    shoe: shoeView(store.shoeV2(session.currentShoe)!),
    head,
    pending: session.pendingRound === null ? null : { acceptance: head as Signed<Acceptance>, voidAt: session.dueAt! },
    lastReceipt: store.lastRecord<Receipt>('receipt'),
  };
}

/** A bet's answer: its acceptance, the balance after the stake, and when the round voids without its secret. */
export function acceptanceAnswer(store: TableStore, acceptance: Signed<Acceptance>, params?: ShoeParams): AcceptanceAnswer {
  const a = acceptance.body;
  const vas = (params ?? store.shoeV2(a.shoe)!.params).voidAfterSeconds;
  return {
    acceptance,
    balance: a.balanceBefore - stakeOf(a),
    voidAt: iso(Date.parse(a.issuedAt) + vas * 1000),
    shoe: { number: a.shoe, status: 'in-play', rounds: a.round },
  };
}

/** A secret's answer: the receipt, and the reveal and the next shoe when the round ended the shoe. */
export function roundAnswer(receipt: Signed<Receipt>, ending: Ending | null): RoundAnswer {
  const b = receipt.body;
  const result: RoundAnswer = { receipt, balance: b.balanceAfter, shoe: { number: b.shoe, status: ending ? 'ended' : 'in-play', rounds: b.round } };
  if (ending) {
    result.reveal = ending.reveal;
    result.nextShoe = shoeView({ ...ending.next, status: 'awaiting-start', start: null, rounds: 0, reveal: null });
  }
  return result;
}

/** An end request's answer: the reveal and the next shoe. */
export function endAnswer(reveal: Signed<Reveal>, next: NextShoe): EndAnswer {
  const b = reveal.body;
  const shoe: ShoeSummary = { number: b.shoe, status: 'ended', rounds: b.rounds };
  return { reveal, balance: b.closingBalance, shoe, nextShoe: shoeView({ ...next, status: 'awaiting-start', start: null, rounds: 0, reveal: null }) };
}
