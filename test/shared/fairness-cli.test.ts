import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { UsageError } from '../../cli/args.ts';
import * as shoeCommand from '../../cli/commands/shoe.ts';
import * as verifyCommand from '../../cli/commands/verify.ts';
import { clone, loadVectors } from './fairness-fixtures.ts';

// Spawning Node is slow on a busy machine: only the end-to-end cases spawn, with room to spare.
const SPAWN = { timeout: 60_000 };

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = ['--disable-warning=ExperimentalWarning', 'cli/punto-banco.js'];

/** Runs `punto-banco …` as a user would, on the Node running the tests (the pinned one). */
function cli(args: string[], input = '') {
  const run = spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, input, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Runs a command module in this process as main.ts would: its exit code and what it printed. */
async function inProcess(command: { run(args: string[]): Promise<number> }, args: string[]) {
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  try {
    return { code: await command.run(args), stdout: out.join('\n'), error: '' };
  } catch (err) {
    if (err instanceof UsageError) return { code: 2, stdout: out.join('\n'), error: err.message };
    throw err;
  } finally {
    log.mockRestore();
  }
}

const vectors = loadVectors() as ReturnType<typeof loadVectors> & {
  shoes: { name: string; serverSeed: string; clientSeed: string; cut: number; params: { decks: number }; stack: string[]; burned: number; cutCardAt: number }[];
  commitments: { serverSeed: string; commitment: string }[];
};
const dir = mkdtempSync(join(tmpdir(), 'pb-fair-'));
const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};
const transcripts = vectors.transcripts.map((v) => v.transcript);
const jwksPath = file('jwks.json', { keys: [vectors.key.publicJwk] });

describe('punto-banco shoe', () => {
  test("--json gives the golden vector's commitment and card order (end to end)", SPAWN, () => {
    const v = vectors.shoes.find((s) => s.name.startsWith('6 decks'))!;
    const { code, stdout, stderr } = cli([
      'shoe',
      '--server-seed',
      v.serverSeed.toUpperCase(),
      '--client-seed',
      v.clientSeed,
      '--cut',
      String(v.cut),
      '--json',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.cards).toEqual(v.stack);
    expect(out).toMatchObject({
      burned: v.burned,
      cutCardAt: v.cutCardAt,
      cut: v.cut,
      clientSeed: v.clientSeed,
      params: { decks: 6, burn: true, cutCardFromEnd: 16, mode: 'shoe', algorithm: 'pb-fair-1' },
    });
    expect(out.commitment).toBe(vectors.commitments.find((c) => c.serverSeed === v.serverSeed)!.commitment);
  });

  test('text: the commitment, then every card by position with the burn and the cut card marked', async () => {
    const v = vectors.shoes[0]!; // 1 deck, cut 26
    const { code, stdout } = await inProcess(shoeCommand, ['--server-seed', v.serverSeed, '--client-seed', v.clientSeed, '--cut', '26', '--decks', '1']);
    expect(code).toBe(0);
    expect(stdout).toContain(vectors.commitments[0]!.commitment);
    const rows = stdout.split('\n').filter((l) => /^\s+\d+ {2}/.test(l));
    expect(rows).toHaveLength(4);
    expect(
      rows
        .join(' ')
        .replace(/[()|]/g, ' ')
        .trim()
        .split(/\s+/)
        .filter((x) => /^[A2-9TJQK][SHDC]$/.test(x)),
    ).toEqual(v.stack);
    expect(rows[0]).toContain(`(${v.stack[0]})`);
  });

  test('the default cut is half the stack', async () => {
    const a = JSON.parse((await inProcess(shoeCommand, ['--server-seed', 'ab'.repeat(32), '--client-seed', 'x', '--json'])).stdout);
    expect(a.cut).toBe(156);
    expect(a.cards).toHaveLength(312);
  });

  test(
    'usage errors exit 2',
    async () => {
      for (const args of [
        ['--client-seed', 'x'],
        ['--server-seed', 'ab'.repeat(31), '--client-seed', 'x'],
        ['--server-seed', 'ab'.repeat(32)],
        ['--server-seed', 'ab'.repeat(32), '--client-seed', ''],
        ['--server-seed', 'ab'.repeat(32), '--client-seed', 'x', '--cut', '312'],
        ['--server-seed', 'ab'.repeat(32), '--client-seed', 'x', '--decks', '9'],
        ['--server-seed', 'ab'.repeat(32), '--client-seed', 'x', '--nope'],
      ]) {
        const { code, error } = await inProcess(shoeCommand, args);
        expect(code, args.join(' ')).toBe(2);
        expect(error).not.toBe('');
      }
      const spawned = cli(['shoe', '--server-seed', 'zz', '--client-seed', 'x']);
      expect(spawned.code).toBe(2);
      expect(spawned.stderr).toMatch(/^punto-banco shoe: --server-seed must be 64 hex characters/);
    },
    SPAWN.timeout,
  );
});

describe('punto-banco verify', () => {
  test('a good file: a table per shoe, exit 0', async () => {
    const { code, stdout } = await inProcess(verifyCommand, [file('good.json', { transcripts }), '--jwks', jwksPath]);
    expect(code).toBe(0);
    expect(stdout.match(/^VERIFIED: /gm)).toHaveLength(2);
    expect(stdout).toMatch(/^ {4}1 {2}2S QS AD TD 4S 4H/m);
  });

  test('a tampered file: exit 1 with the first failing round and why; --json gives the reports', SPAWN, async () => {
    const bad = clone(transcripts);
    bad[0]!.receipts[2]!.body.returned = 500;
    const path = file('bad.json', { transcripts: bad });
    const text = cli(['verify', path, '--jwks', jwksPath]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^FAILED at round 3 \(receipt\): hash_mismatch: /m);
    const json = await inProcess(verifyCommand, [path, '--jwks', jwksPath, '--json']);
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout);
    expect(out.ok).toBe(false);
    expect(out.transcripts[0].failure).toMatchObject({ round: 3, record: 'receipt', code: 'hash_mismatch' });
    expect(out.transcripts[1].ok).toBe(true);
  });

  test('one transcript on stdin, unrevealed: passes pending', SPAWN, async () => {
    const pending = clone(transcripts[0]!);
    delete pending.reveal;
    const { code, stdout } = cli(['verify', '-', '--jwks', jwksPath], JSON.stringify(pending));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^PASS, PENDING: 7 round/m);
    const json = JSON.parse((await inProcess(verifyCommand, [file('pending.json', pending), '--jwks', jwksPath, '--json'])).stdout);
    expect(json).toMatchObject({ ok: true, pending: true });
  });

  test('keys from the file itself when --jwks is absent; garbage is a failure, not a crash', async () => {
    expect((await inProcess(verifyCommand, [file('with-keys.json', { transcripts, jwks: { keys: [vectors.key.publicJwk] } })])).code).toBe(0);
    const notJson = await inProcess(verifyCommand, [file('x.json', 'not json'), '--jwks', jwksPath]);
    expect(notJson.code).toBe(1);
    expect(notJson.stdout).toMatch(/^FAILED: .* is not JSON/);
    const junk = await inProcess(verifyCommand, [
      file('junk.json', { transcripts: [{ version: 'pb-fair-1', commitment: 5, receipts: [] }] }),
      '--jwks',
      jwksPath,
    ]);
    expect(junk.code).toBe(1);
    expect(junk.stdout).toMatch(/FAILED at the commitment record: bad_record/);
  });

  test('usage errors exit 2', async () => {
    const good = file('good2.json', { transcripts });
    for (const args of [
      [],
      [join(dir, 'missing.json'), '--jwks', jwksPath],
      [good],
      [good, '--jwks', join(dir, 'missing-jwks.json')],
      [good, '--jwks', file('empty-jwks.json', { keys: [] })],
      [good, good],
    ]) {
      const { code, error } = await inProcess(verifyCommand, args);
      expect(code, args.join(' ')).toBe(2);
      expect(error).not.toBe('');
    }
  });

  describe('--jwks URL', () => {
    const server = createServer((req, res) => {
      if (req.url === '/.well-known/jwks.json')
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [vectors.key.publicJwk] }));
      else res.writeHead(404).end();
    });
    let base = '';
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    test('fetches the JWKS; a 404 is a usage error', async () => {
      const good = file('url.json', { transcripts });
      expect((await inProcess(verifyCommand, [good, '--jwks', `${base}/.well-known/jwks.json`])).code).toBe(0);
      expect((await inProcess(verifyCommand, [good, '--jwks', `${base}/nope`])).code).toBe(2);
    });
  });
});
