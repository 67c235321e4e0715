import { describe, expect, test } from 'vitest';
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
});
