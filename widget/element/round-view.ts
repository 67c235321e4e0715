/**
 * A pb-fair-2 round as the felt, the history and the scoreboard draw it. The receipt holds the
 * result but not the bets (they are in the acceptance's signed bet request), so the round view
 * is the receipt's body with the acceptance's bets and affiliate: the shape of a pb-fair-1
 * receipt, which is what the scene and the panels read. Its hash and signature are the receipt's.
 */
import type { AcceptanceV2, ReceiptBody, ReceiptV2, Signed, SignedV2 } from '../session/api-types.ts';

export function roundView(acceptance: AcceptanceV2, receipt: SignedV2<ReceiptV2>): Signed<ReceiptBody> {
  const { request: _request, keyId, ...rest } = receipt.body;
  const body: ReceiptBody = { ...rest, affiliate: acceptance.affiliate, bets: acceptance.request.body.bets.map((b) => ({ ...b })) };
  return { body, keyId, hash: receipt.hash, signature: receipt.signature };
}

/** The round views of a shoe's records (each receipt after its acceptance), in round order. */
export function roundViews(records: readonly SignedV2[]): Signed<ReceiptBody>[] {
  const out: Signed<ReceiptBody>[] = [];
  const accepted = new Map<string, AcceptanceV2>();
  for (const r of records) {
    if (r.body.type === 'acceptance') accepted.set(r.hash, r.body);
    if (r.body.type === 'receipt') {
      const acceptance = accepted.get(r.body.prev);
      if (acceptance) out.push(roundView(acceptance, r as SignedV2<ReceiptV2>));
    }
  }
  return out;
}
