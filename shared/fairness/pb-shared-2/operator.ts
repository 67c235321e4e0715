/**
 * pb-shared-2 builders (FAIRNESS.md §D4): the close that commits to its bets, and the settlements
 * that name their leaves. Every other record is pb-shared-1's builder (../pb-shared-1/operator.ts),
 * signed under this version's tag (signShared2Record). Pure; the caller signs and stores.
 */
import type { EngineError, Result } from '../../errors.ts';
import type { SigningKey } from '../common/keys.ts';
import { buildClose, buildSharedSettlement, type CloseErrorCode } from '../pb-shared-1/operator.ts';
import type { SharedBetRequest, SharedDeal, SignedSharedRequest } from '../pb-shared-1/records.ts';
import { type CloseEntry, type MerkleClose, type MerkleSettlement, type Signed2, signShared2Record } from './records.ts';
import { betsRoot, boxTotals } from './tree.ts';

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
