/**
 * `punto-banco roads [--results SEQ] [--json]`: the five scoreboards for a shoe's results
 * (`B`/`P`/`T` in shoe order; whitespace and commas ignored; stdin without `--results`).
 * JSON: `beadPlate`, `bigRoad`, `bigEyeBoy`, `smallRoad`, `cockroachPig` exactly as README.md
 * fixes them, plus `stats` and `predictions`. Text: each road drawn as a small grid.
 */
import { text as readAll } from 'node:stream/consumers';
import {
  type BigRoadEntry,
  computeRoads,
  DERIVED_ROADS,
  type DerivedRoadName,
  type DrawnRoad,
  parseRoadResults,
  ROAD_ROWS,
  type RoadColour,
  type RoadPrediction,
  type Roads,
  roadsJson,
} from '../../shared/index.ts';
import { parseArgs, UsageError } from '../args.ts';

export const summary = 'the scoreboards (Bead Plate, Big Road, derived roads) for a sequence of results';

export const help = `usage: punto-banco roads [--results SEQ] [--json]

Draws the five baccarat scoreboards for a shoe's results in order: B banker, P player, T tie.
Whitespace and commas are ignored. Without --results the sequence is read from standard input.

  --results SEQ   the results, e.g. BBPTPBB or "B,B,P,T"
  --json          print JSON: beadPlate, bigRoad, bigEyeBoy, smallRoad, cockroachPig (logical
                  columns, as in README.md), plus stats and predictions

Text legend: Big Road B/P with the tie count beside (· none, + ten or more);
derived roads r red, b blue; Bead Plate B/P/T.
Exit 0 on success, 2 on a usage error (anything other than B, P or T in the sequence).`;

const NAMES: Readonly<Record<DerivedRoadName, string>> = {
  bigEyeBoy: 'Big Eye Boy',
  smallRoad: 'Small Road',
  cockroachPig: 'Cockroach Pig',
};

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, { values: ['results'], flags: ['json'] });
  const input = parsed.values.results ?? (await readAll(process.stdin));
  const results = parseRoadResults(input);
  if (!results.ok) throw new UsageError(results.error.message);
  const roads = computeRoads(results.value);
  if (parsed.flags.has('json')) {
    console.log(JSON.stringify({ ...roadsJson(roads), stats: roads.stats, predictions: roads.predictions }));
  } else {
    console.log(renderText(roads));
  }
  return 0;
}

/** The human view: stats, every road as a grid, and the predictions. */
export function renderText(roads: Roads): string {
  const { stats } = roads;
  const lines = [
    `rounds ${stats.rounds}: banker ${stats.banker}, player ${stats.player}, tie ${stats.tie}; ` +
      `naturals ${stats.naturals}, player pairs ${stats.playerPairs}, banker pairs ${stats.bankerPairs}`,
    '',
    'Bead Plate',
    ...drawGrid(
      {
        rows: ROAD_ROWS,
        columns: Math.ceil(roads.beadPlate.length / ROAD_ROWS),
        cells: roads.beadPlate.map((c) => ({ column: c.column, row: c.row, value: c.outcome[0]!.toUpperCase() })),
      },
      1,
    ),
    '',
    'Big Road',
    ...drawGrid(mapRoad(roads.bigRoad.drawn, bigRoadCell, roads.bigRoad.pendingTies), 2),
  ];
  for (const name of DERIVED_ROADS) {
    lines.push('', NAMES[name], ...drawGrid(mapRoad(roads[name].drawn, colourCell), 1));
  }
  lines.push('', `ask banker: ${describe(roads.predictions.banker)}`, `ask player: ${describe(roads.predictions.player)}`);
  return lines.join('\n');
}

interface TextGrid {
  rows: number;
  columns: number;
  cells: { column: number; row: number; value: string }[];
}

function mapRoad<T>(road: DrawnRoad<T>, show: (value: T) => string, pendingTies = 0): TextGrid {
  const cells = road.cells.map((c) => ({ column: c.column, row: c.row, value: show(c.value) }));
  // A shoe of ties only so far: the ties wait in the first cell.
  if (pendingTies > 0) cells.push({ column: 0, row: 0, value: ` ${tieMark(pendingTies)}` });
  return { rows: road.rows, columns: Math.max(road.columns, pendingTies > 0 ? 1 : 0), cells };
}

function bigRoadCell(entry: BigRoadEntry): string {
  return `${entry.winner === 'banker' ? 'B' : 'P'}${entry.ties > 0 ? tieMark(entry.ties) : '·'}`;
}

function tieMark(ties: number): string {
  return ties > 9 ? '+' : String(ties);
}

function colourCell(colour: RoadColour): string {
  return colour === 'red' ? 'r' : 'b';
}

/** Rows of text, each cell `width` characters, empty cells as dots; "(empty)" for no cells. */
function drawGrid(grid: TextGrid, width: number): string[] {
  if (grid.columns === 0) return ['  (empty)'];
  const rows = Array.from({ length: grid.rows }, () => Array.from({ length: grid.columns }, () => '.'.padEnd(width)));
  for (const cell of grid.cells) rows[cell.row]![cell.column] = cell.value.padEnd(width);
  return rows.map((row) => `  ${row.join(' ')}`.trimEnd());
}

function describe(prediction: RoadPrediction): string {
  return DERIVED_ROADS.map((name) => `${NAMES[name]} ${prediction[name] ?? '-'}`).join(', ');
}
