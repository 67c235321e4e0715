import { describe, expect, test } from 'vitest';
import { cli } from './run-cli.ts';

describe('punto-banco round --cards', { timeout: 30_000 }, () => {
  test('--json: the README example', () => {
    const { code, stdout, stderr } = cli(['round', '--cards', '9S,KH,4D,TC,AH,2D', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      player: ['9S', '4D', 'AH'],
      banker: ['KH', 'TC', '2D'],
      playerTotal: 4,
      bankerTotal: 2,
      outcome: 'player',
      natural: false,
      playerPair: false,
      bankerPair: false,
      cardsUsed: 6,
    });
  });

  test('the table for people; spaces separate codes too', () => {
    const { code, stdout } = cli(['round', '--cards', 'KS 8H AD KC']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/player\s+KS AD\s+1/);
    expect(stdout).toMatch(/banker\s+8H KC\s+8/);
    expect(stdout).toContain('banker wins (natural); 4 cards used');
  });

  test.each([[['--cards', '9S,KX,4D,TC']], [['--cards', '9S,KH']], [['--cards', '2S,KH,2D,TC']], [['--cards']], [['--card', '9S']], [['9S,KH,4D,TC']]])(
    'bad arguments %j: one line on stderr, exit 2',
    (args) => {
      const { code, stdout, stderr } = cli(['round', ...args]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/^punto-banco round: /);
    },
  );
});

describe('punto-banco round (stdin, one round per line)', { timeout: 30_000 }, () => {
  test('one JSON object per line, in order; blank lines skipped', () => {
    const input = ['9S,KH,4D,TC,AH,2D', '', 'KS 8H AD KC', '5S,5H,5D,5C,5C,5D', '7S,5H,KD,KC,4H'].join('\n') + '\n';
    const { code, stdout, stderr } = cli(['round'], input);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.outcome, l.playerTotal, l.bankerTotal, l.natural, l.cardsUsed])).toEqual([
      ['player', 4, 2, false, 6],
      ['banker', 1, 8, true, 4],
      ['tie', 5, 5, false, 6],
      ['banker', 7, 9, false, 5],
    ]);
    expect(lines[2]).toMatchObject({ player: ['5S', '5D', '5C'], banker: ['5H', '5C', '5D'], playerPair: true, bankerPair: true });
    for (const line of lines)
      expect(Object.keys(line)).toEqual(expect.arrayContaining(['player', 'banker', 'playerTotal', 'bankerTotal', 'outcome', 'natural', 'cardsUsed']));
  });

  test('a bad line gets an error object with its line number; the others are still answered; exit 1', () => {
    const input = 'KS 8H AD KC\nXX YY\n2S,KH,2D,TC\r\nKS 8H AD KC\n';
    const { code, stdout } = cli(['round'], input);
    expect(code).toBe(1);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(4);
    expect(lines[0].outcome).toBe('banker');
    expect(lines[1]).toEqual({ line: 2, error: { code: 'bad_card', message: expect.stringContaining('"XX"') } });
    expect(lines[2]).toEqual({ line: 3, error: { code: 'not_enough_cards', message: expect.any(String) } });
    expect(lines[3].outcome).toBe('banker');
  });

  test('empty input: no output, exit 0', () => {
    expect(cli(['round'], '')).toMatchObject({ code: 0, stdout: '' });
  });

  test('many rounds in one batch', () => {
    const input = Array.from({ length: 3000 }, (_, i) => (i % 2 ? 'KS 8H AD KC' : '9S,KH,4D,TC,AH,2D')).join('\n');
    const { code, stdout } = cli(['round'], input);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3000);
    expect(JSON.parse(lines[2999]!).outcome).toBe('banker');
  });
});
