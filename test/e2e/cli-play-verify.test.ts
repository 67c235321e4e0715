/**
 * The promise to players, end to end with the real Worker (`npm start`): the CLI plays 200 rounds
 * with random legal bets across shoes, writes the transcripts, and `punto-banco verify` checks them
 * with the keys fetched from the Worker's JWKS — exit 0. The same transcript with one payout
 * changed fails with exit 1, naming the round.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReceiptBody, Signed } from '../../shared/index.ts';

const ENDPOINT = process.env.PB_ENDPOINT ?? 'http://127.0.0.1:8787';
const JWKS = new URL('/.well-known/jwks.json', ENDPOINT).href;
const dir = mkdtempSync(join(tmpdir(), 'pb-cli-'));

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', 'cli/punto-banco.js', ...args], { encoding: 'utf8', timeout: 300_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

interface Report {
  ok: boolean;
  pending: boolean;
  transcripts: { ok: boolean; rounds: { round: number; ok: boolean; status: string; reason?: string }[] }[];
}

test('punto-banco play 200 rounds against the Worker, then verify with its JWKS: exit 0', () => {
  const out = join(dir, 't.json');
  const play = cli('play', '--endpoint', ENDPOINT, '--rounds', '200', '--out', out);
  assert.equal(play.status, 0, play.stderr);
  const file = JSON.parse(readFileSync(out, 'utf8')) as { transcripts: { receipts: Signed<ReceiptBody>[] }[] };
  assert.equal(file.transcripts.reduce((n, t) => n + t.receipts.length, 0), 200);

  const verify = cli('verify', out, '--jwks', JWKS);
  assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  const json = cli('verify', out, '--jwks', JWKS, '--json');
  assert.equal(json.status, 0);
  const report = JSON.parse(json.stdout) as Report;
  assert.equal(report.ok, true);
  assert.equal(report.pending, false, 'every shoe is revealed: its cards are checked, not pending');
  const rounds = report.transcripts.flatMap((t) => t.rounds);
  assert.equal(rounds.length, 200);
  assert.ok(rounds.every((r) => r.ok && r.status === 'verified'), JSON.stringify(rounds.find((r) => !r.ok)));
});

test('the same transcript with one balance raised fails verify with exit 1, naming the round', () => {
  const out = join(dir, 'short.json');
  assert.equal(cli('play', '--endpoint', ENDPOINT, '--rounds', '12', '--out', out).status, 0);
  const file = JSON.parse(readFileSync(out, 'utf8')) as { transcripts: { receipts: Signed<ReceiptBody>[] }[] };
  const receipt = file.transcripts[0]!.receipts[5]!;
  (receipt.body as { balanceAfter: number }).balanceAfter += 1000;
  const tampered = join(dir, 'tampered.json');
  writeFileSync(tampered, JSON.stringify(file));

  const verify = cli('verify', tampered, '--jwks', JWKS, '--json');
  assert.equal(verify.status, 1, verify.stdout + verify.stderr);
  const report = JSON.parse(verify.stdout) as Report;
  assert.equal(report.ok, false);
  const failed = report.transcripts[0]!.rounds.find((r) => !r.ok)!;
  assert.equal(failed.round, receipt.body.round);
  assert.ok(failed.reason && failed.reason.length > 0);
});
