/**
 * The conformance suite (FAIRNESS.md §B12): the shared verifier gives every case its expected
 * first code; the suite covers every pb-fair-2 code, both versions, both modes, 1, 6 and 8 decks.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SHARED_VERIFY_CODES } from '../../shared/fairness/pb-shared-1/verify.ts';
import { MERKLE_CODES } from '../../shared/fairness/pb-shared-2/verify.ts';
import { VERIFY_CODES, verifyFileText } from '../../shared/index.ts';

const dir = new URL('../vectors/conformance/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, dir), 'utf8');
export interface ConformanceCase {
  file: string;
  jwks: string;
  expect: string;
  version: 'pb-fair-1' | 'pb-fair-2' | 'pb-shared-1' | 'pb-shared-2';
  about: string;
}
const manifest = JSON.parse(read('manifest.json')) as { cases: ConformanceCase[] };

describe('conformance suite', () => {
  test('is large and covers every pb-fair-2 code and both versions', () => {
    expect(manifest.cases.length).toBeGreaterThanOrEqual(80);
    const v2 = new Set(manifest.cases.filter((c) => c.version === 'pb-fair-2').map((c) => c.expect));
    for (const code of VERIFY_CODES) expect(v2, code).toContain(code);
    expect(manifest.cases.some((c) => c.version === 'pb-fair-1' && c.expect === 'ok')).toBe(true);
    expect(manifest.cases.filter((c) => c.version === 'pb-fair-1').length).toBeGreaterThanOrEqual(20);
    // Both modes, 1, 6 and 8 decks among the passing pb-fair-2 files.
    const params = manifest.cases
      .filter((c) => c.version === 'pb-fair-2' && c.expect === 'ok')
      .flatMap((c) =>
        (JSON.parse(read(c.file)).records as { body: { type: string; params?: { mode: string; decks: number } } }[])
          .filter((r) => r.body.type === 'commitment')
          .map((r) => `${r.body.params!.mode}/${r.body.params!.decks}`),
      );
    for (const p of ['shoe/1', 'shoe/6', 'shoe/8', 'reshuffle/1', 'reshuffle/8']) expect(params).toContain(p);
  });

  test('holds passing wallet tables (§B15) in EUR, JPY and BHD, with a rollback and a zero credit', () => {
    const wallets = manifest.cases
      .filter((c) => c.version === 'pb-fair-2' && c.expect === 'ok')
      .flatMap((c) => (JSON.parse(read(c.file)).records as { body: Record<string, any> }[]).map((r) => r.body));
    const currencies = new Set(wallets.filter((b) => b.type === 'commitment' && b.wallet).map((b) => b.wallet.currency as string));
    for (const currency of ['EUR', 'JPY', 'BHD']) expect(currencies).toContain(currency);
    expect(wallets.some((b) => b.type === 'void' && b.rollback)).toBe(true);
    expect(wallets.some((b) => b.type === 'receipt' && b.credit?.amount === 0)).toBe(true);
  });

  test('covers every pb-shared-1 code (FAIRNESS.md §C8)', () => {
    const shared = new Set(manifest.cases.filter((c) => c.version === 'pb-shared-1').map((c) => c.expect));
    for (const code of SHARED_VERIFY_CODES) expect(shared, code).toContain(code);
    expect(shared).toContain('ok');
  });

  test('covers every code pb-shared-2 adds (FAIRNESS.md §D5), in cases numbered 300–349', () => {
    const merkle = manifest.cases.filter((c) => c.version === 'pb-shared-2');
    const codes = new Set(merkle.map((c) => c.expect));
    for (const code of MERKLE_CODES) expect(codes, code).toContain(code);
    expect(codes).toContain('ok');
    for (const c of merkle) expect(Number(c.file.slice(0, 3)), c.file).toBeGreaterThanOrEqual(300);
    for (const c of merkle) expect(Number(c.file.slice(0, 3)), c.file).toBeLessThanOrEqual(349);
  });

  test('the runtime normalises with the Unicode version FAIRNESS.md §B1 names', () => {
    // A new Unicode version changes which client seeds are assigned text: that is a new pb-fair version.
    expect(process.versions.unicode).toBe('17.0');
  });

  test.each(manifest.cases.map((c) => [c.file, c] as const))('%s', async (_name, c) => {
    const result = await verifyFileText(read(c.file), JSON.parse(read(c.jwks)));
    expect(result.code, c.about).toBe(c.expect);
    if (result.version !== null) expect(result.version).toBe(c.version);
  });
});
