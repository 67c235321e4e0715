import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `punto-banco roads …` as a user would, on the Node running the tests (the pinned one). */
function roads(args: string[], input = '') {
  const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', 'cli/punto-banco.js', 'roads', ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('punto-banco roads', () => {
  test('--json prints the documented shape (README): logical columns, leading ties on the first entry', () => {
    const { code, stdout, stderr } = roads(['--results', 'TTBBPTPBPB', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.beadPlate).toEqual(['tie', 'tie', 'banker', 'banker', 'player', 'tie', 'player', 'banker', 'player', 'banker']);
    expect(json.bigRoad).toEqual([
      [
        { winner: 'banker', ties: 2 },
        { winner: 'banker', ties: 0 },
      ],
      [
        { winner: 'player', ties: 1 },
        { winner: 'player', ties: 0 },
      ],
      [{ winner: 'banker', ties: 0 }],
      [{ winner: 'player', ties: 0 }],
      [{ winner: 'banker', ties: 0 }],
    ]);
    // Lengths 2,2,1,1,1. Big Eye Boy: (1,1) red, (2,0) 2=2 red, (3,0) 1≠2 blue, (4,0) 1=1 red.
    expect(json.bigEyeBoy).toEqual([['red', 'red'], ['blue'], ['red']]);
    // Small Road: (2,1)? none, column 2 has one cell; (3,0) 1≠2 blue; (4,0) 1≠2 blue.
    expect(json.smallRoad).toEqual([['blue', 'blue']]);
    // Cockroach Pig: (4,0) 1≠2 blue.
    expect(json.cockroachPig).toEqual([['blue']]);
    expect(json.stats).toEqual({ rounds: 10, banker: 4, player: 3, tie: 3, naturals: 0, playerPairs: 0, bankerPairs: 0 });
    for (const column of json.bigRoad) for (const cell of column) expect(Object.keys(cell).sort()).toEqual(['ties', 'winner']);
  });

  test('reads stdin without --results; whitespace, commas and lower case are fine', () => {
    const fromStdin = roads(['--json'], 'T, b b\np  T\r\nP,B,p,B\n');
    const fromFlag = roads(['--json', '--results=TBBPTPBPB']);
    expect(fromStdin.code).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toEqual(JSON.parse(fromFlag.stdout));
  });

  test('an all-tie shoe and an empty one', () => {
    const ties = JSON.parse(roads(['--json', '--results', 'TTT']).stdout);
    expect(ties).toMatchObject({ beadPlate: ['tie', 'tie', 'tie'], bigRoad: [], bigEyeBoy: [], smallRoad: [], cockroachPig: [] });
    const empty = roads(['--json'], '');
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout)).toMatchObject({ beadPlate: [], bigRoad: [] });
  });

  test('text output draws the roads as grids', () => {
    const { code, stdout } = roads(['--results', 'BBBBBBBB P']);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const big = lines.indexOf('Big Road');
    expect(big).toBeGreaterThan(0);
    // Eight bankers: six down, then the tail along the bottom row; the player starts column 2.
    expect(lines.slice(big + 1, big + 7)).toEqual(['  B· P· .', '  B· .  .', '  B· .  .', '  B· .  .', '  B· .  .', '  B· B· B·']);
    expect(stdout).toContain('rounds 9: banker 8, player 1, tie 0');
    expect(stdout).toContain('ask banker:');
  });

  test('usage errors exit 2 with one line on stderr', () => {
    const bad = roads(['--results', 'BPXB']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('punto-banco roads: "X" at position 3 is not a result: use B (banker), P (player) or T (tie)\n');
    expect(roads(['--json'], 'B P 1').code).toBe(2);
    expect(roads(['--decks', '6']).code).toBe(2);
    expect(roads(['BPB']).code).toBe(2);
    expect(roads(['--results']).code).toBe(2);
  });

  test('--help exits 0', () => {
    const help = roads(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: punto-banco roads');
  });
});
