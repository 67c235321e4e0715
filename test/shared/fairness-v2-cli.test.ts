/** `punto-banco verify --json` over the whole conformance manifest, and `--mine` with the player's copy. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import * as verifyCommand from '../../cli/commands/verify.ts';
import { runInProcess } from '../cli/run-cli.ts';
import { importSigningKey } from '../../shared/index.ts';
import { playPrivateTable, type RoundScript } from '../players/pb-fair-2.ts';
import { ONE_DECK_V2, vectorSecret } from '../vectors/compute-v2.ts';
import { SEED_A } from '../vectors/inputs.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const conformance = join(ROOT, 'test/vectors/conformance');
const manifest = JSON.parse(readFileSync(join(conformance, 'manifest.json'), 'utf8')) as { cases: { file: string; jwks: string; expect: string }[] };

const inProcess = (args: string[]) => runInProcess(verifyCommand, args);

describe('punto-banco verify --json over the conformance suite', () => {
  test.each(manifest.cases.map((c) => [c.file, c] as const))('%s', async (_file, c) => {
    const { code, stdout } = await inProcess([join(conformance, c.file), '--jwks', join(conformance, c.jwks), '--json']);
    expect(JSON.parse(stdout).code).toBe(c.expect);
    expect(code).toBe(c.expect === 'ok' ? 0 : 1);
  });

  test('end to end: the spawned CLI prints the first code', { timeout: 60_000 }, () => {
    const c = manifest.cases.find((x) => x.expect === 'lock_mismatch')!;
    const run = spawnSync(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', 'cli/punto-banco.js', 'verify', join(conformance, c.file), '--jwks', join(conformance, c.jwks), '--json'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).code).toBe('lock_mismatch');
  });
});

describe('punto-banco verify --mine', async () => {
  const key = (name: string) => importSigningKey(JSON.parse(readFileSync(join(ROOT, 'test/vectors', name), 'utf8')));
  const operator = await key('test-key.jwk.json');
  const player = await key('player-key.jwk.json');
  const dir = mkdtempSync(join(tmpdir(), 'pb-fair-2-'));
  const jwks = join(dir, 'jwks.json');
  writeFileSync(jwks, JSON.stringify({ keys: [operator.publicJwk] }));
  const rounds = (n: number, last?: RoundScript['fate']): RoundScript[] =>
    Array.from({ length: n }, (_, i) => ({
      bets: [{ sector: 0, box: 'player', amount: 1000 }],
      secret: vectorSecret(i + 1),
      ...(i === n - 1 && last ? { fate: last } : {}),
    }));
  const play = (r: RoundScript[]) =>
    playPrivateTable({
      table: 'mine',
      operatorKey: operator,
      playerKey: player,
      openingBalance: 50_000,
      shoes: [{ params: ONE_DECK_V2, serverSeed: SEED_A, clientSeed: 'mine', cut: 30, rounds: r, end: 'player' }],
    });
  const save = (name: string, value: object) => {
    writeFileSync(join(dir, name), JSON.stringify(value));
    return join(dir, name);
  };

  test("a dropped last round is reported from the player's copy", async () => {
    const mine = save('mine.json', await play(rounds(4)));
    const theirs = save('theirs.json', await play(rounds(3)));
    const { code, stdout } = await inProcess([theirs, '--jwks', jwks, '--mine', mine, '--json']);
    const out = JSON.parse(stdout);
    expect(code).toBe(1);
    expect(out.code).toBe('ok'); // the operator's file is consistent on its own …
    expect(out.copies.map((c: { code: string; round: number | null }) => [c.code, c.round])).toContainEqual(['missing_in_operator_copy', 4]); // … but not with the player's
  });

  test("shared-table transfers the player's copy never received are listed, not findings", async () => {
    const shoe = (transfers: boolean) =>
      playPrivateTable({
        table: 'mine',
        operatorKey: operator,
        playerKey: player,
        openingBalance: 50_000,
        shoes: [
          {
            params: ONE_DECK_V2,
            serverSeed: SEED_A,
            clientSeed: 'mine',
            cut: 30,
            rounds: rounds(2).map((r, i) =>
              i === 1 && transfers
                ? {
                    ...r,
                    betFollows: 'seen' as const,
                    transfersBefore: [{ id: 'ab'.repeat(32), table: 'hall-1/a', shoe: 1, round: 4, kind: 'credit' as const, amount: 1500 }],
                  }
                : r,
            ),
            end: 'player',
          },
        ],
      });
    const theirsFile = await shoe(true);
    const theirs = save('transfers.json', { version: theirsFile.version, records: theirsFile.records });
    // The player's copy: every record but the transfer (its requests named the record before it).
    const mine = save('transfers-mine.json', { version: 'pb-fair-2', records: theirsFile.records.filter((r) => r.body.type !== 'transfer') });
    const { code, stdout } = await inProcess([theirs, '--jwks', jwks, '--mine', mine, '--json']);
    const out = JSON.parse(stdout);
    expect(out.code).toBe('ok');
    expect(out.copies).toEqual([]);
    expect(out.transfers.map((t: { kind: string; amount: number; transfer: string }) => [t.kind, t.amount, t.transfer])).toEqual([
      ['credit', 1500, 'ab'.repeat(32)],
    ]);
    expect(code).toBe(0);
    const text = await inProcess([theirs, '--jwks', jwks, '--mine', mine]);
    expect(text.stdout).toContain('1 shared-table transfer(s) your copy did not receive');
  });

  test('an unsettled round: the owed result is printed once the shoe is revealed', async () => {
    const file = await play(rounds(3, 'unsettled'));
    const theirs = save('unsettled.json', { version: file.version, records: file.records });
    const mine = save('unsettled-mine.json', file); // with the secret request in "sent"
    const { code, stdout } = await inProcess([theirs, '--jwks', jwks, '--mine', mine, '--json']);
    const out = JSON.parse(stdout);
    expect(code).toBe(1);
    expect(out.code).toBe('unsettled_acceptance');
    const honest = await play(rounds(3));
    const receipt = honest.records[7]!.body as { cards: unknown; balanceAfter: number };
    expect(out.owed).toHaveLength(1);
    expect(out.owed[0]).toMatchObject({ round: 3, cards: receipt.cards, balanceAfter: receipt.balanceAfter });
    const text = await inProcess([theirs, '--jwks', jwks, '--mine', mine]);
    expect(text.stdout).toContain('round 3 is owed');
  });
});
