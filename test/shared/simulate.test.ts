import { describe, expect, test } from 'vitest';
import { type Card, orderedDecks, parseCard } from '../../shared/cards.ts';
import { exactOdds } from '../../shared/odds.ts';
import { seededPrng } from '../../shared/prng.ts';
import { OUTCOMES, playRound, roundFacts } from '../../shared/round.ts';
import { dealRound, DEFAULT_SHOE_RULES, newShoe, prepareShoe, type ShoeRules } from '../../shared/shoe.ts';
import {
  fastCard,
  playShoeFast,
  resolveRoundFast,
  simulate,
  TALLY_BANKER_PAIRS,
  TALLY_HANDS,
  TALLY_NATURALS,
  TALLY_PLAYER_PAIRS,
  TALLY_SIZE,
  type UniformSource,
  unpackRound,
} from '../../shared/simulate.ts';

/** One card of each point value 0..9 (K, A, 2…9), spades. */
const BY_POINTS: Card[] = ['KS', 'AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S'].map((c) => parseCard(c)!);

describe('the fast path agrees with playRound', { timeout: 30_000 }, () => {
  test('on every sequence of six point values (10^6 rounds)', () => {
    const cards: Card[] = [0, 0, 0, 0, 0, 0];
    const fast = new Uint8Array(6);
    let checked = 0;
    for (let i = 0; i < 1_000_000; i++) {
      let k = i;
      for (let j = 0; j < 6; j++) {
        cards[j] = BY_POINTS[k % 10]!;
        fast[j] = fastCard(cards[j]!);
        k = Math.floor(k / 10);
      }
      const slow = playRound(cards);
      const quick = unpackRound(resolveRoundFast(fast, 0));
      if (
        quick.playerTotal !== slow.playerTotal ||
        quick.bankerTotal !== slow.bankerTotal ||
        quick.outcome !== slow.outcome ||
        quick.natural !== slow.natural ||
        quick.cardsUsed !== slow.cardsUsed ||
        quick.playerPair !== slow.playerPair ||
        quick.bankerPair !== slow.bankerPair
      ) {
        expect({ cards, quick }).toEqual({ cards, quick: slow }); // report the first disagreement
      }
      checked++;
    }
    expect(checked).toBe(1_000_000);
  });

  test('card for card on real shoes (shuffled, cut, burned by shoe.ts), pairs of every rank included', () => {
    const random = seededPrng('agreement');
    let rounds = 0;
    for (let s = 0; s < 300; s++) {
      const rules: ShoeRules = { ...DEFAULT_SHOE_RULES, decks: 1 + (s % 8), cutCardFromEnd: 6 + (s % 20), burn: s % 3 !== 0 };
      let shoe = newShoe(rules, random.randomBelow, 1 + random.below(rules.decks * 52 - 1));
      const fast = Uint8Array.from(shoe.cards, fastCard);
      const expected = new Float64Array(TALLY_SIZE);
      for (;;) {
        const dealt = dealRound(shoe);
        if (!dealt.ok) break;
        const { round } = dealt.value;
        expect(unpackRound(resolveRoundFast(fast, shoe.next))).toEqual({ ...roundFacts(round), cardsUsed: round.cardsUsed });
        expected[OUTCOMES.indexOf(round.outcome)]!++;
        expected[TALLY_NATURALS]! += +round.natural;
        expected[TALLY_PLAYER_PAIRS]! += +round.playerPair;
        expected[TALLY_BANKER_PAIRS]! += +round.bankerPair;
        expected[TALLY_HANDS]!++;
        rounds++;
        shoe = dealt.value.shoe;
      }
      // The whole shoe at once, from shoe.ts's burn to its cut card: same tallies, same last card.
      const tally = new Float64Array(TALLY_SIZE);
      const end = playShoeFast(fast, shoe.burned, shoe.cutCardAt, Number.MAX_SAFE_INTEGER, tally);
      expect(end).toBe(shoe.next);
      expect(Array.from(tally)).toEqual(Array.from(expected));
    }
    expect(rounds).toBeGreaterThan(10_000);
  });

  test('playShoeFast stops after maxHands', () => {
    const shoe = newShoe(DEFAULT_SHOE_RULES, seededPrng('max').randomBelow, 50);
    const tally = new Float64Array(TALLY_SIZE);
    playShoeFast(Uint8Array.from(shoe.cards, fastCard), shoe.burned, shoe.cutCardAt, 7, tally);
    expect(tally[TALLY_HANDS]).toBe(7);
    expect(tally[0]! + tally[1]! + tally[2]!).toBe(7);
  });
});

describe('simulate', { timeout: 30_000 }, () => {
  test('deterministic given the seed; stops at exactly N hands, mid-shoe if need be', () => {
    const a = simulate(12_345, DEFAULT_SHOE_RULES, seededPrng('det'));
    const b = simulate(12_345, DEFAULT_SHOE_RULES, seededPrng('det'));
    expect(a).toEqual(b);
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a.value.hands).toBe(12_345);
    expect(a.value.player + a.value.banker + a.value.tie).toBe(12_345);
    expect(simulate(12_345, DEFAULT_SHOE_RULES, seededPrng('other'))).not.toEqual(a);
    expect(simulate(0, DEFAULT_SHOE_RULES, seededPrng('zero'))).toEqual({
      ok: true,
      value: { hands: 0, shoes: 0, player: 0, banker: 0, tie: 0, naturals: 0, playerPairs: 0, bankerPairs: 0 },
    });
  });

  /** A source that records every n it is asked for. */
  const recording = (seed: string) => {
    const inner = seededPrng(seed);
    const asked: number[] = [];
    const source: UniformSource = { below: (n) => (asked.push(n), inner.below(n)) };
    return { source, asked };
  };

  test('each shoe is shuffled from the top as far as a round can reach: the cut card plus five cards', () => {
    const rules: ShoeRules = { ...DEFAULT_SHOE_RULES, decks: 2, cutCardFromEnd: 20 };
    const { source, asked } = recording('reach');
    const result = simulate(1_000, rules, source);
    if (!result.ok) throw new Error(result.error.message);
    const reach = 104 - 20 + 5;
    expect(asked.length).toBe(result.value.shoes * reach);
    for (let i = 0; i < asked.length; i++) expect(asked[i]).toBe(104 - (i % reach));
    // Shoes last from the burn to the cut card: about (84 − burn) / 4.9 rounds each.
    expect(result.value.hands / result.value.shoes).toBeGreaterThan(14);
    expect(result.value.hands / result.value.shoes).toBeLessThan(18);
  });

  test('burn and cut card as shoe.ts: with a source that never moves a card, every shoe is dealt like prepareShoe(orderedDecks)', () => {
    const still: UniformSource = { below: () => 0 }; // Fisher–Yates swaps each card with itself
    for (const rules of [
      { ...DEFAULT_SHOE_RULES, decks: 1, cutCardFromEnd: 10 },
      { ...DEFAULT_SHOE_RULES, decks: 3, burn: false },
    ]) {
      let shoe = prepareShoe(orderedDecks(rules.decks), rules);
      const reference = { hands: 0, player: 0, banker: 0, tie: 0 };
      for (;;) {
        const dealt = dealRound(shoe);
        if (!dealt.ok) break;
        reference.hands++;
        reference[dealt.value.round.outcome]++;
        shoe = dealt.value.shoe;
      }
      const result = simulate(reference.hands * 3, rules, still);
      expect(result.ok && result.value).toMatchObject({
        shoes: 3,
        hands: reference.hands * 3,
        player: reference.player * 3,
        banker: reference.banker * 3,
        tie: reference.tie * 3,
      });
    }
  });

  test('reshuffle mode: every hand from a fresh stack, six cards shuffled each time, no burn', () => {
    const { source, asked } = recording('reshuffle');
    const result = simulate(500, { ...DEFAULT_SHOE_RULES, mode: 'reshuffle' }, source);
    expect(result.ok && result.value.shoes).toBe(500);
    expect(asked.length).toBe(500 * 6);
    expect(asked.slice(0, 7)).toEqual([312, 311, 310, 309, 308, 307, 312]);
  });

  test('frequencies agree with the exact odds and the pair probability (within 5 standard deviations)', () => {
    for (const decks of [6, 8]) {
      const hands = 1_000_000;
      const result = simulate(hands, { ...DEFAULT_SHOE_RULES, decks }, seededPrng(`frequencies ${decks}`));
      const odds = exactOdds(decks);
      if (!result.ok || !odds.ok) throw new Error('no result');
      const near = (count: number, p: number) => expect(Math.abs(count / hands - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / hands));
      for (const outcome of OUTCOMES) near(result.value[outcome], odds.value.probability[outcome]);
      // The first two cards of a hand are a pair with probability (4·decks − 1) / (52·decks − 1).
      const pair = (4 * decks - 1) / (52 * decks - 1);
      near(result.value.playerPairs, pair);
      near(result.value.bankerPairs, pair);
    }
  });

  test('bad input is an error value', () => {
    for (const hands of [-1, 1.5, Number.NaN, 2 ** 60]) {
      const r = simulate(hands, DEFAULT_SHOE_RULES, seededPrng('bad'));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('bad_hands');
    }
    const r = simulate(10, { ...DEFAULT_SHOE_RULES, decks: 9 }, seededPrng('bad'));
    expect(!r.ok && r.error.code).toBe('bad_decks');
  });
});
