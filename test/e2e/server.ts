/**
 * Starts the product as `npm start` does (the built dist/ served by `wrangler dev`) on a free loopback
 * port, waits until the API answers, and stops it again. Used by the end-to-end tests and the benches.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devVarArgs } from '../../scripts/dev-vars.ts';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
  /** kill -9 of the whole process group (wrangler and workerd): no shutdown of any kind. */
  kill(): Promise<void>;
  /** What the server printed so far. */
  log(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Runs `wrangler dev` with fresh local storage (a temp persist dir), loopback only. `vars` override
 * wrangler.toml's `[vars]` and the development settings of `npm start` (scripts/dev-vars.ts), as
 * `--var NAME:VALUE`, e.g. an EMBED_ORIGINS naming a port known only now.
 */
export async function startServer(opts: { timeoutMs?: number; persistTo?: string; vars?: Record<string, string> } = {}): Promise<RunningServer> {
  // A free port can be taken by another process between our probe and wrangler's bind: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(opts);
    } catch (err) {
      if (attempt >= 3 || !/Address already in use/.test(String(err))) throw err;
    }
  }
}

/** SIGTERM to a detached child's whole process group, SIGKILL if it is still there 5 s later. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

async function startServerOnce(opts: { timeoutMs?: number; persistTo?: string; vars?: Record<string, string> }): Promise<RunningServer> {
  const port = await freePort();
  const persist = opts.persistTo ?? mkdtempSync(join(tmpdir(), 'pb-e2e-'));
  // As `npm start`: the development settings (DEV, the operator "demo"), then the test's own.
  const vars = devVarArgs(opts.vars);
  const child: ChildProcess = spawn(
    'npx',
    ['wrangler', 'dev', '--port', String(port), '--ip', '127.0.0.1', '--persist-to', persist, '--show-interactive-dev-session=false', ...vars],
    {
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  const stop = () => stopGroup(child);
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
    await exited;
  };
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${url}/.well-known/jwks.json`);
      if (res.ok) return { url, stop, kill, log: () => log };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`wrangler dev did not answer on ${url} in time:\n${log}`);
}
