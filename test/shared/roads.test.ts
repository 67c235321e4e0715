import { describe, expect, test } from 'vitest';
import {
  buildBigRoad,
  computeRoads,
  derivedColour,
  DERIVED_ROAD_DISTANCE,
  DERIVED_ROADS,
  type DrawnRoad,
  parseRoadResults,
  playRoundFromCodes,
  type RoadColour,
  type RoadResult,
  roadsJson,
} from '../../shared/index.ts';

/** Results from a B/P/T string (the parser is tested on its own below). */
function seq(text: string): RoadResult[] {
  const parsed = parseRoadResults(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

const colours = (text: string): RoadColour[] => [...text].map((c) => (c === 'R' ? 'red' : 'blue'));
const lengthsOf = (columns: readonly unknown[][]) => columns.map((c) => c.length);
const winners = (text: string) => computeRoads(seq(text)).bigRoad.columns.map((col) => col.map((e) => e.winner[0]).join(''));
const at = <T>(road: DrawnRoad<T>) => road.cells.map((c) => [c.column, c.row]);

describe('parseRoadResults', () => {
  test('reads B/P/T in either case, ignoring whitespace and commas', () => {
    const parsed = parseRoadResults(' B,p\tT\nb ,, P ');
    expect(parsed).toEqual({ ok: true, value: seq('BPTBP') });
    expect(seq('BPT').map((r) => r.outcome)).toEqual(['banker', 'player', 'tie']);
    expect(parseRoadResults('')).toEqual({ ok: true, value: [] });
  });

  test('anything else is an error that says where', () => {
    expect(parseRoadResults('BPX')).toEqual({
      ok: false,
      error: { code: 'bad_result', message: '"X" at position 3 is not a result: use B (banker), P (player) or T (tie)' },
    });
    expect(parseRoadResults('B;P').ok).toBe(false);
    expect(parseRoadResults('banker').ok).toBe(false);
  });
});

describe('Bead Plate', () => {
  test('every round in order, ties included, 6 rows column-major', () => {
    const plate = computeRoads(seq('BPTBBPPT')).beadPlate;
    expect(plate.map((c) => c.outcome)).toEqual(['banker', 'player', 'tie', 'banker', 'banker', 'player', 'player', 'tie']);
    expect(plate.map((c) => [c.column, c.row])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
      [1, 0],
      [1, 1],
    ]);
  });
});

describe('Big Road', () => {
  test('a new column on every change of winner; ties marked on the previous cell', () => {
    const road = buildBigRoad(seq('BBTPTTPB'));
    expect(road.columns.map((col) => col.map((e) => [e.winner, e.ties]))).toEqual([
      [
        ['banker', 0],
        ['banker', 1],
      ],
      [
        ['player', 2],
        ['player', 0],
      ],
      [['banker', 0]],
    ]);
    expect(road.leadingTies).toBe(0);
    expect(road.pendingTies).toBe(0);
  });

  test('leading ties are counted on the first entry', () => {
    const road = buildBigRoad(seq('TTBTP'));
    expect(road.columns.map((col) => col.map((e) => [e.winner, e.ties]))).toEqual([[['banker', 3]], [['player', 0]]]);
    expect(road.leadingTies).toBe(2);
    expect(road.drawn.cells[0]).toMatchObject({ column: 0, row: 0, value: { winner: 'banker', ties: 3 } });
  });

  test('an all-tie shoe has no entries; its ties wait for the first cell', () => {
    const roads = computeRoads(seq('TTTT'));
    expect(roads.bigRoad.columns).toEqual([]);
    expect(roads.bigRoad.pendingTies).toBe(4);
    expect(roads.bigRoad.drawn).toEqual({ rows: 6, columns: 0, cells: [] });
    for (const name of DERIVED_ROADS) expect(roads[name].marks).toEqual([]);
    expect(roads.beadPlate).toHaveLength(4);
    expect(roads.stats).toMatchObject({ rounds: 4, tie: 4, banker: 0, player: 0 });
    expect(roadsJson(roads).bigRoad).toEqual([]);
    expect(roads.predictions.banker).toEqual({ bigEyeBoy: null, smallRoad: null, cockroachPig: null });
  });

  test('empty shoe', () => {
    const roads = computeRoads([]);
    expect(roadsJson(roads)).toEqual({ beadPlate: [], bigRoad: [], bigEyeBoy: [], smallRoad: [], cockroachPig: [] });
  });

  test('dragon tails: B×9 then P×10 turn right at the bottom and above a tail; logical columns stay whole', () => {
    const road = buildBigRoad(seq('B'.repeat(9) + 'P'.repeat(10) + 'BBB'));
    expect(lengthsOf(road.columns)).toEqual([9, 10, 3]);
    const cellsOf = (logical: number) => road.drawn.cells.filter((c) => c.logicalColumn === logical);
    // Banker: rows 0–5 of column 0, then right along the bottom row.
    expect(at({ ...road.drawn, cells: cellsOf(0) })).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
      [1, 5],
      [2, 5],
      [3, 5],
    ]);
    // Player starts next to the banker run, meets the banker tail at row 5 and turns right at row 4.
    expect(at({ ...road.drawn, cells: cellsOf(1) })).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
      [5, 4],
      [6, 4],
    ]);
    // The next run starts in column 2 and fits above the player tail.
    expect(at({ ...road.drawn, cells: cellsOf(2) })).toEqual([
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
    expect(road.drawn.columns).toBe(7);
    expect(cellsOf(1).map((c) => c.tail)).toEqual([false, false, false, false, false, true, true, true, true, true]);
    expect(cellsOf(1).map((c) => c.logicalRow)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  test('a run blocked at its first row turns right at once; the next run starts past the tail', () => {
    const road = buildBigRoad(seq('BBBBBBB PPPPPP BBBBB PPPP BBB PP B'));
    const byColumn = (logical: number) => road.drawn.cells.filter((c) => c.logicalColumn === logical).map((c) => [c.column, c.row]);
    expect(byColumn(4)).toEqual([
      [4, 0],
      [4, 1],
      [5, 1],
    ]);
    expect(byColumn(5)).toEqual([
      [5, 0],
      [6, 0],
    ]);
    expect(byColumn(6)).toEqual([[7, 0]]);
    // No two drawn cells share a place.
    expect(new Set(road.drawn.cells.map((c) => `${c.column},${c.row}`)).size).toBe(road.drawn.cells.length);
  });

  test('pairs show on the entry of their own round; pairs of tie rounds only on the Bead Plate', () => {
    const results: RoadResult[] = [
      { outcome: 'banker', bankerPair: true },
      { outcome: 'tie', playerPair: true },
      { outcome: 'player', playerPair: true, bankerPair: true, natural: true },
    ];
    const roads = computeRoads(results);
    expect(roads.bigRoad.columns.map((col) => col.map(({ playerPair, bankerPair, natural, ties }) => ({ playerPair, bankerPair, natural, ties })))).toEqual([
      [{ playerPair: false, bankerPair: true, natural: false, ties: 1 }],
      [{ playerPair: true, bankerPair: true, natural: true, ties: 0 }],
    ]);
    expect(roads.beadPlate.map((c) => [c.playerPair, c.bankerPair])).toEqual([
      [false, true],
      [true, false],
      [true, true],
    ]);
    expect(roads.stats).toEqual({ rounds: 3, banker: 1, player: 1, tie: 1, naturals: 1, playerPairs: 2, bankerPairs: 2 });
  });

  test('rounds played by the engine fit as results', () => {
    const round = playRoundFromCodes(['4S', 'KH', '4D', 'TC']); // player 4+4 = 8: a natural, and a pair
    if (!round.ok) throw new Error(round.error.message);
    const roads = computeRoads([round.value]);
    expect(roads.stats).toMatchObject({ rounds: 1, player: 1, naturals: 1, playerPairs: 1, bankerPairs: 0 });
    expect(roads.bigRoad.columns).toMatchObject([[{ winner: 'player', playerPair: true, natural: true }]]);
  });
});

describe('derived roads: start cells', () => {
  const first = (text: string) => Object.fromEntries(DERIVED_ROADS.map((n) => [n, computeRoads(seq(text))[n].marks]));

  test('Big Eye Boy: column 2 row 2, else column 3 row 1', () => {
    expect(first('BP').bigEyeBoy).toEqual([]); // column 2 row 1: nothing yet
    expect(first('BPP').bigEyeBoy).toEqual(['blue']); // column 2 row 2: column 1 ends one above
    expect(first('BBPP').bigEyeBoy).toEqual(['red']); // column 2 row 2: column 1 has a cell level
    expect(first('BBP').bigEyeBoy).toEqual([]);
    expect(first('BPB').bigEyeBoy).toEqual(['red']); // column 3 row 1: columns 1 and 2 equal
    expect(first('BBPB').bigEyeBoy).toEqual(['blue']); // column 3 row 1: 2 vs 1
  });

  test('Small Road: column 3 row 2, else column 4 row 1', () => {
    expect(first('BPB').smallRoad).toEqual([]);
    expect(first('BPBB').smallRoad).toEqual(['blue']); // (3,2) against column 1 of length 1
    expect(first('BPBP').smallRoad).toEqual(['red']); // (4,1): columns 3 and 1 equal
    expect(first('BBPBP').smallRoad).toEqual(['blue']); // (4,1): column 3 (1) vs column 1 (2)
  });

  test('Cockroach Pig: column 4 row 2, else column 5 row 1', () => {
    expect(first('BPBP').cockroachPig).toEqual([]);
    expect(first('BPBPP').cockroachPig).toEqual(['blue']); // (4,2) against column 1 of length 1
    expect(first('BBPBPP').cockroachPig).toEqual(['red']); // (4,2): column 1 has a cell level
    expect(first('BPBPB').cockroachPig).toEqual(['red']); // (5,1): columns 4 and 1 equal
  });

  test('derivedColour is null before the start cell, for every distance', () => {
    for (const k of [1, 2, 3]) {
      const lengths = [1, 1, 1, 1, 1, 1];
      expect(derivedColour(lengths, k - 1, 1, k)).toBeNull();
      expect(derivedColour(lengths, k, 0, k)).toBeNull();
      expect(derivedColour(lengths, k, 1, k)).not.toBeNull();
      expect(derivedColour(lengths, k + 1, 0, k)).not.toBeNull();
    }
  });
});

describe('derived roads: colours on a long shoe, worked by hand', () => {
  // Worked by hand with the rules cited in shared/roads.ts (jsopen/static road_en-us.md; WGM #56
  // p. 22). Big Road of this shoe, logical columns (ties on the previous cell):
  //   col:     0   1    2    3  4     5    6  7   8
  //   winner:  B   P    B    P  B     P    B  P   B
  //   length:  2   3    2    1  4     2    1  2   2
  // A new column (row 0) compares the lengths of the two columns before it at the road's distance:
  // equal red, else blue. A cell below row 0 looks at the column `distance` back: a cell level with
  // it red; none level but one just above blue; neither red (straight drop).
  const SHOE = 'B B P P P B T B P B B B B P P T B P P B B';

  test('Big Road columns', () => {
    expect(winners(SHOE)).toEqual(['bb', 'ppp', 'bb', 'p', 'bbbb', 'pp', 'b', 'pp', 'bb']);
  });

  test('Big Eye Boy (one column back), from (1,1)', () => {
    // (1,1) c0 len2 >1 R | (1,2) c0 len2 =2 B | (2,0) 3≠2 B | (2,1) c1 len3 R | (3,0) 2≠3 B
    // (4,0) 1≠2 B | (4,1) c3 len1 =1 B | (4,2) drop R | (4,3) drop R | (5,0) 4≠1 B | (5,1) R
    // (6,0) 2≠4 B | (7,0) 1≠2 B | (7,1) c6 len1 =1 B | (8,0) 2≠1 B | (8,1) c7 len2 R
    const road = computeRoads(seq(SHOE)).bigEyeBoy;
    expect(road.marks).toEqual(colours('RBBRBBBRRBRBBBBR'));
    expect(road.columns.map((c) => c.length)).toEqual([1, 2, 1, 3, 2, 1, 1, 4, 1]);
    expect(road.columns.map((c) => c[0])).toEqual(colours('RBRBRBRBR'));
  });

  test('Small Road (two columns back), from (2,1)', () => {
    // (2,1) c0 len2 R | (3,0) c2=c0 R | (4,0) 1≠3 B | (4,1) c2 len2 R | (4,2) c2 len2 =2 B
    // (4,3) drop R | (5,0) 4≠2 B | (5,1) c3 len1 =1 B | (6,0) 2≠1 B | (7,0) 1≠4 B
    // (7,1) c5 len2 R | (8,0) 2=2 R | (8,1) c6 len1 =1 B
    expect(computeRoads(seq(SHOE)).smallRoad.marks).toEqual(colours('RRBRBRBBBBRRB'));
  });

  test('Cockroach Pig (three columns back), from (4,0) since column 3 has no row 2', () => {
    // (4,0) 1≠2 B | (4,1) c1 len3 R | (4,2) R | (4,3) c1 len3 =3 B | (5,0) 4≠3 B | (5,1) c2 R
    // (6,0) 2=2 R | (7,0) 1=1 R | (7,1) c4 R | (8,0) 2≠4 B | (8,1) c5 R
    const road = computeRoads(seq(SHOE)).cockroachPig;
    expect(road.marks).toEqual(colours('BRRBBRRRRBR'));
    expect(road.columns).toEqual([colours('B'), colours('RR'), colours('BB'), colours('RRRR'), colours('B'), colours('R')]);
  });

  test('ask banker / ask player', () => {
    // Banker next goes to (8,2): BEB c7 len2 =2 blue; SR c6 len1 drop red; CP c5 len2 =2 blue.
    // Player next starts column 9: BEB c8=c7 red; SR c8 2 vs c6 1 blue; CP c8=c5 red.
    const { predictions } = computeRoads(seq(SHOE));
    expect(predictions.banker).toEqual({ bigEyeBoy: 'blue', smallRoad: 'red', cockroachPig: 'blue' });
    expect(predictions.player).toEqual({ bigEyeBoy: 'red', smallRoad: 'blue', cockroachPig: 'red' });
  });

  test('derived roads are drawn with the same dragon tail as the Big Road', () => {
    const road = computeRoads(seq('BP'.repeat(20))).bigEyeBoy; // a perfect chop: all red, one column
    expect(road.columns).toEqual([Array(38).fill('red')]);
    expect(road.drawn.cells.slice(5, 8).map((c) => [c.column, c.row])).toEqual([
      [0, 5],
      [1, 5],
      [2, 5],
    ]);
    expect(road.drawn.columns).toBe(33);
  });
});

/** A small deterministic generator for shoes (no wall clock, no Math.random). */
function randomShoe(seed: number, length: number): string {
  let state = seed >>> 0;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const x = state >>> 24;
    text += x < 116 ? 'B' : x < 230 ? 'P' : 'T';
  }
  return text;
}

/**
 * The derived roads again, written the way WGM #56 words them, on a grid of logical cells:
 * "the cell on the left" (k columns back, same row) and "the cell above that empty cell".
 */
function derivedByCells(columns: readonly (readonly unknown[])[], k: number): RoadColour[] {
  const has = (c: number, r: number) => c >= 0 && r >= 0 && r < (columns[c]?.length ?? 0);
  const marks: RoadColour[] = [];
  columns.forEach((column, c) => {
    column.forEach((_, r) => {
      if (r === 0) {
        if (c - 1 - k < 0) return;
        marks.push(columns[c - 1]!.length === columns[c - 1 - k]!.length ? 'red' : 'blue');
      } else {
        if (c - k < 0) return;
        if (has(c - k, r)) marks.push('red');
        else marks.push(has(c - k, r - 1) ? 'blue' : 'red');
      }
    });
  });
  return marks;
}

describe('derived roads: properties on generated shoes', () => {
  const shoes = Array.from({ length: 60 }, (_, i) => randomShoe(i + 1, 80));

  test('agree with the cell-by-cell wording of the rules', () => {
    for (const shoe of shoes) {
      const roads = computeRoads(seq(shoe));
      for (const name of DERIVED_ROADS) {
        expect(roads[name].marks).toEqual(derivedByCells(roads.bigRoad.columns, DERIVED_ROAD_DISTANCE[name]));
      }
    }
  });

  test('one mark per Big Road entry from the start cell on', () => {
    for (const shoe of shoes) {
      const roads = computeRoads(seq(shoe));
      const lengths = lengthsOf(roads.bigRoad.columns);
      for (const name of DERIVED_ROADS) {
        const k = DERIVED_ROAD_DISTANCE[name];
        const before = lengths.slice(0, k).reduce((a, b) => a + b, 0) + Math.min(1, lengths[k] ?? 0);
        const entries = lengths.reduce((a, b) => a + b, 0);
        expect(roads[name].marks).toHaveLength(Math.max(0, entries - before));
        expect(roads[name].columns.flat()).toEqual(roads[name].marks);
      }
    }
  });

  test('predictions equal what the next banker or player result adds', () => {
    for (const shoe of shoes.slice(0, 20)) {
      for (let end = 0; end <= shoe.length; end += 7) {
        const prefix = shoe.slice(0, end);
        const roads = computeRoads(seq(prefix));
        for (const [winner, letter] of [
          ['banker', 'B'],
          ['player', 'P'],
        ] as const) {
          const next = computeRoads(seq(prefix + letter));
          for (const name of DERIVED_ROADS) {
            const added = next[name].marks.length > roads[name].marks.length ? next[name].marks.at(-1) : null;
            expect(roads.predictions[winner][name]).toBe(added);
          }
        }
      }
    }
  });

  test("drawn roads: every logical cell drawn once, no overlap, tails only on a run's last rows", () => {
    for (const shoe of shoes) {
      const roads = computeRoads(seq(shoe));
      for (const road of [roads.bigRoad, roads.bigEyeBoy, roads.smallRoad, roads.cockroachPig]) {
        const cells = road.drawn.cells;
        expect(cells).toHaveLength(road.columns.flat().length);
        expect(new Set(cells.map((c) => `${c.column},${c.row}`)).size).toBe(cells.length);
        for (const cell of cells) {
          expect(cell.row).toBeLessThan(6);
          expect(cell.value).toEqual(road.columns[cell.logicalColumn]![cell.logicalRow]);
        }
      }
    }
  });
});

describe('stats and JSON', () => {
  test('stats count every outcome, natural and pair', () => {
    const results: RoadResult[] = [
      ...seq('BBPTTPB'),
      { outcome: 'banker', natural: true, playerPair: true },
      { outcome: 'tie', bankerPair: true, playerPair: true, natural: true },
    ];
    expect(computeRoads(results).stats).toEqual({ rounds: 9, banker: 4, player: 2, tie: 3, naturals: 2, playerPairs: 2, bankerPairs: 1 });
  });

  test('roadsJson has exactly the documented keys (README) and element shapes', () => {
    const json = roadsJson(computeRoads([{ outcome: 'tie' }, { outcome: 'banker', bankerPair: true, natural: true }, ...seq('PPBPB')]));
    expect(Object.keys(json)).toEqual(['beadPlate', 'bigRoad', 'bigEyeBoy', 'smallRoad', 'cockroachPig']);
    expect(json.beadPlate).toEqual(['tie', 'banker', 'player', 'player', 'banker', 'player', 'banker']);
    expect(json.bigRoad).toEqual([
      [{ winner: 'banker', ties: 1 }],
      [
        { winner: 'player', ties: 0 },
        { winner: 'player', ties: 0 },
      ],
      [{ winner: 'banker', ties: 0 }],
      [{ winner: 'player', ties: 0 }],
      [{ winner: 'banker', ties: 0 }],
    ]);
    // Columns of length 1,2,1,1,1. Big Eye Boy: (1,1) blue, (2,0) 2≠1 blue, (3,0) 1≠2 blue,
    // (4,0) 1=1 red. Small Road: (3,0) 1=1 red, (4,0) 1≠2 blue. Cockroach Pig: (4,0) 1=1 red.
    expect(json.bigEyeBoy).toEqual([['blue', 'blue', 'blue'], ['red']]);
    expect(json.smallRoad).toEqual([['red'], ['blue']]);
    expect(json.cockroachPig).toEqual([['red']]);
  });
});
