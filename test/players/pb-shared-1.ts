/**
 * A whole shared table played and signed in one call: the reference for how pb-shared-1 records
 * fit together (the Worker does the same step by step, in real time). Used by the tests, the
 * golden vectors and the conformance generator; `mutate` changes a body before it is signed, as a
 * dishonest operator (or player) would, and everything after it follows the changed record.
 */
import { type BeaconChain, type BeaconRound, timeOfRound } from '../../shared/beacon.ts';
import type { Bet, TableLimits } from '../../shared/table.ts';
import type { SigningKey } from '../../shared/fairness/common/keys.ts';
import { playerKeyOf } from '../../shared/fairness/pb-fair-2/records.ts';
import { type SharedShoeState, startSharedShoe } from '../../shared/fairness/pb-shared-1/derive.ts';
import {
  buildClose,
  buildSharedCommitment,
  buildSharedDeal,
  buildSharedReveal,
  buildSharedSettlement,
  buildSharedStart,
  buildSharedVoid,
  sharedRevealDue,
  voidNotBefore,
} from '../../shared/fairness/pb-shared-1/operator.ts';
import type { SharedParams } from '../../shared/fairness/pb-shared-1/params.ts';
import {
  type SharedClose,
  type SharedFile,
  type SharedRecord,
  type SharedRequest,
  type SharedRevealReason,
  type SharedStart,
  type SignedShared,
  type SignedSharedRequest,
  signSharedRecord,
  signSharedRequest,
} from '../../shared/fairness/pb-shared-1/records.ts';
import { sharedBetRequest, sharedStartRequest } from '../../shared/fairness/pb-shared-1/requests.ts';
import { buildMerkleClose, buildMerkleStart, startInputs } from '../../shared/fairness/pb-shared-2/operator.ts';
import { signShared2Record } from '../../shared/fairness/pb-shared-2/records.ts';

export interface SharedRoundScript {
  /** Bets by seat index (players not listed sit the round out). */
  bets: Record<number, Bet[]>;
  /** deal (default); void: the beacon never came before the deadline; open: nothing after the close. */
  fate?: 'deal' | 'void' | 'open';
  /** Milliseconds from the previous record to the close (default 1000). */
  closeAfterMs?: number;
}

export interface SharedShoeScript {
  params: SharedParams;
  limits?: TableLimits;
  serverSeed: string;
  /** The seats at the start: seat index, client seed, cut. */
  seats: { seat: number; clientSeed: string; cut: number }[];
  rounds: SharedRoundScript[];
  /** How the shoe ends: a reveal reason, or "open". Default: cut-card / reshuffle-limit when reached, else closed. */
  end?: SharedRevealReason | 'open';
  /** Unix ms of the shoe's commitment, when later than the record before it (e.g. to meet a recorded beacon round). */
  startAt?: number;
}

export interface PlaySharedOptions {
  table: string;
  operatorKey: SigningKey;
  /** The players' keys by seat index. */
  players: SigningKey[];
  /** Each seat's balance at the start of play. */
  balances: number[];
  chain: BeaconChain;
  /** The beacon round as a relay serves it (a local beacon's signRound, or recorded quicknet rounds). */
  beacon: (round: number) => BeaconRound;
  shoes: SharedShoeScript[];
  firstShoe?: number;
  prev?: string | null;
  /** Time of the first record, Unix ms; each record is one second after the last unless the beacon makes it wait. */
  startTime?: number;
  mutate?: (m: { index: number; kind: 'record' | 'request'; body: SharedRecord | SharedRequest }) => void;
  /** pb-shared-2 (FAIRNESS.md part IV): each close commits to a Merkle root of its bets (listed beside it), each settlement names its leaf. */
  version?: 'pb-shared-1' | 'pb-shared-2';
}

/** The operator's file, and each seat's balance at the end. */
export async function playSharedTable(o: PlaySharedOptions): Promise<SharedFile & { balances: number[] }> {
  const records: SignedShared[] = [];
  const merkle = o.version === 'pb-shared-2';
  let now = o.startTime ?? Date.UTC(2025, 0, 1, 12, 0, 0);
  const at = () => new Date(now).toISOString();
  const opId = o.operatorKey.keyId;
  const mutate = o.mutate ?? (() => {});
  const sign = async <T extends SharedRecord>(body: T): Promise<SignedShared<T>> => {
    mutate({ index: records.length, kind: 'record', body });
    const s = merkle ? ((await signShared2Record(body as never, o.operatorKey)) as unknown as SignedShared<T>) : await signSharedRecord(body, o.operatorKey);
    records.push(s);
    now += 1000;
    return s;
  };
  const request = async <T extends SharedRequest>(body: T, seat: number): Promise<SignedSharedRequest<T>> => {
    mutate({ index: records.length, kind: 'request', body });
    return signSharedRequest(body, o.players[seat]!);
  };
  const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
    if (!r.ok) throw new RangeError(r.error.message);
    return r.value;
  };
  const balances = [...o.balances];
  const seatOf = new Map(o.players.map((k, i) => [playerKeyOf(k), i]));
  let prev = o.prev ?? null;
  for (let si = 0; si < o.shoes.length; si++) {
    const sc = o.shoes[si]!;
    const p = sc.params;
    const limits = sc.limits ? { limits: sc.limits } : {};
    now = Math.max(now, sc.startAt ?? now);
    const commitment = await sign(
      buildSharedCommitment({
        table: o.table,
        shoe: (o.firstShoe ?? 1) + si,
        keyId: opId,
        params: p,
        ...limits,
        beacon: o.chain,
        serverSeed: sc.serverSeed,
        prev,
        issuedAt: at(),
      }),
    );
    const seats = await Promise.all(sc.seats.map((s) => request(sharedStartRequest(commitment, playerKeyOf(o.players[s.seat]!), s.clientSeed, s.cut), s.seat)));
    let start: SignedShared<SharedStart>;
    if (merkle) {
      // The record signed is the Merkle start; the file holds it with its requests beside it, as a close with its bets.
      const built = unwrap(buildMerkleStart(commitment, seats, opId, at()));
      const signed = await sign(built.body as unknown as SharedStart);
      Object.assign(signed, { requests: built.requests });
      start = signed;
    } else start = await sign(unwrap(buildSharedStart(commitment, seats, opId, at())));
    const { clientSeed, cut } = startInputs(start.body, p.decks);
    let state: SharedShoeState = startSharedShoe(p, sc.serverSeed, clientSeed, cut);
    let last: SignedShared = start;
    let closed = 0;
    let reached: SharedRevealReason | null = null;
    let open = false;
    for (const rs of sc.rounds) {
      if (reached) break;
      const round = closed + 1;
      const requests = await Promise.all(
        Object.entries(rs.bets).map(([seat, bets]) =>
          request(sharedBetRequest(o.table, commitment.body.shoe, round, playerKeyOf(o.players[+seat]!), bets), +seat),
        ),
      );
      now += (rs.closeAfterMs ?? 1000) - 1000;
      const closeArgs = { last, round, bets: requests, beacon: o.chain, keyId: opId, issuedAt: at() };
      let close: SignedShared<SharedClose>;
      if (merkle) {
        // The record signed is the Merkle close; the file holds it with its bets beside it, and the table's code reads them there.
        const built = unwrap(buildMerkleClose(closeArgs));
        const signed = await sign(built.body as unknown as SharedClose);
        Object.assign(signed, { bets: built.bets });
        close = { ...signed, body: { ...signed.body, bets: built.bets } };
      } else close = await sign(unwrap(buildClose(closeArgs)));
      closed++;
      last = close;
      const fate = rs.fate ?? 'deal';
      if (fate === 'open') {
        open = true;
        break;
      }
      if (fate === 'void') {
        now = Math.max(now, voidNotBefore(o.chain, p, close.body.beaconRound));
        last = await sign(unwrap(buildSharedVoid({ close, chain: o.chain, params: p, keyId: opId, issuedAt: at() })));
        reached = sharedRevealDue(p, { cutCardOut: false, closed });
        continue;
      }
      const beacon = o.beacon(close.body.beaconRound);
      now = Math.max(now, timeOfRound(o.chain, beacon.round));
      const dealt = unwrap(buildSharedDeal({ params: p, state, serverSeed: sc.serverSeed, cut, chain: o.chain, close, beacon, keyId: opId, issuedAt: at() }));
      const deal = await sign(dealt.body);
      state = dealt.state;
      last = deal;
      for (const req of close.body.bets) {
        const seat = seatOf.get(req.body.player)!;
        const body = buildSharedSettlement({ deal, last, request: req, balanceBefore: balances[seat]!, keyId: opId, issuedAt: at() });
        const settlement = await sign(merkle ? { ...body, leaf: close.body.bets.indexOf(req) } : body);
        balances[seat] = settlement.body.balanceAfter;
        last = settlement;
      }
      reached = sharedRevealDue(p, { cutCardOut: deal.body.cutCardOut, closed });
    }
    if (open || sc.end === 'open') break;
    const reveal = await sign(
      buildSharedReveal({ last, serverSeed: sc.serverSeed, rounds: closed, reason: sc.end ?? reached ?? 'closed', keyId: opId, issuedAt: at() }),
    );
    prev = reveal.hash;
  }
  return { version: (o.version ?? 'pb-shared-1') as SharedFile['version'], records, balances };
}
