/**
 * pb-shared-2 builders (FAIRNESS.md §D4): the close that commits to its bets, and the settlements
 * that name their leaves. Every other record is pb-shared-1's builder (../pb-shared-1/operator.ts),
 * signed under this version's tag (signShared2Record). Pure; the caller signs and stores.
 */
import type { EngineError, Result } from '../../errors.ts';
import type { SigningKey } from '../common/keys.ts';
import { buildClose, buildSharedSettlement, buildSharedStart, type CloseErrorCode, sharedStartInputs, type StartErrorCode } from '../pb-shared-1/operator.ts';
import type {
  SharedBetRequest,
  SharedCommitment,
  SharedDeal,
  SharedStart,
  SharedStartRequest,
  SignedShared,
  SignedSharedRequest,
} from '../pb-shared-1/records.ts';
import { type CloseEntry, type MerkleClose, type MerkleSettlement, type MerkleStart, type Signed2, signShared2Record, type StartEntry } from './records.ts';
import { shoeClientSeed, startsRoot } from './start.ts';
import { betsRoot, boxTotals } from './tree.ts';

/** The shoe's client seed and cut from its start, either version's (what startSharedShoe takes): a pb-shared-2 start's seed is its root's, its cut signed. */
export function startInputs(start: SharedStart | MerkleStart, decks: number): { clientSeed: string; cut: number } {
  return 'startsRoot' in start ? { clientSeed: shoeClientSeed(start.startsRoot), cut: start.cut } : sharedStartInputs(start, decks);
}

/**
 * The shoe's start (FAIRNESS.md §D3a): pb-shared-1's buildSharedStart checks and sorts the seated
 * players' start requests (one per player, each against the commitment), then the start commits
 * to them: their root, their count and the shoe's cut. Returns the body and the requests in leaf order.
 */
export function buildMerkleStart(
  commitment: SignedShared<SharedCommitment>,
  requests: readonly SignedSharedRequest<SharedStartRequest>[],
  keyId: string,
  issuedAt: string,
): Result<{ body: MerkleStart; requests: SignedSharedRequest<SharedStartRequest>[] }, EngineError<StartErrorCode>> {
  const listed = buildSharedStart(commitment, requests, keyId, issuedAt);
  if (!listed.ok) return listed;
  const { requests: sorted, ...rest } = listed.value;
  const { cut } = sharedStartInputs(listed.value, commitment.body.params.decks);
  return { ok: true, value: { body: { ...rest, startsRoot: startsRoot(sorted), startCount: sorted.length, cut }, requests: sorted } };
}

/** The start signed, with its requests beside it: the transcript's entry. */
export async function signMerkleStart(built: { body: MerkleStart; requests: SignedSharedRequest<SharedStartRequest>[] }, key: SigningKey): Promise<StartEntry> {
  return { ...(await signShared2Record(built.body, key)), requests: built.requests };
}

/**
 * Closes a round's betting as pb-shared-1's buildClose does (every accepted request, one per
 * player, sorted by player; the first beacon round after `issuedAt`), then commits to the sorted
 * requests: their root, count and totals. Returns the body and the requests in leaf order.
 */
export function buildMerkleClose(
  a: Parameters<typeof buildClose>[0],
): Result<{ body: MerkleClose; bets: SignedSharedRequest<SharedBetRequest>[] }, EngineError<CloseErrorCode>> {
  const listed = buildClose(a);
  if (!listed.ok) return listed;
  const { bets, ...rest } = listed.value;
  return { ok: true, value: { body: { ...rest, betsRoot: betsRoot(bets), betCount: bets.length, totals: boxTotals(bets) }, bets } };
}

/** The close signed, with its bets beside it: the transcript's entry. */
export async function signMerkleClose(built: { body: MerkleClose; bets: SignedSharedRequest<SharedBetRequest>[] }, key: SigningKey): Promise<CloseEntry> {
  return { ...(await signShared2Record(built.body, key)), bets: built.bets };
}

/**
 * Every settlement of a dealt round, in leaf order, each naming its leaf and chained to the one
 * before (the first to the deal), signed with `key`. `balances` maps each bettor to its balance before the stake.
 */
export async function signMerkleSettlements(a: {
  deal: Signed2<SharedDeal>;
  close: Pick<CloseEntry, 'bets'>;
  balances: ReadonlyMap<string, number>;
  key: SigningKey;
  issuedAt: string;
}): Promise<Signed2<MerkleSettlement>[]> {
  const out: Signed2<MerkleSettlement>[] = [];
  let last: { hash: string } = a.deal;
  for (const [leaf, request] of a.close.bets.entries()) {
    const balanceBefore = a.balances.get(request.body.player);
    if (balanceBefore === undefined) throw new RangeError(`no balance for player ${request.body.player}`);
    const body = buildSharedSettlement({ deal: a.deal, last, request, balanceBefore, keyId: a.key.keyId, issuedAt: a.issuedAt });
    const signed = await signShared2Record({ ...body, leaf }, a.key);
    out.push(signed);
    last = signed;
  }
  return out;
}
