/**
 * What a shared table shows (API.md "Shared tables"): its public state, the same to everyone
 * (GET and the socket's `state`), and a seated session's own place in it.
 */
import { outcomeCode } from '../../shared/fairness/pb-shared-1/outcomes.ts';
import { ROOMS } from '../../shared/index.ts';
import type { SharedCloseRecord, SharedStartRecord, SharedTablePublicState, SharedTableSeat } from '../../shared/wire/shared-table-socket.ts';
import { type BetProof, betProof, betsTree, type CloseEntry, recordOf, type StartEntry, startsTree } from '../../shared/fairness/pb-shared-2/index.ts';
import type { SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import type { SharedTableParts, TableState } from './parts.ts';

/** The table as anyone sees it. */
export function publicState(p: SharedTableParts, s: TableState): SharedTablePublicState {
  const round = s.phase === 'awaiting-beacon' ? s.shoe.closed : s.shoe.closed + 1;
  const commitment = p.store.record(s.shoe.number, 'commitment')!.record;
  const start = bareOf(p.store.record(s.shoe.number, 'start')?.record, 'requests') as SharedStartRecord | null;
  const lastDeal = p.store.record(s.shoe.number, 'deal')?.record ?? null;
  return {
    tableId: s.config.tableId,
    room: s.config.room,
    mode: s.config.mode,
    speed: s.config.speed,
    windowMs: s.config.windowMs,
    limits: ROOMS[s.config.room].limits,
    shoe: {
      number: s.shoe.number,
      params: s.shoe.params,
      commitment,
      start,
      closed: s.shoe.closed,
      cardsDealt: s.shoe.deal?.dealt ?? 0,
      cardsLeft: s.shoe.deal && s.shoe.params.mode === 'shoe' ? s.shoe.deal.remaining.length : null,
    },
    round,
    phase: s.phase,
    closesAt: s.closesAt === null ? null : new Date(s.closesAt).toISOString(),
    beaconRound: s.beaconRound,
    close: s.phase === 'awaiting-beacon' ? closeOf(p, s.shoe.number, round) : null,
    bets:
      s.phase === 'idle' ? [] : p.store.bets(s.shoe.number, round, 'accepted').map((b) => ({ player: b.player, stake: b.stake, bets: b.request.body.bets })),
    lastDeal,
    outcomes: p.store.recordsOf(s.shoe.number, 'deal').map((r) => outcomeCode(r.record.body)),
    connections: p.connections(),
  };
}
/**
 * A stored record as the players get it: a pb-shared-2 close or start without the list beside it
 * (`bets`, `requests`: its size does not grow with the table); a pb-shared-1 one as signed.
 */
function bareOf(stored: SignedShared | undefined, list: 'bets' | 'requests'): SignedShared | null {
  if (!stored) return null;
  return list in stored && !(list in stored.body) ? (recordOf(stored as never) as SignedShared) : stored;
}

function closeOf(p: SharedTableParts, shoe: number, round: number): SharedCloseRecord | null {
  return bareOf(p.store.record(shoe, 'close', round)?.record, 'bets') as SharedCloseRecord | null;
}

/** The proof of a session's bet in a pb-shared-2 close awaiting its beacon round, if it bet. */
function proofOf(p: SharedTableParts, s: TableState, session: string): BetProof | null {
  if (s.phase !== 'awaiting-beacon') return null;
  const stored = p.store.record(s.shoe.number, 'close', s.shoe.closed)?.record as Partial<CloseEntry> | undefined;
  const player = p.store.keyOf(session);
  if (!stored?.bets || player === null) return null;
  const leaf = stored.bets.findIndex((b) => b.body.player === player);
  return leaf < 0 ? null : betProof(betsTree(stored.bets), leaf);
}

/** The session's start request as a pb-shared-2 start holds it, and its proof there, if the start holds one. */
function startProofOf(p: SharedTableParts, s: TableState, session: string): Pick<SharedTableSeat, 'startProof' | 'startRequest'> | null {
  const stored = p.store.record(s.shoe.number, 'start')?.record as Partial<StartEntry> | undefined;
  const player = p.store.keyOf(session);
  if (!stored?.requests || player === null) return null;
  const leaf = stored.requests.findIndex((r) => r.body.player === player);
  return leaf < 0 ? null : { startProof: betProof(startsTree(stored.requests), leaf), startRequest: stored.requests[leaf]! };
}

/** The session's own seat: its start, its bets of the round, what the table owes it still, and its balance when known. */
export function seatOf(p: SharedTableParts, s: TableState, session: string, balance: number | null): SharedTableSeat {
  const round = s.phase === 'awaiting-beacon' ? s.shoe.closed : s.shoe.closed + 1;
  const bets = p.store.sessionBets(s.shoe.number, round, session).filter((b) => b.status !== 'refused');
  const proof = proofOf(p, s, session);
  const start = startProofOf(p, s, session);
  const owed = p.store.owedTo(session).map((t) => ({ transfer: t.id, kind: t.kind as 'credit' | 'refund', amount: t.amount, shoe: t.shoe, round: t.round }));
  return {
    ...(balance === null ? {} : { balance }),
    ...(proof ? { proof } : {}),
    ...start,
    ...(owed.length > 0 ? { owed } : {}),
    started: p.store.hasStart(s.shoe.number, session),
    bets: bets.map((b) => ({ player: b.player, request: b.request, stake: b.stake, status: b.status })),
  };
}
