/**
 * The widget's round view (widget/round-view.ts): built from the live records, a private table's
 * acceptance and receipt or a shared table's deal and the player's settlement, it carries their
 * result and money and cites the record that holds the result; it is no signed record itself.
 */
import { expect } from 'chai';
import { playRoundFromCodes, roundFacts } from '../../shared/round.ts';
import { receiptCards } from '../../shared/fairness/common/receipt-fields.ts';
import type { SharedDeal, SharedSettlement, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import type { Acceptance, Receipt, Signed } from '../../shared/fairness/pb-fair-2/records.ts';
import { privateRounds, sharedTableRound } from '../../widget/round-view.ts';
import { playTable } from './panels-fixture.ts';

describe('round view', () => {
  it("a private table's rounds: each receipt's result and money with the bets of its acceptance, citing the receipt", async () => {
    const { file } = await playTable({ rounds: 6, end: 'open' });
    const receipts = file.records.filter((r): r is Signed<Receipt> => r.body.type === 'receipt');
    const rounds = privateRounds(file.records);
    expect(rounds).to.have.length(6);
    expect(receipts).to.have.length(6);
    rounds.forEach((round, i) => {
      const receipt = receipts[i]!;
      const acceptance = file.records.find((r) => r.hash === receipt.body.prev)!.body as Acceptance;
      expect(acceptance.type).to.equal('acceptance');
      expect(round.bets).to.deep.equal(acceptance.request.body.bets);
      const r = receipt.body;
      expect({ shoe: round.shoe, round: round.round, cards: round.cards, cutCardOut: round.cutCardOut }).to.deep.equal({
        shoe: r.shoe,
        round: r.round,
        cards: r.cards,
        cutCardOut: r.cutCardOut,
      });
      expect([round.outcome, round.playerTotal, round.bankerTotal, round.natural, round.playerPair, round.bankerPair]).to.deep.equal([
        r.outcome,
        r.playerTotal,
        r.bankerTotal,
        r.natural,
        r.playerPair,
        r.bankerPair,
      ]);
      expect([round.payouts, round.staked, round.returned, round.balanceBefore, round.balanceAfter]).to.deep.equal([
        r.payouts,
        r.staked,
        r.returned,
        r.balanceBefore,
        r.balanceAfter,
      ]);
      expect(round.record).to.deep.equal({ hash: receipt.hash, prev: r.prev, keyId: r.keyId, issuedAt: r.issuedAt });
      // A view, not a record: no signature, no body, nothing that reads as signed.
      expect(Object.keys(round)).to.not.include.members(['signature', 'body', 'hash', 'type', 'request']);
    });
    // The rounds come in round order, whatever the outcomes (a tie among them or not).
    expect(rounds.map((r) => r.round)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(rounds.every((r) => ['player', 'banker', 'tie'].includes(r.outcome))).to.equal(true);
  });

  it('a receipt without its acceptance in the records makes no round', async () => {
    const { file } = await playTable({ rounds: 3, end: 'open' });
    const firstAcceptance = file.records.findIndex((r) => r.body.type === 'acceptance');
    const records = file.records.filter((_, i) => i !== firstAcceptance);
    expect(privateRounds(records).map((r) => r.round)).to.deep.equal([2, 3]);
  });

  /** A shared table's deal of these cards, as its record (signed by nobody here: the view reads, never checks). */
  function dealOf(codes: string[]): SignedShared<SharedDeal> {
    const played = playRoundFromCodes(codes);
    if (!played.ok) throw new Error(played.error.message);
    const r = played.value;
    const body: SharedDeal = {
      type: 'deal',
      table: 'hall-1/a',
      shoe: 2,
      round: 7,
      keyId: 'operator-key',
      issuedAt: '2026-11-29T12:00:00.000Z',
      beacon: { round: 1007, randomness: 'ab'.repeat(32), signature: 'cd'.repeat(48) },
      cards: receiptCards(r),
      cutCardOut: false,
      ...roundFacts(r),
      prev: 'close-hash',
    };
    return { body, hash: 'deal-hash', signature: 'deal-signature' };
  }

  it("a shared table's round only watched: the deal's cards and result, no bets, no money moved", () => {
    const deal = dealOf(['9S', '9H', 'KD', 'KC']);
    expect(deal.body.outcome).to.equal('tie');
    const round = sharedTableRound(deal, [], null, 25_000);
    expect(round.outcome).to.equal('tie');
    expect(round.cards).to.deep.equal(deal.body.cards);
    expect([round.shoe, round.round]).to.deep.equal([2, 7]);
    expect(round.bets).to.deep.equal([]);
    expect(round.payouts).to.deep.equal([]);
    expect([round.staked, round.returned, round.balanceBefore, round.balanceAfter]).to.deep.equal([0, 0, 25_000, 25_000]);
    expect(round.record).to.deep.equal({ hash: 'deal-hash', prev: 'close-hash', keyId: 'operator-key', issuedAt: '2026-11-29T12:00:00.000Z' });
  });

  it("a shared table's round with the player's stake: the bets, and the settlement's payouts and balances", () => {
    const deal = dealOf(['9S', '9H', 'KD', 'KC']);
    const bets = [
      { sector: 0, box: 'player' as const, amount: 1_000 },
      { sector: 1, box: 'tie' as const, amount: 1_000 },
    ];
    const settlement: SharedSettlement = {
      type: 'settlement',
      table: 'hall-1/a',
      shoe: 2,
      round: 7,
      keyId: 'operator-key',
      issuedAt: '2026-11-29T12:00:01.000Z',
      player: 'player-key',
      deal: 'deal-hash',
      prev: 'deal-hash',
      payouts: [
        { sector: 0, box: 'player', amount: 1_000, result: 'push', returned: 1_000, net: 0 },
        { sector: 1, box: 'tie', amount: 1_000, result: 'win', returned: 9_000, net: 8_000 },
      ],
      staked: 2_000,
      returned: 10_000,
      balanceBefore: 25_000,
      balanceAfter: 33_000,
    };
    const round = sharedTableRound(deal, bets, settlement, 25_000);
    expect(round.bets).to.deep.equal(bets);
    expect(round.bets[0]).to.not.equal(bets[0]);
    expect(round.payouts).to.deep.equal(settlement.payouts);
    expect([round.staked, round.returned, round.balanceBefore, round.balanceAfter]).to.deep.equal([2_000, 10_000, 25_000, 33_000]);
    // The round's result is the deal's: the history cites the deal.
    expect(round.record.hash).to.equal('deal-hash');
  });
});
