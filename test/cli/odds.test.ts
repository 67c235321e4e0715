import { describe, expect, test } from 'vitest';
import { cli } from './run-cli.ts';

describe('punto-banco odds', { timeout: 30_000 }, () => {
  test('--decks 8 --json: integer counts equal to the published 8-deck analysis (Wizard of Odds)', () => {
    const { code, stdout, stderr } = cli(['odds', '--decks', '8', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // Exact JSON integers, digit for digit (not strings, not floats).
    expect(stdout).toContain('"banker":2292252566437888');
    expect(stdout).toContain('"player":2230518282592256');
    expect(stdout).toContain('"tie":475627426473216');
    expect(stdout).toContain('"total":4998398275503360');
    const json = JSON.parse(stdout);
    expect(json.decks).toBe(8);
    expect(json.houseEdge.banker).toBeCloseTo(0.010579, 6);
    expect(json.houseEdge.player).toBeCloseTo(0.012351, 6);
    expect(json.houseEdge.tie).toBeCloseTo(0.143596, 6);
    expect(json.probability.banker + json.probability.player + json.probability.tie).toBeCloseTo(1, 12);
    expect(json.houseEdgeExact.player).toMatch(/^\d+\/\d+$/);
  });

  test('--json defaults to 6 decks: the published 6-deck counts (casinoexploit.com)', () => {
    const { code, stdout } = cli(['odds', '--json']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/"decks":6,"banker":403095751234560,"player":392220492728832,"tie":83552962932288,"total":878869206895680/);
  });

  test('the table for people', () => {
    const { code, stdout } = cli(['odds', '--decks', '1']);
    expect(code).toBe(0);
    expect(stdout).toContain('1 deck:');
    expect(stdout).toMatch(/banker\s+6,737,232,640\s+45\.9624%\s+19:20\s+1\.0117%/);
    expect(stdout).toMatch(/tie\s+1,372,227,328\s+9\.3615%\s+8:1\s+15\.7461%/);
  });

  test.each([[['--decks', '0']], [['--decks', '9']], [['--decks', 'six']], [['--decks']], [['--deck', '6']], [['extra']]])(
    'bad arguments %j: one line on stderr, exit 2',
    (args) => {
      const { code, stdout, stderr } = cli(['odds', ...args]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/^punto-banco odds: /);
    },
  );

  test('--help', () => {
    const { code, stdout } = cli(['odds', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('usage: punto-banco odds [--decks N] [--json]');
  });
});
