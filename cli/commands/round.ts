/** `punto-banco round`: resolve rounds from given cards (shared/round.ts), one or a stream of them. */
import { createInterface } from 'node:readline';
import { parseArgs, UsageError } from '../args.ts';
import { playRoundFromCodes, type Round, roundView, type RoundView } from '../../shared/round.ts';

export const summary = 'play a round from given cards (or one per line on stdin)';

export const help = `usage: punto-banco round [--cards CODES] [--json]

Plays one round from cards in shoe order (dealt Player, Banker, Player, Banker, then third cards).
Codes are a rank A 2-9 T J Q K and a suit S H D C, separated by commas or spaces:
  punto-banco round --cards 9S,KH,4D,TC,AH,2D
Cards after the round's last are ignored.

Without --cards, reads one round per line from stdin and prints one JSON object per line:
"player", "banker" (card codes), "playerTotal", "bankerTotal", "outcome" (player|banker|tie),
"natural", "playerPair", "bankerPair" and "cardsUsed". A line that is no round gets
{"line": N, "error": {"code", "message"}} and the exit code is 1 at the end. Blank lines are skipped.

options:
  --cards CODES  the cards of one round
  --json         print the round as one JSON object`;

/** Splits a line of card codes: commas and/or whitespace. */
function codesOf(text: string): string[] {
  return text.split(/[\s,]+/).filter((code) => code !== '');
}

function roundTable(round: Round, view: RoundView): string {
  const hands: Array<[string, string, number]> = [
    ['player', view.player.join(' '), round.playerTotal],
    ['banker', view.banker.join(' '), round.bankerTotal],
  ];
  const width = Math.max(5, ...hands.map(([, cards]) => cards.length));
  const winner = round.outcome === 'tie' ? 'tie' : `${round.outcome} wins`;
  return [
    `${'hand'.padEnd(6)}  ${'cards'.padEnd(width)}  total`,
    ...hands.map(([name, cards, total]) => `${name.padEnd(6)}  ${cards.padEnd(width)}  ${total}`),
    '',
    `${winner}${round.natural ? ' (natural)' : ''}; ${round.cardsUsed} cards used`,
  ].join('\n');
}

/** Batch mode: one JSON line out per round line in. Returns the exit code. */
async function streamRounds(): Promise<number> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let lineNumber = 0;
  let failed = false;
  let out: string[] = [];
  for await (const line of lines) {
    lineNumber++;
    const codes = codesOf(line);
    if (codes.length === 0) continue;
    const round = playRoundFromCodes(codes);
    if (round.ok) {
      out.push(JSON.stringify(roundView(round.value)));
    } else {
      failed = true;
      out.push(JSON.stringify({ line: lineNumber, error: round.error }));
    }
    if (out.length >= 1024) {
      process.stdout.write(out.join('\n') + '\n');
      out = [];
    }
  }
  if (out.length > 0) process.stdout.write(out.join('\n') + '\n');
  return failed ? 1 : 0;
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, { values: ['cards'], flags: ['json'] });
  const cards = parsed.values['cards'];
  if (cards === undefined) {
    if (process.stdin.isTTY) throw new UsageError('give --cards CODES, or pipe one round per line on stdin');
    return streamRounds();
  }
  const round = playRoundFromCodes(codesOf(cards));
  if (!round.ok) throw new UsageError(round.error.message);
  const view = roundView(round.value);
  console.log(parsed.flags.has('json') ? JSON.stringify(view) : roundTable(round.value, view));
  return 0;
}
