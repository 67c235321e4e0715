/**
 * The promise to players, end to end with the real Worker (`npm start`): the CLI plays 300
 * two-phase rounds as a signing player (shoe mode and reshuffle mode), writes the table's file and
 * its own copy, and `punto-banco verify` checks them with the keys fetched from the Worker's JWKS —
 * exit 0, the copies agreeing. The same file with one balance raised fails with exit 1, naming the
 * round; a table that stops answering after an acceptance leaves a round the player's copy shows owed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FairnessFile } from '../../shared/index.ts';

const ENDPOINT = process.env.PB_ENDPOINT ?? 'http://127.0.0.1:8787';
const JWKS = new URL('/.well-known/jwks.json', ENDPOINT).href;
const dir = mkdtempSync(join(tmpdir(), 'pb-cli-'));

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', 'cli/punto-banco.js', ...args], { encoding: 'utf8', timeout: 600_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

interface Report {
  ok: boolean;
  code: string;
  pending: boolean;
  report: { rounds: { shoe: number; round: number; status: string }[]; unsettled: unknown[]; failure?: { round: number | null; code: string } };
  copies?: unknown[];
}

for (const mode of ['shoe', 'reshuffle']) {
  test(`punto-banco play --rounds 300 --mode ${mode} against the Worker, then verify the table's file and the player's copy: exit 0`, () => {
    const out = join(dir, `t-${mode}.json`);
    const mine = join(dir, `mine-${mode}.json`);
    const play = cli('play', '--endpoint', ENDPOINT, '--rounds', '300', '--mode', mode, '--out', out, '--mine', mine);
    assert.equal(play.status, 0, play.stderr);
    const file = JSON.parse(readFileSync(out, 'utf8')) as FairnessFile;
    assert.equal(file.version, 'pb-fair-2');
    assert.equal(file.records.filter((r) => r.body.type === 'receipt').length, 300);
    assert.equal(file.records.filter((r) => r.body.type === 'acceptance').length, 300);
    // Every shoe played is revealed; the table's next shoe is committed, not started.
    assert.equal(file.records.at(-1)!.body.type, 'commitment');
    assert.equal(file.records.at(-2)!.body.type, 'reveal');

    const verify = cli('verify', out, '--jwks', JWKS);
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
    const json = cli('verify', out, '--jwks', JWKS, '--json', '--mine', mine);
    assert.equal(json.status, 0, json.stdout + json.stderr);
    const report = JSON.parse(json.stdout) as Report;
    assert.equal(report.ok, true);
    assert.equal(report.code, 'ok');
    assert.equal(report.report.rounds.length, 300);
    // Every shoe played is revealed: every round's cards are checked, none pending.
    assert.ok(
      report.report.rounds.every((r) => r.status === 'verified'),
      JSON.stringify(report.report.rounds.find((r) => r.status !== 'verified')),
    );
    assert.deepEqual(report.report.unsettled, []);
    assert.deepEqual(report.copies, []);
    // The player's copy alone verifies too.
    assert.equal(cli('verify', mine, '--jwks', JWKS).status, 0);
  });
}

test('the same file with one balance raised fails verify with exit 1, naming the round', () => {
  const out = join(dir, 'short.json');
  const play = cli('play', '--endpoint', ENDPOINT, '--rounds', '12', '--out', out);
  assert.equal(play.status, 0, play.stderr);
  const file = JSON.parse(readFileSync(out, 'utf8')) as FairnessFile;
  const receipt = file.records.filter((r) => r.body.type === 'receipt')[5]!;
  (receipt.body as { balanceAfter: number }).balanceAfter += 1000;
  const tampered = join(dir, 'tampered.json');
  writeFileSync(tampered, JSON.stringify(file));

  const verify = cli('verify', tampered, '--jwks', JWKS, '--json');
  assert.equal(verify.status, 1, verify.stdout + verify.stderr);
  const report = JSON.parse(verify.stdout) as Report;
  assert.equal(report.ok, false);
  assert.equal(report.report.failure!.round, (receipt.body as { round: number }).round);
  assert.ok(report.code.length > 0 && report.code !== 'ok');
  const text = cli('verify', tampered, '--jwks', JWKS);
  assert.match(text.stdout + text.stderr, new RegExp(`round ${(receipt.body as { round: number }).round}`));
});

test('a player whose table stops answering after an acceptance: verify --mine names the round unsettled_acceptance and owes it', async () => {
  const { betRequest, generateSigningKey, newRoundSecret, playerKeyOf, secretRequest, signRequest, startRequest } = await import('../../shared/index.ts');
  const player = (await generateSigningKey('player')).key;
  const call = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(new URL(path, ENDPOINT), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.ok, `POST ${path}: HTTP ${res.status} ${text}`);
    return JSON.parse(text);
  };
  const created = await call('/api/sessions', { room: 'hall-1', playerKey: playerKeyOf(player) });
  const path = (rest: string) => `/api/sessions/${created.sessionId}${rest}`;
  const records: unknown[] = [created.shoe.commitment];
  const started = await call(
    path('/shoe/start'),
    { request: await signRequest(startRequest(created.shoe.commitment, 'stopped table', 100), player) },
    created.token,
  );
  records.push(started.shoe.start);
  const secret = newRoundSecret((n) => crypto.getRandomValues(new Uint8Array(n)));
  const accepted = await call(
    path('/rounds'),
    { request: await signRequest(betRequest(started.shoe.start, 1, [{ sector: 0, box: 'banker', amount: 1000 }], secret), player) },
    created.token,
  );
  records.push(accepted.acceptance);
  // The secret is signed and "sent", but no answer ever comes back (the test double of a table that stopped).
  const sent = [await signRequest(secretRequest(accepted.acceptance, secret), player)];
  const mine = join(dir, 'mine-stopped.json');
  writeFileSync(mine, JSON.stringify({ version: 'pb-fair-2', records, sent }));
  const res = await fetch(new URL(path('/transcript'), ENDPOINT), { headers: { authorization: `Bearer ${created.token}` } });
  const theirs = join(dir, 'theirs-stopped.json');
  writeFileSync(theirs, await res.text());

  const verify = cli('verify', theirs, '--jwks', JWKS, '--mine', mine, '--json');
  assert.equal(verify.status, 1, verify.stdout + verify.stderr);
  const report = JSON.parse(verify.stdout) as Report & { owed: { round: number; acceptance: string; pending?: string }[] };
  assert.equal(report.code, 'unsettled_acceptance');
  assert.deepEqual(report.copies, []);
  assert.equal(report.owed.length, 1);
  assert.equal(report.owed[0]!.acceptance, accepted.acceptance.hash);
  // The shoe is not revealed yet: what it owes follows once it is (the Worker voids it at voidAt).
  assert.match(report.owed[0]!.pending ?? '', /reveal/);
});
