import { describe, expect, test } from 'vitest';
import { sessionPath } from '../../cli/commands/play.ts';
import { cli } from './run-cli.ts';

describe('punto-banco play: usage (the game itself is played against a Worker in test/e2e/cli-play-verify.test.ts)', () => {
  test('--help names the two phases, --mode and --mine', () => {
    const { code, stdout } = cli(['play', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--mode MODE');
    expect(stdout).toContain('--mine FILE');
    expect(stdout).toContain('lock');
  });

  test('usage errors exit 2 with the reason: no endpoint, a mode that does not exist', () => {
    const none = cli(['play']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--endpoint URL is required');
    const mode = cli(['play', '--endpoint', 'http://127.0.0.1:9', '--mode', 'dealer']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('--mode must be');
  });

  test('a Worker that cannot be reached: exit 1, saying so', () => {
    const r = cli(['play', '--endpoint', 'http://127.0.0.1:9', '--rounds', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:9');
  });

  test('--new-session-when-broke: explained in --help, and it needs --out (one file per session)', () => {
    const help = cli(['play', '--help']);
    expect(help.stdout).toContain('--new-session-when-broke');
    expect(help.stdout).toContain('t.session-2.json');
    const noOut = cli(['play', '--endpoint', 'http://127.0.0.1:9', '--new-session-when-broke']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('give --out FILE');
  });

  test("each session's file: the path itself, then .session-k before the extension", () => {
    expect(sessionPath('t.json', 1)).toBe('t.json');
    expect(sessionPath('t.json', 2)).toBe('t.session-2.json');
    expect(sessionPath('/tmp/out/mine', 3)).toBe('/tmp/out/mine.session-3');
    expect(sessionPath('/tmp/a.b/t.json', 12)).toBe('/tmp/a.b/t.session-12.json');
  });
});
