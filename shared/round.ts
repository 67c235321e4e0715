/**
 * One round of Punto Banco: deal order Player, Banker, Player, Banker; naturals; the Player's and
 * the Banker's third-card rules (RULES.md "The deal"); the outcome. Every consumer (simulation,
 * odds, the Worker, the verifier) decides draws through `playerDraws` and `bankerDraws`.
 */
import { type Card, CARD_POINTS, CARDS_PER_DECK, cardCode, type CardCode, parseCard } from './cards.ts';
import { type EngineError, fail, ok, type Result } from './errors.ts';

export type Outcome = 'player' | 'banker' | 'tie';
export const OUTCOMES: readonly Outcome[] = ['player', 'banker', 'tie'];

/** The most cards one round can use. */
export const MAX_CARDS_PER_ROUND = 6;

/** A two-card total of 8 or 9: nobody draws. */
export function isNatural(twoCardTotal: number): boolean {
  return twoCardTotal >= 8;
}

/** The Player draws a third card on 0–5 and stands on 6–7 (naturals are handled before). */
export function playerDraws(playerTotal: number): boolean {
  return playerTotal <= 5;
}

/**
 * BANKER_DRAWS[bankerTotal][playerThird + 1]: column 0 is "the Player stood" (no third card),
 * columns 1..10 are the point value 0..9 of the Player's third card. Straight from RULES.md.
 */
const BANKER_DRAWS: readonly (readonly boolean[])[] = (() => {
  const drawsWhenThirdIs: readonly (readonly number[])[] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], // 0: always
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], // 1: always
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], // 2: always
    [0, 1, 2, 3, 4, 5, 6, 7, 9], // 3: stands on 8
    [2, 3, 4, 5, 6, 7], // 4
    [4, 5, 6, 7], // 5
    [6, 7], // 6
    [], // 7: never
  ];
  return Array.from({ length: 10 }, (_, total) => [
    total <= 5, // the Player stood: the Banker draws on 0–5
    ...Array.from({ length: 10 }, (_, third) => (drawsWhenThirdIs[total] ?? []).includes(third)),
  ]);
})();

/** Whether the Banker draws, given its two-card total and the Player's third card's points (null: the Player stood). */
export function bankerDraws(bankerTotal: number, playerThirdPoints: number | null): boolean {
  return BANKER_DRAWS[bankerTotal]![playerThirdPoints === null ? 0 : playerThirdPoints + 1]!;
}

export function outcomeOf(playerTotal: number, bankerTotal: number): Outcome {
  return playerTotal > bankerTotal ? 'player' : bankerTotal > playerTotal ? 'banker' : 'tie';
}

/** What a round decided, whatever it was dealt from: the same fields in every view and record of a round. */
export interface RoundFacts {
  playerTotal: number;
  bankerTotal: number;
  outcome: Outcome;
  natural: boolean;
  playerPair: boolean;
  bankerPair: boolean;
}

/** RoundFacts and how many cards the round took. */
export interface RoundSummary extends RoundFacts {
  cardsUsed: number;
}

/** What one round decided. Card positions are indices into the card source the round read. */
export interface Round extends RoundSummary {
  player: Card[];
  banker: Card[];
  /** Position of each card in the source, in the order dealt (P, B, P, B, [P3], [B3]). */
  positions: number[];
}

/** A round's cards in the order dealt (P, B, P, B, [P3], [B3]), each with its hand: the order of `positions`. */
export function dealtOrder(round: Pick<Round, 'player' | 'banker'>): { card: Card; hand: 'player' | 'banker' }[] {
  const { player, banker } = round;
  const dealt: { card: Card; hand: 'player' | 'banker' }[] = [
    { card: player[0]!, hand: 'player' },
    { card: banker[0]!, hand: 'banker' },
    { card: player[1]!, hand: 'player' },
    { card: banker[1]!, hand: 'banker' },
  ];
  if (player.length === 3) dealt.push({ card: player[2]!, hand: 'player' });
  if (banker.length === 3) dealt.push({ card: banker[2]!, hand: 'banker' });
  return dealt;
}

/** The facts of a round, in the order records list them. */
export function roundFacts(round: RoundFacts): RoundFacts {
  return {
    playerTotal: round.playerTotal,
    bankerTotal: round.bankerTotal,
    outcome: round.outcome,
    natural: round.natural,
    playerPair: round.playerPair,
    bankerPair: round.bankerPair,
  };
}

/**
 * Plays one round from `cards` starting at `start`, in shoe order. The caller guarantees that
 * six cards are available (the cut card sits at least six cards from the end of every shoe).
 */
export function playRound(cards: ArrayLike<Card>, start = 0): Round {
  const pos: number[] = [start, start + 1, start + 2, start + 3];
  let next = start + 4;
  const player: Card[] = [cards[start]!, cards[start + 2]!];
  const banker: Card[] = [cards[start + 1]!, cards[start + 3]!];
  let pt = (points(player[0]!) + points(player[1]!)) % 10;
  let bt = (points(banker[0]!) + points(banker[1]!)) % 10;
  const natural = isNatural(pt) || isNatural(bt);
  if (!natural) {
    let playerThird: number | null = null;
    if (playerDraws(pt)) {
      const c = cards[next]!;
      player.push(c);
      pos.push(next++);
      playerThird = points(c);
      pt = (pt + playerThird) % 10;
    }
    if (bankerDraws(bt, playerThird)) {
      const c = cards[next]!;
      banker.push(c);
      pos.push(next++);
      bt = (bt + points(c)) % 10;
    }
  }
  return {
    player,
    banker,
    positions: pos,
    playerTotal: pt,
    bankerTotal: bt,
    outcome: outcomeOf(pt, bt),
    natural,
    playerPair: sameRank(player[0]!, player[1]!),
    bankerPair: sameRank(banker[0]!, banker[1]!),
    cardsUsed: next - start,
  };
}

/** A pair is two first cards of the same rank (suits may differ). */
function sameRank(a: Card, b: Card): boolean {
  return a % 13 === b % 13;
}

function points(card: Card): number {
  return CARD_POINTS[card % CARDS_PER_DECK]!;
}

export type RoundInputErrorCode = 'bad_card' | 'not_enough_cards';

/**
 * Plays a round from card codes in shoe order (`9S,KH,4D,TC,AH,2D`). Extra cards after the round
 * are ignored; `cardsUsed` says how many it took.
 */
export function playRoundFromCodes(codes: readonly string[]): Result<Round, EngineError<RoundInputErrorCode>> {
  const cards: Card[] = [];
  for (const code of codes) {
    const card = parseCard(code);
    if (card === null) return fail('bad_card', `"${code}" is not a card: use a rank A 2-9 T J Q K and a suit S H D C, like 9S or KH`);
    cards.push(card);
  }
  if (cards.length < 4) return fail('not_enough_cards', `a round needs at least 4 cards, got ${cards.length}`);
  const needed = cardsNeeded(cards);
  if (cards.length < needed) return fail('not_enough_cards', `these cards need ${needed} cards for the round, got ${cards.length}`);
  return ok(playRound(cards));
}

/** How many cards the round starting with these cards needs (4, 5 or 6), reading only what it must. */
function cardsNeeded(cards: readonly Card[]): number {
  const pt = (points(cards[0]!) + points(cards[2]!)) % 10;
  const bt = (points(cards[1]!) + points(cards[3]!)) % 10;
  if (isNatural(pt) || isNatural(bt)) return 4;
  if (!playerDraws(pt)) return bankerDraws(bt, null) ? 5 : 4;
  if (cards.length < 5) return 5;
  return bankerDraws(bt, points(cards[4]!)) ? 6 : 5;
}

/** The external (JSON) view of a round, with card codes. */
export interface RoundView extends RoundSummary {
  player: CardCode[];
  banker: CardCode[];
}

export function roundView(round: Round): RoundView {
  return { player: round.player.map(cardCode), banker: round.banker.map(cardCode), ...roundFacts(round), cardsUsed: round.cardsUsed };
}
