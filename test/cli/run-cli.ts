import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs `punto-banco …` as a user would, on the Node running the tests (the pinned one). Each run
 * starts a Node process, so the CLI suites allow 30 s per test on a busy machine (no time is asserted).
 */
export function cli(args: string[], input = ''): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', 'cli/punto-banco.js', ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
