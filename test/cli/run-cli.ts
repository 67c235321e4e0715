import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';

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

/** Runs a command module in this process (no Node start-up), its `console.log` output captured. */
export async function runInProcess(command: { run(args: string[]): Promise<number> }, args: string[]): Promise<{ code: number; stdout: string }> {
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  try {
    return { code: await command.run(args), stdout: out.join('\n') };
  } finally {
    log.mockRestore();
  }
}
