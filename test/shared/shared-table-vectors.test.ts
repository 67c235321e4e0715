/** pb-shared-1 golden vectors: recomputed from their inputs, verified, and quoted in FAIRNESS.md part III. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { verifySharedText } from '../../shared/fairness/pb-shared-1/index.ts';
import { computeSharedVectors } from '../vectors/compute-shared.ts';
import { operatorKey } from './shared-table-fixtures.ts';

const stored = JSON.parse(readFileSync(new URL('../vectors/fairness-shared.json', import.meta.url), 'utf8'));
const spec = readFileSync(new URL('../../FAIRNESS.md', import.meta.url), 'utf8');
const jwks = async () => ({ keys: [(await operatorKey()).publicJwk] });

describe('pb-shared-1 golden vectors', () => {
  test('fairness-shared.json is exactly what the code computes', async () => {
    expect(JSON.parse(JSON.stringify(await computeSharedVectors()))).toEqual(stored);
  });

  test('the local-beacon table verifies', async () => {
    const r = await verifySharedText(JSON.stringify(stored.table.file), await jwks());
    expect(r).toMatchObject({ ok: true, code: 'ok', pending: false });
    expect(r.rounds.map((x) => x.status)).toContain('voided');
  });

  test('the table on REAL quicknet rounds 1000 and 657413 verifies, and fails with a swapped beacon', async () => {
    const text = JSON.stringify(stored.quicknet.file);
    expect(stored.quicknet.closes.map((c: { beaconRound: number }) => c.beaconRound)).toEqual([1000, 657413]);
    const r = await verifySharedText(text, await jwks());
    expect(r).toMatchObject({ ok: true, code: 'ok' });
    expect(r.rounds.map((x) => x.status)).toEqual(['verified', 'verified']);
    // Round 1000's signature offered for round 657413 (the operator re-signs the deal): no valid beacon.
    const file = structuredClone(stored.quicknet.file);
    const deals = file.records.filter((x: { body: { type: string } }) => x.body.type === 'deal');
    const { signSharedRecord } = await import('../../shared/fairness/pb-shared-1/index.ts');
    const i = file.records.indexOf(deals[1]);
    file.records[i] = await signSharedRecord({ ...deals[1].body, beacon: { ...deals[0].body.beacon, round: 657413 } }, await operatorKey());
    expect((await verifySharedText(JSON.stringify(file), await jwks())).code).toBe('bad_beacon_signature');
  });

  test('FAIRNESS.md part III quotes the vectors', () => {
    const part3 = spec.slice(spec.indexOf('# Part III'));
    const quoted = [
      stored.startInputs.clientSeed,
      stored.startInputs.stackFirst8.join(' '),
      stored.beacon.chain.hash,
      stored.table.commitment,
      stored.table.start,
      stored.table.firstBetRequest.digest,
      stored.table.firstClose.hash,
      stored.table.firstDeal.hash,
      stored.table.firstDeal.beacon.randomness,
      stored.table.firstSettlement.hash,
      stored.table.lastHash,
      ...stored.quicknet.closes.map((c: { hash: string }) => c.hash),
      ...stored.quicknet.deals.map((d: { hash: string }) => d.hash),
      stored.quicknet.lastHash,
    ];
    for (const value of quoted) expect(part3, value).toContain(value);
  });
});

describe('punto-banco verify on a shared table', () => {
  test("--player-key lists that player's rounds; --mine with a settlement the transcript lacks fails", async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { vi } = await import('vitest');
    const verifyCommand = await import('../../cli/commands/verify.ts');
    const dir = mkdtempSync(join(tmpdir(), 'shared-cli-'));
    const file = join(dir, 'table.json');
    const keys = join(dir, 'jwks.json');
    writeFileSync(file, JSON.stringify(stored.table.file));
    writeFileSync(keys, JSON.stringify(await jwks()));
    const me = stored.keys.players[1] as string;
    const run = async (args: string[]) => {
      const out: string[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
      try {
        return { code: await verifyCommand.run(args), json: JSON.parse(out.join('\n')) };
      } finally {
        log.mockRestore();
      }
    };
    const ok = await run([file, '--jwks', keys, '--json', '--player-key', me]);
    expect(ok.code).toBe(0);
    expect(ok.json.mine.rounds.length).toBeGreaterThan(5);
    const mine = stored.table.file.records.filter((r: { body: { type: string; player?: string } }) => r.body.type === 'settlement' && r.body.player === me);
    const partial = join(dir, 'partial.json');
    writeFileSync(
      partial,
      JSON.stringify({ ...stored.table.file, records: stored.table.file.records.filter((r: { hash: string }) => r.hash !== mine[0].hash) }),
    );
    const mineFile = join(dir, 'mine.json');
    writeFileSync(mineFile, JSON.stringify(mine));
    const bad = await run([partial, '--jwks', keys, '--json', '--player-key', me, '--mine', mineFile]);
    expect(bad.code).toBe(1);
    expect(bad.json.mine.findings.map((f: { code: string }) => f.code)).toContain('missing_in_operator_copy');
  });
});
