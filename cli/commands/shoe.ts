/**
 * `punto-banco shoe --server-seed HEX --client-seed TEXT [--cut N] [--decks N] [--json]`: derives a
 * shoe exactly as the Worker does (FAIRNESS.md): the commitment of the server seed, and the full
 * card order after the shuffle and the player's cut, with the burn and the cut card marked. With
 * the seed a shoe reveals, anyone can re-derive its cards here.
 */
import {
  cardCode,
  CARDS_PER_DECK,
  cutRange,
  FAIR1_DEFAULT_SHOE_PARAMS,
  deriveFair1Shoe,
  MAX_DECKS,
  MIN_DECKS,
  fair1SeedCommitment,
  type Fair1ShoeParams,
  validateClientSeed,
} from '../../shared/index.ts';
import { intOption, parseArgs, UsageError } from '../args.ts';

export const summary = 'the commitment and the full card order of a seeded shoe (as the Worker deals it)';

export const help = `usage: punto-banco shoe --server-seed HEX --client-seed TEXT [--cut N] [--decks N] [--json]

Derives a shoe as FAIRNESS.md specifies: HMAC-SHA256 stream keyed by the server seed, Fisher-Yates
over all ${CARDS_PER_DECK} x decks cards, the player's cut, then the burn and the cut card. Prints the seed's
commitment (what the Worker publishes before play) and every card in dealing order.

  --server-seed HEX    the server seed: 64 hex characters (revealed when a shoe ends)
  --client-seed TEXT   the player's seed: 1 to 128 characters
  --cut N              where the player cut: 1 to ${CARDS_PER_DECK} x decks - 1 (default: half the stack)
  --decks N            ${MIN_DECKS} to ${MAX_DECKS} (default ${FAIR1_DEFAULT_SHOE_PARAMS.decks}); the burn is on and the cut card
                       sits ${FAIR1_DEFAULT_SHOE_PARAMS.cutCardFromEnd} cards from the end, as at the Worker's tables
  --json               print JSON: commitment, params, clientSeed, cut, burned, cutCardAt, cards

Text: cards in rows of 13 with their positions; burned cards in (parentheses), "|" before the card
at the cut card. Exit 0, or 2 on a usage error.`;

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, { values: ['server-seed', 'client-seed', 'cut', 'decks'], flags: ['json'] });
  const rawSeed = parsed.values['server-seed'];
  if (rawSeed === undefined) throw new UsageError('--server-seed HEX is required');
  const serverSeed = rawSeed.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(serverSeed)) throw new UsageError(`--server-seed must be 64 hex characters (32 bytes), got ${rawSeed.length} characters`);
  const rawClient = parsed.values['client-seed'];
  if (rawClient === undefined) throw new UsageError('--client-seed TEXT is required');
  const client = validateClientSeed(rawClient);
  if (!client.ok) throw new UsageError(`--client-seed: ${client.error.message}`);
  const decks = intOption(parsed, 'decks', MIN_DECKS, MAX_DECKS, FAIR1_DEFAULT_SHOE_PARAMS.decks);
  const params: Fair1ShoeParams = { ...FAIR1_DEFAULT_SHOE_PARAMS, decks };
  const range = cutRange(params);
  const cut = intOption(parsed, 'cut', range.min, range.max, Math.floor((range.max + 1) / 2));

  const shoe = deriveFair1Shoe(params, serverSeed, client.value, cut);
  const cards = shoe.cards.map(cardCode);
  const commitment = fair1SeedCommitment(serverSeed);
  if (parsed.flags.has('json')) {
    console.log(JSON.stringify({ commitment, params, clientSeed: client.value, cut, burned: shoe.burned, cutCardAt: shoe.cutCardAt, cards }));
    return 0;
  }
  const lines = [
    `commitment   ${commitment}`,
    `params       ${decks} deck${decks === 1 ? '' : 's'}, burn on, cut card ${params.cutCardFromEnd} from the end, mode ${params.mode}, ${params.algorithm}`,
    `client seed  ${JSON.stringify(client.value)}${client.value === rawClient ? '' : ' (normalised to NFC)'}`,
    `cut          ${cut} (of ${range.min}-${range.max})`,
    `burned       ${shoe.burned} card${shoe.burned === 1 ? '' : 's'}: ${cards[0]} turned${shoe.burned > 1 ? `, ${shoe.burned - 1} more` : ''} (positions 0-${shoe.burned - 1})`,
    `cut card     before position ${shoe.cutCardAt}: the round that reaches it is the shoe's last`,
    '',
  ];
  for (let row = 0; row < cards.length; row += 13) {
    const cells = cards.slice(row, row + 13).map((code, i) => {
      const at = row + i;
      const text = at < shoe.burned ? `(${code})` : ` ${code} `;
      return at === shoe.cutCardAt ? `|${text.slice(1)}` : text;
    });
    lines.push(`${String(row).padStart(4)}  ${cells.join('')}`.trimEnd());
  }
  console.log(lines.join('\n'));
  return 0;
}
