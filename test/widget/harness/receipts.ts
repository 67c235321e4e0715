/**
 * Round receipts built by hand for scene tests and the screenshot harness: the engine plays the
 * cards and settles the bets, so what the scene is shown is a real round.
 */
import { cardCode } from '../../../shared/cards.ts';
import { playRoundFromCodes } from '../../../shared/round.ts';
import { settle } from '../../../shared/settle.ts';
import type { Bet } from '../../../shared/table.ts';
import type { RoundReceipt, SceneOptions } from '../../../widget/scene/index.ts';

/** Plays `codes` (shoe order) and settles `bets`; throws on bad input (test data). */
export function receiptFrom(codes: readonly string[], bets: readonly Bet[]): RoundReceipt {
  const r = playRoundFromCodes(codes);
  if (!r.ok) throw new Error(r.error.message);
  const round = r.value;
  const p = round.player.map(cardCode);
  const b = round.banker.map(cardCode);
  const cards: RoundReceipt['cards'] = [
    { code: p[0]!, hand: 'player' },
    { code: b[0]!, hand: 'banker' },
    { code: p[1]!, hand: 'player' },
    { code: b[1]!, hand: 'banker' },
    ...(p[2] ? [{ code: p[2], hand: 'player' as const }] : []),
    ...(b[2] ? [{ code: b[2], hand: 'banker' as const }] : []),
  ];
  const settlement = settle(bets, round.outcome);
  return {
    cards,
    playerTotal: round.playerTotal,
    bankerTotal: round.bankerTotal,
    outcome: round.outcome,
    natural: round.natural,
    payouts: settlement.bets,
  };
}

/** Player 2+3 draws 7 (→ 2); Banker K+6 draws 2 on a player 7 (→ 8): Banker wins 8 to 2, six cards. */
export const THIRD_CARDS = ['2S', 'KH', '3D', '6C', '7H', '2D'];
/** Player 9 natural against Banker 4+3: Player wins 9 to 7. */
export const NATURAL = ['9D', '4S', 'KC', '3H'];
/** A tie: 7 against 7, both stand. */
export const TIE = ['4C', '5H', '3S', '2D'];

export const SAMPLE_BETS: Bet[] = [
  { sector: 0, box: 'player', amount: 2_500 },
  { sector: 1, box: 'banker', amount: 7_000 },
  { sector: 1, box: 'tie', amount: 500 },
  { sector: 3, box: 'player', amount: 10_000 },
];

export const HALL_1_CHIPS = [100, 500, 1_000, 2_000, 5_000, 10_000];

/** The scene's options in English, instant (reduced motion): what the scene tests mount with. */
export const SCENE_OPTIONS: SceneOptions = {
  reducedMotion: true,
  labels: {
    player: 'Player',
    banker: 'Banker',
    tie: 'Tie',
    pays: { player: 'Pays 1 to 1', banker: 'Pays 19 to 20', tie: 'Pays 8 to 1' },
  },
  formatAmount: (minor) => (minor / 1000).toFixed(2),
  limitsText: '0.10 – 10.00',
};
