/**
 * A whole table played and signed by both sides in one call: the reference for how pb-fair-2
 * records fit together (the Worker and the widget do the same step by step). Used by the tests,
 * the golden vectors and the conformance generator; `mutate` lets the generator change a body
 * before it is signed (everything after it then follows the changed record, as a dishonest
 * operator's would).
 */
import type { Bet, TableLimits } from '../../table.ts';
import type { SigningKey } from '../keys.ts';
import { startShoeV2, type ShoeStateV2 } from './derive.ts';
import {
  betRequest,
  buildAcceptanceV2,
  buildCommitmentV2,
  buildReceiptV2,
  buildRevealV2,
  buildStartV2,
  buildVoidV2,
  endRequest,
  revealDue,
  secretRequest,
  startRequest,
} from './operator.ts';
import type { ShoeParamsV2 } from './params.ts';
import { buildTransferV2, type TransferAsk } from './transfer.ts';
import {
  type AcceptanceV2,
  type CommitmentV2,
  type FileV2,
  type PlayerRequest,
  playerKeyOf,
  type RecordV2,
  type RevealReason,
  type SignedRequest,
  type SignedV2,
  signRecordV2,
  signRequest,
} from './records.ts';

export interface RoundScriptV2 {
  bets: Bet[];
  /** The round's 32-byte secret, hex. */
  secret: string;
  /** settle (default); void: the player never reveals; unsettled: the player reveals, the operator never settles; pending: nothing after the acceptance. */
  fate?: 'settle' | 'void' | 'unsettled' | 'pending';
  /** Shared-table transfers recorded before this round's acceptance (§B14). */
  transfersBefore?: TransferAsk[];
  /** What the bet request follows after transfers: the newest record (default), or the newest one the player saw before them. */
  betFollows?: 'head' | 'seen';
}

export interface ShoeScriptV2 {
  params: ShoeParamsV2;
  limits?: TableLimits;
  serverSeed: string;
  clientSeed: string;
  cut: number;
  affiliate?: string | null;
  /** Rounds to play; in shoe mode play stops at the cut card whatever is left. */
  rounds: RoundScriptV2[];
  /** How the shoe ends: a reveal reason, or "open" (not revealed). Default: cut-card / reshuffle-limit when reached, else player. */
  end?: RevealReason | 'open';
  /** Shared-table transfers recorded right after the commitment, and after the last round (before the reveal, if any). */
  transfersBeforeStart?: TransferAsk[];
  transfersBeforeEnd?: TransferAsk[];
  /** What the player's end request follows after transfers (as `betFollows`). */
  endFollows?: 'head' | 'seen';
}

export interface PlayTableV2Options {
  table: string;
  operatorKey: SigningKey;
  playerKey: SigningKey;
  openingBalance: number;
  shoes: ShoeScriptV2[];
  /** The first shoe's number (default 1) and prev (default null). */
  firstShoe?: number;
  prev?: string | null;
  /** Time of the first record, ms since the epoch; each record is one second after the last (voids and timeouts wait). */
  startTime?: number;
  mutate?: (m: { index: number; kind: 'record' | 'request'; body: RecordV2 | PlayerRequest }) => void;
}

/** The operator's file and what the player sent without an answer (its `sent`). */
export async function playTableV2(o: PlayTableV2Options): Promise<FileV2 & { sent: SignedRequest[] }> {
  const records: SignedV2[] = [];
  const sent: SignedRequest[] = [];
  let now = o.startTime ?? Date.UTC(2025, 0, 1, 12, 0, 0);
  const at = () => new Date(now).toISOString();
  const opId = o.operatorKey.keyId;
  const mutate = o.mutate ?? (() => {});
  const sign = async <T extends RecordV2>(body: T): Promise<SignedV2<T>> => {
    mutate({ index: records.length, kind: 'record', body });
    const s = await signRecordV2(body, o.operatorKey);
    records.push(s);
    now += 1000;
    return s;
  };
  const request = async <T extends PlayerRequest>(body: T): Promise<SignedRequest<T>> => {
    mutate({ index: records.length, kind: 'request', body });
    return signRequest(body, o.playerKey);
  };
  let balance = o.openingBalance;
  let prev = o.prev ?? null;
  /** Records the transfers of `asks` after `last`; returns the newest record. */
  const transfer = async (asks: TransferAsk[] | undefined, last: SignedV2): Promise<SignedV2> => {
    for (const ask of asks ?? []) {
      const t = await sign(buildTransferV2({ ask, last, shoe: last.body.shoe, balanceBefore: balance, keyId: opId, issuedAt: at() }));
      balance = t.body.balanceAfter;
      last = t;
    }
    return last;
  };
  for (let si = 0; si < o.shoes.length; si++) {
    const sc = o.shoes[si]!;
    const p = sc.params;
    const commitment: SignedV2<CommitmentV2> = await sign(
      buildCommitmentV2({
        table: o.table,
        shoe: (o.firstShoe ?? 1) + si,
        keyId: opId,
        params: p,
        ...(sc.limits ? { limits: sc.limits } : {}),
        serverSeed: sc.serverSeed,
        playerKey: playerKeyOf(o.playerKey),
        openingBalance: balance,
        prev,
        issuedAt: at(),
      }),
    );
    balance = commitment.body.openingBalance;
    const beforeStart = await transfer(sc.transfersBeforeStart, commitment);
    const start = await sign(buildStartV2(commitment, await request(startRequest(commitment, sc.clientSeed, sc.cut)), opId, at(), beforeStart.hash));
    const cut = start.body.request.body.cut;
    let state: ShoeStateV2 = startShoeV2(p, sc.serverSeed, start.body.request.body.clientSeed, cut);
    let last: SignedV2 = start;
    let accepted = 0;
    let reached: RevealReason | null = null;
    let open = false;
    for (const rs of sc.rounds) {
      if (reached) break;
      const round = accepted + 1;
      const seen = last;
      last = await transfer(rs.transfersBefore, last);
      const req = await request(betRequest(rs.betFollows === 'seen' ? seen : last, round, rs.bets, rs.secret));
      const acc = buildAcceptanceV2({
        last,
        seen: seen.hash,
        round,
        request: req,
        ...(sc.limits ? { limits: sc.limits } : {}),
        balanceBefore: balance,
        affiliate: sc.affiliate ?? null,
        keyId: opId,
        issuedAt: at(),
      });
      if (!acc.ok) throw new RangeError(`shoe ${commitment.body.shoe} round ${round}: ${acc.error.message}`);
      const acceptance: SignedV2<AcceptanceV2> = await sign(acc.value);
      accepted++;
      last = acceptance;
      const fate = rs.fate ?? 'settle';
      if (fate === 'pending') {
        open = true;
        break;
      }
      if (fate === 'unsettled') {
        sent.push(await request(secretRequest(acceptance, rs.secret)));
        break;
      }
      if (fate === 'void') {
        now = Date.parse(acceptance.body.issuedAt) + p.voidAfterSeconds * 1000;
        last = await sign(buildVoidV2(acceptance, opId, at()));
        balance = (last.body as { balanceAfter: number }).balanceAfter;
        reached = revealDue(p, { cutCardOut: false, accepted });
        continue;
      }
      const settled = buildReceiptV2({
        params: p,
        state,
        serverSeed: sc.serverSeed,
        cut,
        acceptance,
        request: await request(secretRequest(acceptance, rs.secret)),
        keyId: opId,
        issuedAt: at(),
      });
      if (!settled.ok) throw new RangeError(settled.error.message);
      const receipt = await sign(settled.value.body);
      state = settled.value.state;
      last = receipt;
      balance = receipt.body.balanceAfter;
      reached = revealDue(p, { cutCardOut: receipt.body.cutCardOut, accepted });
    }
    if (open) break;
    const seen = last;
    last = await transfer(sc.transfersBeforeEnd, last);
    if (sc.end === 'open') break;
    const reason: RevealReason = sc.end ?? reached ?? 'player';
    if (reason === 'void-timeout') now = Date.parse(last.body.issuedAt) + p.voidAfterSeconds * 1000;
    const end = reason === 'player' ? await request(endRequest(sc.endFollows === 'seen' ? seen : last)) : undefined;
    const reveal = await sign(
      buildRevealV2({
        last,
        serverSeed: sc.serverSeed,
        rounds: accepted,
        reason,
        ...(end ? { request: end } : {}),
        closingBalance: balance,
        keyId: opId,
        issuedAt: at(),
      }),
    );
    balance = reveal.body.closingBalance;
    prev = reveal.hash;
  }
  return { version: 'pb-fair-2', records, sent };
}
