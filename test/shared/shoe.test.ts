import { describe, expect, test } from 'vitest';
import { type Card, orderedDecks, parseCard } from '../../shared/cards.ts';
import { seededPrng } from '../../shared/prng.ts';
import {
  burnCount,
  cardsDealtThrough,
  burnedCards,
  cutCardIndex,
  cutStack,
  dealRound,
  DEFAULT_SHOE_RULES,
  defaultShoeRules,
  MAX_BURN,
  newShoe,
  nextRoundIsLast,
  prepareShoe,
  type Shoe,
  type ShoeRules,
  shoeEnded,
  shuffleCards,
  validateCut,
  validateShoeRules,
} from '../../shared/shoe.ts';

const card = (code: string): Card => parseCard(code)!;

/** A one-deck stack that starts with `codes` and holds the rest of the deck after them. */
function stackStarting(codes: string[]): Card[] {
  const rest = orderedDecks(1);
  const head = codes.map((code) => {
    const c = card(code);
    rest.splice(rest.indexOf(c), 1);
    return c;
  });
  return [...head, ...rest];
}

/** Deals every round of a shoe; returns the rounds' start positions, the last Dealt and the ended shoe. */
function dealAll(shoe: Shoe) {
  const starts: number[] = [];
  const cutOut: boolean[] = [];
  let current = shoe;
  for (;;) {
    const dealt = dealRound(current);
    if (!dealt.ok) return { starts, cutOut, shoe: current, error: dealt.error };
    starts.push(current.next);
    cutOut.push(dealt.value.cutCardOut);
    expect(dealt.value.round.positions[0]).toBe(current.next);
    current = dealt.value.shoe;
  }
}

describe('shoe rules', () => {
  test('the default: 6 decks, burn on, cut card 16 from the end, dealt to the cut card', () => {
    expect(DEFAULT_SHOE_RULES).toEqual({ decks: 6, burn: true, cutCardFromEnd: 16, mode: 'shoe' });
    expect(validateShoeRules(DEFAULT_SHOE_RULES).ok).toBe(true);
  });

  test.each<[string, Partial<ShoeRules>, string]>([
    ['0 decks', { decks: 0 }, 'bad_decks'],
    ['9 decks', { decks: 9 }, 'bad_decks'],
    ['1.5 decks', { decks: 1.5 }, 'bad_decks'],
    ['unknown mode', { mode: 'casino' as ShoeRules['mode'] }, 'bad_mode'],
    ['cut card too near the end', { cutCardFromEnd: 5 }, 'bad_cut_card'],
    ['cut card too near the start', { cutCardFromEnd: 312 - MAX_BURN - 6 + 1 }, 'bad_cut_card'],
    ['fractional cut card', { cutCardFromEnd: 15.5 }, 'bad_cut_card'],
  ])('%s → %s', (_name, change, code) => {
    const result = validateShoeRules({ ...DEFAULT_SHOE_RULES, ...change });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe(code);
  });

  test('every deck count 1–8 and the cut card range edges are accepted', () => {
    for (let decks = 1; decks <= 8; decks++) {
      const size = decks * 52;
      for (const cutCardFromEnd of [6, size - MAX_BURN - 6]) {
        expect(validateShoeRules({ ...DEFAULT_SHOE_RULES, decks, cutCardFromEnd }).ok).toBe(true);
      }
    }
  });
});

describe('shuffle and the player cut', () => {
  test('Fisher–Yates asks for n, n−1, …, 2 and leaves its input alone', () => {
    const asked: number[] = [];
    const input = [0, 1, 2, 3, 4];
    const out = shuffleCards(input, (n) => {
      asked.push(n);
      return 0;
    });
    expect(asked).toEqual([5, 4, 3, 2]);
    expect(input).toEqual([0, 1, 2, 3, 4]);
    expect(out).toEqual([1, 2, 3, 4, 0]);
  });

  test('every order of three cards comes out about equally often', () => {
    const random = seededPrng('shuffle uniformity').randomBelow;
    const counts = new Map<string, number>();
    const n = 60_000;
    for (let i = 0; i < n; i++) {
      const key = shuffleCards([0, 1, 2], random).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    const expected = n / 6;
    const chi2 = [...counts.values()].reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(20.5); // 5 degrees of freedom: p ≈ 0.001
  });

  test('validateCut: 1 to size − 1', () => {
    expect(validateCut(1, 312)).toEqual({ ok: true, value: 1 });
    expect(validateCut(311, 312)).toEqual({ ok: true, value: 311 });
    for (const bad of [0, 312, -1, 1.5, Number.NaN]) {
      const result = validateCut(bad, 312);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('bad_cut');
    }
  });

  test('the cut puts the top cards under the rest', () => {
    expect(cutStack([0, 1, 2, 3, 4], 2)).toEqual([2, 3, 4, 0, 1]);
  });

  test('newShoe: all cards of its decks, shuffled, cut; deterministic given the random source', () => {
    const rules = { ...DEFAULT_SHOE_RULES, decks: 2 };
    const a = newShoe(rules, seededPrng('s').randomBelow, 37);
    const b = newShoe(rules, seededPrng('s').randomBelow, 37);
    expect(a.cards).toEqual(b.cards);
    expect([...a.cards].sort((x, y) => x - y)).toEqual(orderedDecks(2).sort((x, y) => x - y));
    expect(a.cards).not.toEqual(orderedDecks(2));
    const uncut = shuffleCards(orderedDecks(2), seededPrng('s').randomBelow);
    expect(a.cards).toEqual(cutStack(uncut, 37));
  });
});

describe('the burn', () => {
  test.each([
    ['AS', 2],
    ['2H', 3],
    ['5D', 6],
    ['9C', 10],
    ['TS', 11],
    ['JH', 11],
    ['QD', 11],
    ['KC', 11],
  ])('turned %s: %i cards leave the shoe', (code, count) => {
    expect(burnCount(card(code))).toBe(count);
    const shoe = prepareShoe(stackStarting([code]), { ...DEFAULT_SHOE_RULES, decks: 1 });
    expect(shoe.burned).toBe(count);
    expect(shoe.next).toBe(count);
    expect(burnedCards(card(code), DEFAULT_SHOE_RULES)).toBe(count);
  });

  test('no burn when the rule is off, nor in reshuffle mode', () => {
    const stack = stackStarting(['KS']);
    expect(prepareShoe(stack, { ...DEFAULT_SHOE_RULES, decks: 1, burn: false }).next).toBe(0);
    expect(prepareShoe(stack, { ...DEFAULT_SHOE_RULES, decks: 1, mode: 'reshuffle' }).next).toBe(0);
  });

  test('the first round starts after the burned cards', () => {
    const shoe = prepareShoe(stackStarting(['3S']), { ...DEFAULT_SHOE_RULES, decks: 1 });
    const dealt = dealRound(shoe);
    expect(dealt.ok && dealt.value.round.positions[0]).toBe(4);
  });
});

describe('the cut card and the end of the shoe', () => {
  test('a round announced as the last brings the cut card out; a round with six cards to spare never does', () => {
    let announced = 0;
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const rules = defaultShoeRules('shoe', 1);
      let shoe = newShoe(rules, seededPrng(seed).randomBelow, 20);
      for (;;) {
        const left = shoe.cards.length - shoe.next;
        const last = nextRoundIsLast(left, rules.cutCardFromEnd);
        const dealt = dealRound(shoe);
        if (!dealt.ok) break;
        if (last) {
          announced++;
          expect(dealt.value.cutCardOut).toBe(true);
        }
        if (left - 6 > rules.cutCardFromEnd) expect(dealt.value.cutCardOut).toBe(false);
        shoe = dealt.value.shoe;
      }
    }
    expect(announced).toBeGreaterThan(0);
  });

  test('a new table of either mode commits the cut card in the middle of the stack', () => {
    for (const decks of [1, 6, 8]) {
      for (const mode of ['shoe', 'reshuffle'] as const) {
        const rules = defaultShoeRules(mode, decks);
        expect(rules).toEqual({ decks, burn: true, mode, cutCardFromEnd: Math.floor((52 * decks) / 2) });
        expect(validateShoeRules(rules).ok).toBe(true);
      }
    }
    // Eight decks: 208 cards before the cut card, 208 behind it.
    expect(cutCardIndex(416, defaultShoeRules('shoe', 8))).toBe(208);
    expect(defaultShoeRules('shoe').decks).toBe(DEFAULT_SHOE_RULES.decks);
  });

  test('the cut card sits cutCardFromEnd cards before the end', () => {
    expect(cutCardIndex(312, DEFAULT_SHOE_RULES)).toBe(296);
    expect(prepareShoe(orderedDecks(6), DEFAULT_SHOE_RULES).cutCardAt).toBe(296);
  });

  test('rounds are dealt until the cut card comes out; that round is finished and is the last', () => {
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const rules = { ...DEFAULT_SHOE_RULES, decks: 8, cutCardFromEnd: 14 };
      const shoe = newShoe(rules, seededPrng(seed).randomBelow, 100);
      const { starts, cutOut, shoe: ended, error } = dealAll(shoe);
      expect(error.code).toBe('shoe_ended');
      expect(starts[0]).toBe(shoe.burned);
      // Every round but the last starts and ends before the cut card; the last one starts before it and reaches it.
      for (const start of starts) expect(start).toBeLessThan(shoe.cutCardAt);
      expect(cutOut.slice(0, -1).every((out) => !out)).toBe(true);
      expect(cutOut.at(-1)).toBe(true);
      expect(ended.next).toBeGreaterThanOrEqual(shoe.cutCardAt);
      expect(ended.next).toBeLessThanOrEqual(shoe.cutCardAt + 5);
      expect(ended.rounds).toBe(starts.length);
      expect(shoeEnded(ended)).toBe(true);
      // The discard tray: everything before `next`, burned and dealt, nothing dealt twice.
      expect(starts.every((s, i) => i === 0 || s > starts[i - 1]!)).toBe(true);
    }
  });

  /** Four-card rounds: a Player natural (a 9 or an 8 with a ten) against two tens. */
  const naturalRounds = (firsts: string[]) => {
    const tens = ['T', 'J', 'Q', 'K'].flatMap((r) => ['S', 'H', 'D', 'C'].map((s) => `${r}${s}`));
    return firsts.flatMap((first) => [first, tens.pop()!, tens.pop()!, tens.pop()!]);
  };

  test('a round that ends exactly on the cut card ends the shoe', () => {
    // One deck, no burn, cut card at 20 (32 from the end): five four-card naturals.
    const rules: ShoeRules = { decks: 1, burn: false, cutCardFromEnd: 32, mode: 'shoe' };
    expect(validateShoeRules(rules).ok).toBe(true);
    const shoe = prepareShoe(stackStarting(naturalRounds(['9S', '9H', '9D', '9C', '8S'])), rules);
    expect(shoe.cutCardAt).toBe(20);
    const { starts, cutOut, shoe: ended, error } = dealAll(shoe);
    expect(starts).toEqual([0, 4, 8, 12, 16]);
    expect(cutOut).toEqual([false, false, false, false, true]);
    expect(ended.next).toBe(20);
    expect(error.code).toBe('shoe_ended');
  });

  test('a round that starts one card before the cut card is still dealt, in full', () => {
    // Cut card at 17: four naturals (cards 0–15), then a six-card round from position 16.
    const rules: ShoeRules = { decks: 1, burn: false, cutCardFromEnd: 35, mode: 'shoe' };
    expect(validateShoeRules(rules).ok).toBe(true);
    const stack = stackStarting([...naturalRounds(['9S', '9H', '9D', '9C']), 'AS', 'AH', 'AD', 'AC', '2S', '3S']);
    const { starts, cutOut, shoe } = dealAll(prepareShoe(stack, rules));
    expect(starts).toEqual([0, 4, 8, 12, 16]);
    expect(cutOut).toEqual([false, false, false, false, true]);
    expect(shoe.next).toBe(22);
  });

  test('reshuffle mode: one round per stack, from the top, then the stack is spent', () => {
    const rules: ShoeRules = { ...DEFAULT_SHOE_RULES, mode: 'reshuffle' };
    const shoe = newShoe(rules, seededPrng('r').randomBelow, 1);
    expect(shoe.next).toBe(0);
    const { starts, cutOut, error } = dealAll(shoe);
    expect(starts).toEqual([0]);
    expect(cutOut).toEqual([true]);
    expect(error.code).toBe('shoe_ended');
  });
});

describe('cardsDealtThrough', () => {
  test('the highest dealt position plus one, never below what was already gone', () => {
    expect(cardsDealtThrough([{ position: 4 }, { position: 7 }, { position: 5 }])).toBe(8);
    expect(cardsDealtThrough([], 12)).toBe(12);
    expect(cardsDealtThrough([{ position: 3 }], 12)).toBe(12);
    expect(cardsDealtThrough([])).toBe(0);
  });
});
