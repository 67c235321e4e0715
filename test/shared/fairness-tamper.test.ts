/**
 * Every single field of every receipt changed, one at a time: without the key (the body no longer
 * hashes to its signed hash) and by a lying operator who re-signs the whole chain after the change
 * (only the verifier's recomputation can catch it). Both must fail at that round with the right reason.
 */
import { describe, expect, test } from 'vitest';
import { type Fair1ReceiptBody, type Fair1VerifyFailureCode, verifyFair1Transcript } from '../../shared/index.ts';
import { clone, flip, leaves, loadVectors, type Path, reseal, testVerifyKeys } from './fairness-fixtures.ts';

const vectors = loadVectors();
const oneDeck = vectors.transcripts[0]!.transcript; // 7 rounds to the cut card
const reshuffle = vectors.transcripts[1]!.transcript; // reshuffle mode, 3 rounds, ended early

/** What a lying operator's re-signed change to each receipt field must be reported as (null: attested, undetectable). */
function expectedCodes(path: Path): Fair1VerifyFailureCode[] | null {
  const field = path[0] as keyof Fair1ReceiptBody;
  const table: Record<keyof Fair1ReceiptBody, Fair1VerifyFailureCode[] | null> = {
    type: ['bad_record'],
    table: ['table_mismatch'],
    shoe: ['shoe_mismatch'],
    round: ['round_mismatch'],
    affiliate: null, // who referred the player: signed by the operator, nothing to recompute it from
    bets: ['bets_invalid', 'payout_mismatch'], // a changed bet is either off the rules or pays differently
    cards: ['card_mismatch'],
    playerTotal: ['total_mismatch'],
    bankerTotal: ['total_mismatch'],
    outcome: ['outcome_mismatch'],
    natural: ['natural_mismatch'],
    playerPair: ['pair_mismatch'],
    bankerPair: ['pair_mismatch'],
    payouts: ['payout_mismatch'],
    staked: ['stake_mismatch'],
    returned: ['payout_mismatch'],
    balanceBefore: ['balance_mismatch'],
    balanceAfter: ['balance_mismatch'],
    cutCardOut: ['cut_card_mismatch'],
    prev: ['chain_broken'],
    issuedAt: ['bad_record'], // "…Z!" is no time; another valid time is the operator's word
  };
  return table[field];
}

describe('any single field of any receipt changed', () => {
  for (const [name, source] of [
    ['one-deck shoe', oneDeck],
    ['reshuffle mode', reshuffle],
  ] as const) {
    test(`${name}: without the key, every change is a hash mismatch at that round`, async () => {
      const keys = await testVerifyKeys();
      let checked = 0;
      for (const [i, receipt] of source.receipts.entries()) {
        for (const path of leaves(receipt.body)) {
          const t = clone(source);
          flip(t.receipts[i]!.body, path);
          const report = await verifyFair1Transcript(t, keys);
          expect(report.ok, `${path.join('.')} of round ${i + 1}`).toBe(false);
          expect(report.failure, `${path.join('.')} of round ${i + 1}`).toMatchObject({ round: i + 1, record: 'receipt', code: 'hash_mismatch' });
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(source.receipts.length * 30);
    });

    test(`${name}: re-signed by the operator, every change but the affiliate is caught at that round with its reason`, async () => {
      const keys = await testVerifyKeys();
      const seen = new Set<Fair1VerifyFailureCode>();
      for (const [i, receipt] of source.receipts.entries()) {
        for (const path of leaves(receipt.body)) {
          const t = clone(source);
          flip(t.receipts[i]!.body, path);
          await reseal(t, 2 + i);
          const report = await verifyFair1Transcript(t, keys);
          const codes = expectedCodes(path);
          const where = `${path.join('.')} of round ${i + 1}: ${JSON.stringify(report.failure)}`;
          if (codes === null) {
            expect(report.ok, where).toBe(true);
            continue;
          }
          expect(report.ok, where).toBe(false);
          expect(report.failure!.round, where).toBe(i + 1);
          expect(report.failure!.record, where).toBe('receipt');
          expect(codes, where).toContain(report.failure!.code);
          expect(report.rounds[i]).toMatchObject({ round: i + 1, ok: false, status: 'failed', code: report.failure!.code });
          seen.add(report.failure!.code);
        }
      }
      expect(seen.size).toBeGreaterThanOrEqual(13);
    });
  }
});
