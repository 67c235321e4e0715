import { describe, expect, test } from 'vitest';
import { cli } from './run-cli.ts';

describe('punto-banco simulate', { timeout: 30_000 }, () => {
  test('--json: counts, frequencies, speed; the same seed gives the same counts', () => {
    const run = () => cli(['simulate', '--hands', '200000', '--decks', '8', '--seed', 'cli-test', '--json']);
    const first = run();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const a = JSON.parse(first.stdout);
    expect(a).toMatchObject({ hands: 200_000, decks: 8, seed: 'cli-test', rules: { decks: 8, burn: true, cutCardFromEnd: 16, mode: 'shoe' } });
    expect(a.player + a.banker + a.tie).toBe(200_000);
    expect(a.frequency.banker).toBeCloseTo(a.banker / 200_000, 12);
    expect(a.exact.banker).toBeCloseTo(0.458597, 6);
    expect(Math.abs(a.frequency.banker - a.exact.banker)).toBeLessThan(0.006); // > 5 standard deviations
    expect(a.handsPerSecond).toBeGreaterThan(0);
    expect(a.shoes).toBeGreaterThan(2000);
    const b = JSON.parse(run().stdout);
    for (const key of ['player', 'banker', 'tie', 'naturals', 'playerPairs', 'bankerPairs', 'shoes']) expect(b[key]).toBe(a[key]);
  });

  test('without --seed a random one is chosen and printed, so the run can be replayed', () => {
    const { code, stdout } = cli(['simulate', '--hands', '1000', '--json']);
    expect(code).toBe(0);
    const { seed, banker } = JSON.parse(stdout);
    expect(seed).toMatch(/^[0-9a-f]{16}$/);
    const again = JSON.parse(cli(['simulate', '--hands', '1000', '--json', '--seed', seed]).stdout);
    expect(again.banker).toBe(banker);
  });

  test('the table for people', () => {
    const { code, stdout } = cli(['simulate', '--hands', '10000', '--seed', 'x']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^10,000 hands from [\d,]+ shoes of 6 decks, seed "x"/);
    for (const row of ['banker', 'player', 'tie', 'natural', 'player pair', 'banker pair'])
      expect(stdout).toMatch(new RegExp(`\\n${row}\\s+[\\d,]+\\s+\\d+\\.\\d{4}%`));
    expect(stdout).toMatch(/million hands\/s/);
  });

  test.each([
    [[]],
    [['--hands']],
    [['--hands', '0']],
    [['--hands', '-5']],
    [['--hands', '1e6']],
    [['--hands', '10', '--decks', '9']],
    [['--hands', '10', '--shoes', '2']],
    [['--hands', '10', '--json=yes']],
  ])('bad arguments %j: one line on stderr, exit 2', (args) => {
    const { code, stdout, stderr } = cli(['simulate', ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^punto-banco simulate: /);
  });

  test('--help', () => {
    const { code, stdout } = cli(['simulate', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('usage: punto-banco simulate --hands N [--decks N] [--seed S] [--json]');
  });
});
