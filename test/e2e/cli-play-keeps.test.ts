/**
 * `punto-banco play` keeps what it played: when the play money runs out, or the Worker fails after
 * the session was opened, it still writes the table's file and its own copy with every round
 * played, says why it stopped and exits 1; `--new-session-when-broke` goes on in fresh sessions,
 * one pair of files each. Every file written verifies.
 *
 * The CLI plays the real Worker through a loopback proxy that plays the test's part: it tells the
 * player its balance is 0 after K rounds of a session (the only way the CLI learns its balance, so
 * the money runs out exactly there, whatever the cards), or answers a bet with a 500 after K rounds.
 * The signed records pass through untouched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FairnessFile } from '../../shared/index.ts';

const ENDPOINT = process.env.PB_ENDPOINT ?? 'http://127.0.0.1:8787';
const JWKS = new URL('/.well-known/jwks.json', ENDPOINT).href;
const dir = mkdtempSync(join(tmpdir(), 'pb-cli-keeps-'));

/** The CLI, spawned without blocking this process (the proxy answers it from here). */
function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'cli/punto-banco.js', ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

type Rule = 'broke' | 'fail';

/** A loopback proxy to the Worker: after `k` rounds of a session, the balance it reports is 0 ("broke"), or the next bet gets a 500 ("fail"). */
async function proxy(rule: Rule, k: number): Promise<{ url: string; close: () => Promise<void> }> {
  const rounds = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = req.url ?? '/';
        const session = /^\/api\/sessions\/([^/]+)\//.exec(path)?.[1] ?? '';
        if (rule === 'fail' && req.method === 'POST' && /\/rounds$/.test(path) && (rounds.get(session) ?? 0) >= k) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'internal', message: 'an internal error occurred; it has been logged' } }));
          return;
        }
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'content-type', 'idempotency-key', 'accept']) {
          const v = req.headers[name];
          if (typeof v === 'string') headers[name] = v;
        }
        const upstream = await fetch(new URL(path, ENDPOINT), { method: req.method, headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
        let text = await upstream.text();
        if (upstream.ok && req.method === 'POST' && /\/rounds\/\d+\/secret$/.test(path)) {
          const n = (rounds.get(session) ?? 0) + 1;
          rounds.set(session, n);
          if (rule === 'broke' && n >= k) text = JSON.stringify({ ...(JSON.parse(text) as object), balance: 0 });
        }
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      })().catch((err: unknown) => {
        res.writeHead(502);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const receipts = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as FairnessFile).records.filter((r) => r.body.type === 'receipt').length;

/** The file and the player's copy verify with the Worker's keys, every round's cards checked (the shoe revealed). */
async function assertVerifies(out: string, mine: string, rounds: number): Promise<void> {
  const verify = await cli('verify', out, '--jwks', JWKS, '--json', '--mine', mine);
  assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  const report = JSON.parse(verify.stdout) as { code: string; report: { rounds: { status: string }[] }; copies: unknown[] };
  assert.equal(report.code, 'ok');
  assert.equal(report.report.rounds.length, rounds);
  assert.ok(report.report.rounds.every((r) => r.status === 'verified'));
  assert.deepEqual(report.copies, []);
}

test('the play money runs out: the files hold every round played, the reason is said, exit 1', async () => {
  const p = await proxy('broke', 4);
  try {
    const out = join(dir, 'broke.json');
    const mine = join(dir, 'broke-mine.json');
    const play = await cli('play', '--endpoint', p.url, '--rounds', '50', '--out', out, '--mine', mine);
    assert.equal(play.status, 1, play.stderr);
    assert.match(play.stderr, /stopped after 4 of 50 round\(s\): the play money ran out after 4 round\(s\)/);
    assert.match(play.stderr, /wrote .*broke\.json/);
    assert.equal(receipts(out), 4);
    // The player ended the shoe in play: its seed is revealed.
    const file = JSON.parse(readFileSync(out, 'utf8')) as FairnessFile;
    assert.equal(file.records.at(-2)!.body.type, 'reveal');
    await assertVerifies(out, mine, 4);
  } finally {
    await p.close();
  }
});

test('--new-session-when-broke goes on in fresh sessions, one pair of files each, every one verifying', async () => {
  const p = await proxy('broke', 3);
  try {
    const out = join(dir, 'renew.json');
    const mine = join(dir, 'renew-mine.json');
    const play = await cli('play', '--endpoint', p.url, '--rounds', '7', '--out', out, '--mine', mine, '--new-session-when-broke');
    assert.equal(play.status, 0, play.stderr);
    assert.match(play.stderr, /played 7 round\(s\) in \d+ shoe\(s\) and 3 sessions/);
    const files = [
      [out, mine, 3],
      [join(dir, 'renew.session-2.json'), join(dir, 'renew-mine.session-2.json'), 3],
      [join(dir, 'renew.session-3.json'), join(dir, 'renew-mine.session-3.json'), 1],
    ] as const;
    for (const [o, m, n] of files) {
      assert.equal(receipts(o), n, o);
      await assertVerifies(o, m, n);
    }
    assert.equal(existsSync(join(dir, 'renew.session-4.json')), false);
    // Three sessions: three tables, three player keys.
    const tables = new Set(files.map(([o]) => (JSON.parse(readFileSync(o, 'utf8')) as FairnessFile).records[0]!.body.table));
    assert.equal(tables.size, 3);
  } finally {
    await p.close();
  }
});

test('the Worker fails after some rounds: the files hold every round played, the failure is said, exit 1', async () => {
  const p = await proxy('fail', 5);
  try {
    const out = join(dir, 'failed.json');
    const mine = join(dir, 'failed-mine.json');
    const play = await cli('play', '--endpoint', p.url, '--rounds', '20', '--out', out, '--mine', mine);
    assert.equal(play.status, 1, play.stderr);
    assert.match(play.stderr, /stopped after 5 of 20 round\(s\): POST \/api\/sessions\/\S+\/rounds: HTTP 500 internal/);
    assert.equal(receipts(out), 5);
    await assertVerifies(out, mine, 5);
  } finally {
    await p.close();
  }
});
