/**
 * The beacon chain of every shared-table shoe is named: the verifier says which chain each shoe
 * committed and whether it is a known public chain (drand quicknet, pinned in shared/beacon.ts); a
 * shoe on any other chain still verifies (the local development beacon must) but is flagged, and
 * `punto-banco verify --require-public-beacon` makes it a failure of its own code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import * as verifyCommand from '../../cli/commands/verify.ts';
import { runInProcess } from '../cli/run-cli.ts';
import { identifyChain, KNOWN_BEACON_CHAINS, QUICKNET } from '../../shared/beacon.ts';
import { publicBeaconFinding, UNKNOWN_BEACON_CHAIN, verifySharedText } from '../../shared/fairness/pb-shared-1/index.ts';
import { vectorBeacon } from './shared-table-fixtures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const conformance = join(ROOT, 'test/vectors/conformance');
const jwksPath = join(conformance, 'jwks.json');
const jwks = JSON.parse(readFileSync(jwksPath, 'utf8'));
/** A conformance case on REAL quicknet rounds, and one on the vectors' local beacon (three shoes). */
const QUICKNET_FILE = join(conformance, '158-shared-ok-quicknet.json');
const LOCAL_FILE = join(conformance, '156-shared-ok-three-shoes.json');

const QUICKNET_HASH = '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971';
const QUICKNET_KEY =
  '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a';

const inProcess = (args: string[]) => runInProcess(verifyCommand, args);

describe('identifyChain', () => {
  test("pins quicknet's hash and public key, as drand publishes them", () => {
    expect(KNOWN_BEACON_CHAINS.map((c) => [c.name, c.hash, c.publicKey])).toEqual([['drand quicknet', QUICKNET_HASH, QUICKNET_KEY]]);
    expect(identifyChain(QUICKNET)).toEqual({ hash: QUICKNET_HASH, scheme: QUICKNET.scheme, publicKey: QUICKNET_KEY, name: 'drand quicknet', known: true });
  });

  test('a local beacon is an unknown chain', () => {
    const local = vectorBeacon().chain;
    expect(identifyChain(local)).toEqual({ hash: local.hash, scheme: local.scheme, publicKey: local.publicKey, name: null, known: false });
  });

  test("quicknet's hash with another key or schedule is unknown, and says whose hash it carries", () => {
    const local = vectorBeacon().chain;
    for (const impostor of [
      { ...QUICKNET, publicKey: local.publicKey },
      { ...QUICKNET, genesisTime: QUICKNET.genesisTime - 3_000 },
      { ...QUICKNET, periodSeconds: 30 },
    ]) {
      expect(identifyChain(impostor)).toMatchObject({ hash: QUICKNET_HASH, name: null, known: false, impersonates: 'drand quicknet' });
    }
  });
});

describe('the pb-shared-1 report names every chain', () => {
  test('a shoe on quicknet: known, named, and no finding', async () => {
    const report = await verifySharedText(readFileSync(QUICKNET_FILE, 'utf8'), jwks);
    expect(report.code).toBe('ok');
    expect(report.chains).toEqual([
      {
        hash: QUICKNET_HASH,
        scheme: 'bls-unchained-g1-rfc9380',
        publicKey: QUICKNET_KEY,
        name: 'drand quicknet',
        known: true,
        periodSeconds: 3,
        genesisTime: 1692803367,
        shoes: [1],
      },
    ]);
    expect(publicBeaconFinding(report)).toBeNull();
  });

  test('shoes on a local beacon: still verified (the report code is unchanged), but flagged unknown', async () => {
    const report = await verifySharedText(readFileSync(LOCAL_FILE, 'utf8'), jwks);
    const local = vectorBeacon().chain;
    expect(report.code).toBe('ok');
    expect(report.chains).toEqual([{ ...local, name: null, known: false, shoes: [1, 2, 3] }]);
    const finding = publicBeaconFinding(report);
    expect(finding?.code).toBe(UNKNOWN_BEACON_CHAIN);
    expect(finding?.message).toContain(local.hash);
    expect(finding?.message).toContain('shoes 1, 2, 3');
  });
});

describe('punto-banco verify names the chain', () => {
  test('text: a known public chain by name', async () => {
    const { code, stdout } = await inProcess([QUICKNET_FILE, '--jwks', jwksPath]);
    expect(code).toBe(0);
    expect(stdout).toContain(`beacon chain: drand quicknet (known public chain) ${QUICKNET_HASH}, shoe 1`);
    expect(stdout).not.toContain('UNKNOWN');
  });

  test('text: an unknown chain with a warning, and the file still passes without the flag', async () => {
    const { code, stdout } = await inProcess([LOCAL_FILE, '--jwks', jwksPath]);
    expect(code).toBe(0);
    expect(stdout).toContain(`beacon chain: UNKNOWN chain ${vectorBeacon().chain.hash}, shoes 1, 2, 3`);
    expect(stdout).toContain('whoever holds its key could know rounds before the close');
    expect(stdout).toContain('VERIFIED');
  });

  test('--json carries the chains', async () => {
    const known = JSON.parse((await inProcess([QUICKNET_FILE, '--jwks', jwksPath, '--json'])).stdout);
    expect(known).toMatchObject({ ok: true, code: 'ok', chains: [{ hash: QUICKNET_HASH, name: 'drand quicknet', known: true }] });
    const unknown = JSON.parse((await inProcess([LOCAL_FILE, '--jwks', jwksPath, '--json'])).stdout);
    expect(unknown).toMatchObject({ ok: true, code: 'ok', chains: [{ hash: vectorBeacon().chain.hash, name: null, known: false, shoes: [1, 2, 3] }] });
    expect(unknown.report.chains).toEqual(unknown.chains);
  });

  test('--require-public-beacon fails an unknown chain with its own code, and passes quicknet', async () => {
    const failed = await inProcess([LOCAL_FILE, '--jwks', jwksPath, '--json', '--require-public-beacon']);
    expect(failed.code).toBe(1);
    const out = JSON.parse(failed.stdout);
    expect(out).toMatchObject({ ok: false, code: UNKNOWN_BEACON_CHAIN, beaconPolicy: { code: UNKNOWN_BEACON_CHAIN } });
    expect(out.report.code).toBe('ok'); // the §C8 checks themselves all passed
    const text = await inProcess([LOCAL_FILE, '--jwks', jwksPath, '--require-public-beacon']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`FAILED --require-public-beacon: ${UNKNOWN_BEACON_CHAIN}`);
    const passed = await inProcess([QUICKNET_FILE, '--jwks', jwksPath, '--json', '--require-public-beacon']);
    expect(passed.code).toBe(0);
    expect(JSON.parse(passed.stdout)).toMatchObject({ ok: true, code: 'ok' });
  });

  test('--require-public-beacon keeps the first §C8 failure when there is one', async () => {
    const tampered = join(conformance, '177-shared-beacon-chain-scheme.json');
    const { code, stdout } = await inProcess([tampered, '--jwks', jwksPath, '--json', '--require-public-beacon']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).code).toBe('bad_beacon_chain');
  });
});
