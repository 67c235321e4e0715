/**
 * The five standard baccarat scoreboards ("roads") from a shoe's results in order: Bead Plate,
 * Big Road, and the three derived roads Big Eye Boy, Small Road and Cockroach Pig; plus the shoe's
 * statistics and the "ask banker / ask player" predictions.
 *
 * Two representations, kept apart on purpose:
 * - LOGICAL columns: a Big Road column is one unbroken run of the same winner, however long; a
 *   derived-road column is one unbroken run of the same colour. Every rule reads these, and the
 *   JSON of `punto-banco roads` (README.md, "The `punto-banco` command") is these.
 * - DRAWN grids: the same columns laid out on a board of 6 rows. A run that would pass the bottom
 *   row, or that meets a filled cell below it, turns right (the "dragon tail"). Drawing only: no
 *   rule ever reads a drawn coordinate.
 *
 * Sources for the rules (public material, paraphrased):
 * - Big Road ties and the tie-before-the-first-decision case: World Gaming Magazine #55 (2018/02),
 *   "Big Road", pp. 16–17 (wgm8.com): a tie is a green line on the latest circle; ties before the
 *   first Banker/Player win are drawn in the first cell, and the first circle is drawn over them.
 * - Dragon tail: the Wizard of Odds "Baccarat Score Boards" page (its text is also quoted on mirror
 *   pages): a streak that bumps into a dragon along the bottom turns right at once, whatever row it
 *   is in, and makes a new dragon.
 * - Derived roads, start cells and colours: the "Introduction To Baccarat Road" rules
 *   (github.com/jsopen/static, game_rules/markdowns/road_en-us.md): Big Eye Boy starts at Big Road
 *   column 2 row 2, else column 3 row 1; Small Road at column 3 row 2, else column 4 row 1, comparing
 *   a column with the one two back; Cockroach (Bug) Road at column 4 row 2, else column 5 row 1,
 *   three back. A new Big Road column ("swap") is red when the two columns before it, at the road's
 *   distance, are "neat" (equally long), blue otherwise. A result that goes down ("down") is red
 *   when the compared column has a cell level with it, or is a "straight drop" (no cell level with
 *   it nor one above that), blue when it has none level with it but one just above. WGM #56
 *   (2018/03) p. 22 names the three "down" cases the same way: cell to the left full → red; empty
 *   but the cell above it full (the current run is now exactly one longer) → blue; both empty → red.
 *   The same site's "next round is banker/player" simulation is `predictions` here.
 */
import { type EngineError, fail, ok, type Result } from './errors.ts';
import type { Outcome } from './round.ts';

/** Rows of every drawn road, as on casino boards. */
export const ROAD_ROWS = 6;

/** One result of the shoe, in shoe order. A `Round` from round.ts fits as it is. */
export interface RoadResult {
  outcome: Outcome;
  playerPair?: boolean;
  bankerPair?: boolean;
  natural?: boolean;
}

export type BigRoadWinner = 'banker' | 'player';
/** Red: the Big Road is repeating its shape ("regular"); blue: it is not ("choppy"). */
export type RoadColour = 'red' | 'blue';

/** One cell of a drawn road: where it is drawn, and which logical cell it shows. */
export interface DrawnCell<T> {
  column: number;
  row: number;
  logicalColumn: number;
  logicalRow: number;
  /** True when the cell is part of a dragon tail (drawn to the right of its run's first cell). */
  tail: boolean;
  value: T;
}

/** A road laid out on a grid of `rows` rows and `columns` columns (the width in use). */
export interface DrawnRoad<T> {
  rows: number;
  columns: number;
  cells: DrawnCell<T>[];
}

/** A Bead Plate cell: every round, ties included, filled down 6 rows then on to the next column. */
export interface BeadCell {
  /** Index of the round in the shoe, from 0. */
  index: number;
  column: number;
  row: number;
  outcome: Outcome;
  playerPair: boolean;
  bankerPair: boolean;
  natural: boolean;
}

/** A Big Road cell: one Banker or Player win, with the ties that followed it marked on it. */
export interface BigRoadEntry {
  winner: BigRoadWinner;
  /** Ties marked on this cell: those after it, and on the first cell also those before it. */
  ties: number;
  /** Pair markers of this cell's own round (pairs of tie rounds show on the Bead Plate only). */
  playerPair: boolean;
  bankerPair: boolean;
  natural: boolean;
}

export interface BigRoad {
  /** Logical columns: one per run of the same winner, however long. */
  columns: BigRoadEntry[][];
  /** How many of the first entry's ties came before it (they are drawn in the first cell too). */
  leadingTies: number;
  /**
   * Ties with no Banker/Player win yet to carry them (a shoe of ties only so far). Draw them in
   * the first cell (column 0, row 0); they move onto the first entry once it comes.
   */
  pendingTies: number;
  /** The columns laid out with dragon tails. */
  drawn: DrawnRoad<BigRoadEntry>;
}

/** A derived road: one colour per Big Road entry from its start cell on. */
export interface DerivedRoad {
  /** Colours in the order they were added. */
  marks: RoadColour[];
  /** Logical columns: one per run of the same colour. */
  columns: RoadColour[][];
  drawn: DrawnRoad<RoadColour>;
}

export interface RoadStats {
  rounds: number;
  banker: number;
  player: number;
  tie: number;
  naturals: number;
  playerPairs: number;
  bankerPairs: number;
}

export type DerivedRoadName = 'bigEyeBoy' | 'smallRoad' | 'cockroachPig';

/** How many columns back each derived road compares (its "distance"). */
export const DERIVED_ROAD_DISTANCE: Readonly<Record<DerivedRoadName, number>> = {
  bigEyeBoy: 1,
  smallRoad: 2,
  cockroachPig: 3,
};
export const DERIVED_ROADS: readonly DerivedRoadName[] = ['bigEyeBoy', 'smallRoad', 'cockroachPig'];

/** The colour each derived road would add if the next result were this winner (null: none yet). */
export type RoadPrediction = Record<DerivedRoadName, RoadColour | null>;

export interface Roads {
  beadPlate: BeadCell[];
  bigRoad: BigRoad;
  bigEyeBoy: DerivedRoad;
  smallRoad: DerivedRoad;
  cockroachPig: DerivedRoad;
  stats: RoadStats;
  /** "Ask banker / ask player": what the derived roads would add next. A tie adds nothing. */
  predictions: Record<BigRoadWinner, RoadPrediction>;
}

/** Every scoreboard for `results` in shoe order. `rows` is the drawn height (6 on casino boards). */
export function computeRoads(results: readonly RoadResult[], rows: number = ROAD_ROWS): Roads {
  const bigRoad = buildBigRoad(results, rows);
  const lengths = bigRoad.columns.map((column) => column.length);
  return {
    beadPlate: buildBeadPlate(results, rows),
    bigRoad,
    bigEyeBoy: buildDerivedRoad(lengths, DERIVED_ROAD_DISTANCE.bigEyeBoy, rows),
    smallRoad: buildDerivedRoad(lengths, DERIVED_ROAD_DISTANCE.smallRoad, rows),
    cockroachPig: buildDerivedRoad(lengths, DERIVED_ROAD_DISTANCE.cockroachPig, rows),
    stats: roadStats(results),
    predictions: {
      banker: predictNext(bigRoad.columns, 'banker'),
      player: predictNext(bigRoad.columns, 'player'),
    },
  };
}

/** The Bead Plate: each round in order, column-major on `rows` rows. */
export function buildBeadPlate(results: readonly RoadResult[], rows: number = ROAD_ROWS): BeadCell[] {
  return results.map((result, index) => ({
    index,
    column: Math.floor(index / rows),
    row: index % rows,
    outcome: result.outcome,
    playerPair: result.playerPair === true,
    bankerPair: result.bankerPair === true,
    natural: result.natural === true,
  }));
}

/** The Big Road: logical columns of wins, ties marked on the latest win, and its drawn grid. */
export function buildBigRoad(results: readonly RoadResult[], rows: number = ROAD_ROWS): BigRoad {
  const columns: BigRoadEntry[][] = [];
  let last: BigRoadEntry | undefined;
  let pendingTies = 0;
  let leadingTies = 0;
  for (const result of results) {
    if (result.outcome === 'tie') {
      if (last) last.ties++;
      else pendingTies++;
      continue;
    }
    const entry: BigRoadEntry = {
      winner: result.outcome,
      ties: 0,
      playerPair: result.playerPair === true,
      bankerPair: result.bankerPair === true,
      natural: result.natural === true,
    };
    if (!last) {
      // Ties before the first decision stay on the first cell (WGM #55).
      entry.ties = leadingTies = pendingTies;
      pendingTies = 0;
    }
    const current = columns[columns.length - 1];
    if (current && last?.winner === entry.winner) current.push(entry);
    else columns.push([entry]);
    last = entry;
  }
  return { columns, leadingTies, pendingTies, drawn: drawColumns(columns, rows) };
}

/**
 * The colour a derived road at `distance` (1 Big Eye Boy, 2 Small Road, 3 Cockroach Pig) gives the
 * Big Road entry at logical (`column`, `row`), or null before the road's start cell.
 * `lengths[i]` is the length of Big Road column i; only columns before `column` are read, and
 * those are complete by the time an entry in `column` is added.
 */
export function derivedColour(lengths: readonly number[], column: number, row: number, distance: number): RoadColour | null {
  if (row === 0) {
    // A new column: are the two columns before it, `distance` apart, equally long ("neat")?
    if (column < distance + 1) return null;
    return lengths[column - 1] === lengths[column - 1 - distance] ? 'red' : 'blue';
  }
  if (column < distance) return null;
  // Going down: the compared column has a cell level with this one (red), ends exactly one above
  // it (blue), or ended two or more above ("straight drop", red).
  return lengths[column - distance] === row ? 'blue' : 'red';
}

/** A derived road from the lengths of the logical Big Road columns. */
export function buildDerivedRoad(lengths: readonly number[], distance: number, rows: number = ROAD_ROWS): DerivedRoad {
  const marks: RoadColour[] = [];
  lengths.forEach((length, column) => {
    for (let row = 0; row < length; row++) {
      const colour = derivedColour(lengths, column, row, distance);
      if (colour) marks.push(colour);
    }
  });
  const columns = groupRuns(marks);
  return { marks, columns, drawn: drawColumns(columns, rows) };
}

/** What each derived road would add if the next result were `winner` ("ask banker/player"). */
export function predictNext(columns: readonly (readonly BigRoadEntry[])[], winner: BigRoadWinner): RoadPrediction {
  const lengths = columns.map((column) => column.length);
  const lastIndex = lengths.length - 1;
  const lastWinner = columns[lastIndex]?.[0]?.winner;
  // Where the next entry would go: further down the last column, or at the top of a new one.
  const [column, row] = lastWinner === winner ? [lastIndex, lengths[lastIndex]!] : [lastIndex + 1, 0];
  const prediction = {} as RoadPrediction;
  for (const name of DERIVED_ROADS) prediction[name] = derivedColour(lengths, column, row, DERIVED_ROAD_DISTANCE[name]);
  return prediction;
}

export function roadStats(results: readonly RoadResult[]): RoadStats {
  const stats: RoadStats = { rounds: results.length, banker: 0, player: 0, tie: 0, naturals: 0, playerPairs: 0, bankerPairs: 0 };
  for (const result of results) {
    stats[result.outcome]++;
    if (result.natural) stats.naturals++;
    if (result.playerPair) stats.playerPairs++;
    if (result.bankerPair) stats.bankerPairs++;
  }
  return stats;
}

/**
 * Lays logical columns out on a grid of `rows` rows. Each column starts at row 0 one column right
 * of where the previous one started (further right if a tail already fills that cell) and goes
 * down; when the next cell down is past the last row or already filled, the run turns right and
 * stays on that row: the dragon tail.
 */
export function drawColumns<T>(columns: readonly (readonly T[])[], rows: number = ROAD_ROWS): DrawnRoad<T> {
  const filled = new Set<number>();
  const key = (column: number, row: number) => column * rows + row;
  const cells: DrawnCell<T>[] = [];
  let width = 0;
  let start = -1;
  columns.forEach((values, logicalColumn) => {
    start++;
    while (filled.has(key(start, 0))) start++;
    let column = start;
    let row = 0;
    values.forEach((value, logicalRow) => {
      if (logicalRow > 0) {
        if (column === start && row + 1 < rows && !filled.has(key(column, row + 1))) {
          row++;
        } else {
          column++;
          // Tails are nested under one another, so this only guards against the impossible.
          while (filled.has(key(column, row))) column++;
        }
      }
      filled.add(key(column, row));
      cells.push({ column, row, logicalColumn, logicalRow, tail: column !== start, value });
      width = Math.max(width, column + 1);
    });
  });
  return { rows, columns: width, cells };
}

/** Splits a sequence into runs of equal values: the logical columns of a derived road. */
function groupRuns<T>(values: readonly T[]): T[][] {
  const runs: T[][] = [];
  for (const value of values) {
    const run = runs[runs.length - 1];
    if (run && run[0] === value) run.push(value);
    else runs.push([value]);
  }
  return runs;
}

export type RoadInputErrorCode = 'bad_result';

/**
 * Parses results written as letters in shoe order: `B` banker, `P` player, `T` tie (either case);
 * whitespace and commas are ignored, so `BBPT`, `B,B,P,T` and `B B P T` are the same shoe.
 */
export function parseRoadResults(text: string): Result<RoadResult[], EngineError<RoadInputErrorCode>> {
  const results: RoadResult[] = [];
  let position = 0;
  for (const char of text) {
    position++;
    if (/[\s,]/.test(char)) continue;
    const outcome = LETTER_OUTCOMES[char.toUpperCase()];
    if (!outcome) {
      return fail('bad_result', `"${char}" at position ${position} is not a result: use B (banker), P (player) or T (tie)`);
    }
    results.push({ outcome });
  }
  return ok(results);
}

const LETTER_OUTCOMES: Readonly<Record<string, Outcome>> = { B: 'banker', P: 'player', T: 'tie' };

/** The external (JSON) view of the roads, exactly as README.md fixes it for `punto-banco roads`. */
export interface RoadsJson {
  beadPlate: Outcome[];
  bigRoad: { winner: BigRoadWinner; ties: number }[][];
  bigEyeBoy: RoadColour[][];
  smallRoad: RoadColour[][];
  cockroachPig: RoadColour[][];
}

export function roadsJson(roads: Roads): RoadsJson {
  return {
    beadPlate: roads.beadPlate.map((cell) => cell.outcome),
    bigRoad: roads.bigRoad.columns.map((column) => column.map(({ winner, ties }) => ({ winner, ties }))),
    bigEyeBoy: roads.bigEyeBoy.columns.map((column) => [...column]),
    smallRoad: roads.smallRoad.columns.map((column) => [...column]),
    cockroachPig: roads.cockroachPig.columns.map((column) => [...column]),
  };
}
