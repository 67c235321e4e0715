/**
 * English strings of <punto-banco-table>. Every other catalog has exactly these keys (checked by
 * test/widget/i18n.test.ts). Amounts arrive already formatted by Intl.NumberFormat; {{box}} is an
 * already translated box name, {{sector}} is 1-based.
 */
import { PANEL_STRINGS } from '../panels/strings.ts';

export const en = {
  table: 'Punto Banco table',
  loading: 'Loading the table…',
  box: { player: 'Player', banker: 'Banker', tie: 'Tie' },
  pays: { player: 'pays 1 to 1', banker: 'pays 0.95 to 1', tie: 'pays 8 to 1' },
  sector: 'Sector {{sector}}',
  boxLabel: '{{box}}, sector {{sector}}, no bet',
  boxLabelBet: '{{box}}, sector {{sector}}, bet {{amount}}',
  chips: 'Chips',
  chip: 'Chip {{amount}}',
  controls: 'Table controls',
  deal: 'Deal',
  repeat: 'Repeat',
  clear: 'Clear',
  undo: 'Undo',
  double: 'Double',
  retry: 'Retry',
  dismiss: 'Dismiss',
  balance: 'Balance',
  bet: 'Bet',
  win: 'Win',
  limits: 'Limits {{min}} – {{max}}',
  shoe: 'Shoe {{number}}',
  cardsLeft: '{{count}} cards left',
  status: {
    loading: 'Loading the table…',
    ready: 'Place your bets',
    betting: 'Bets placed: {{amount}}. Press Deal.',
    dealing: 'Dealing…',
    settled: 'Place your bets for the next round',
    error: 'Something went wrong',
  },
  result: {
    player: 'Player wins, {{player}} to {{banker}}',
    banker: 'Banker wins, {{banker}} to {{player}}',
    tie: 'Tie, {{player}} to {{banker}}',
  },
  banner: { player: 'Player wins', banker: 'Banker wins', tie: 'Tie' },
  natural: 'Natural',
  // The felt: the pill on a stake a tie hands back, the name on the discard tray.
  felt: { returned: 'Returned', discard: 'Discard' },
  net: {
    win: 'You win {{amount}}',
    lose: 'You lose {{amount}}',
    even: 'You break even',
    push: 'Your bets are returned',
  },
  newShoe: 'The cut card came out: a new shoe is ready',
  betPlaced: '{{box}}, sector {{sector}}: {{amount}}',
  betRemoved: '{{box}}, sector {{sector}}: bet removed',
  betsCleared: 'All bets cleared',
  nothingToRepeat: 'There is no previous round to repeat',
  nothingToUndo: 'Nothing to undo',
  noBets: 'There are no bets to double',
  errors: {
    unreachable: 'The table server cannot be reached. Your bets are kept: try again.',
    session_expired: 'Your table session has expired. Retry to open a new one; your bets are kept.',
    rate_limited: 'Too many requests. Wait a moment, then retry.',
    server: 'The table server could not complete the request ({{code}}).',
    empty_bet: 'Place at least one bet before the deal.',
    under_minimum: '{{box}} in sector {{sector}} would be {{amount}}, under the table minimum of {{limit}}.',
    over_maximum: '{{box}} in sector {{sector}} would be {{amount}}, over the table maximum of {{limit}}.',
    over_type_limit: 'All {{box}} bets together would be {{amount}}, over the table maximum of {{limit}}.',
    fourth_sector: 'You may bet in at most 3 sectors at once: sector {{sector}} would be the fourth.',
    insufficient_balance: 'Your bets would total {{amount}}, more than your balance of {{balance}}.',
    amount_off_step: 'Every bet must be a multiple of {{limit}}.',
    invalid_bet: 'That bet is not allowed at this table.',
  },
  // The panels around the table (scoreboard, history, fairness, help) and their drawer.
  drawer: {
    label: 'Table panels',
    scoreboard: 'Scoreboard',
    history: 'History',
    fairness: 'Fairness',
    help: 'Help',
    close: 'Close',
    loading: 'Loading…',
    loadFailed: 'This panel could not be loaded. Close it and open it again to retry.',
    invite: 'Shoe {{number}} is shuffled and sealed. Cut it yourself, or just bet and deal for a random cut.',
    cutNow: 'Cut the cards',
    dealHint: 'No need to cut: the first Deal starts this shoe with the seed and cut shown above.',
    shown: 'Shoe {{number}} · rounds played: {{rounds}}',
    shownEnded: 'Shoe {{number}} (ended) · rounds played: {{rounds}}',
    shoes: 'Shoes',
    shoeToCut: 'Shoe {{number}} · to cut',
    shoeNow: 'Shoe {{number}} · in play',
    shoeRevealed: 'Shoe {{number}} · revealed',
    endFailed: 'The shoe could not be ended: {{reason}}',
  },
  rooms: { 'hall-1': 'Hall 1', 'hall-2': 'Hall 2', vip: 'VIP' },
  panels: PANEL_STRINGS,
} as const;

/** The shape every catalog must have: the same keys, any strings. */
export type Catalog = DeepStrings<typeof en>;
type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
