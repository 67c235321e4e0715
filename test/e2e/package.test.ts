/**
 * The npm package as a consumer meets it, after `npm run build`: every "exports" target exists;
 * the verifier and the engine import as plain ES modules in Node and work (a golden transcript
 * verifies, the 8-deck odds are the published counts); and a consumer's strict TypeScript project
 * type-checks against the shipped declarations — not against our sources and compiler flags.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>>; types: string };

/** Every file the package's exports name, relative to the package root. */
function exportTargets(): string[] {
  return Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
}

test('every export of package.json exists after the build', () => {
  for (const target of [...exportTargets(), pkg.types]) assert.ok(existsSync(path.join(root, target)), `${target} is missing`);
});

test('punto-banco/verify and punto-banco/engine run in Node as built', async () => {
  const verify = (await import(pathToFileURL(path.join(root, 'dist/lib/verify.js')).href)) as typeof import('../../shared/fairness/index.ts');
  const engine = (await import(pathToFileURL(path.join(root, 'dist/lib/engine.js')).href)) as typeof import('../../shared/index.ts');
  const vectors = JSON.parse(readFileSync(path.join(root, 'test/vectors/fairness.json'), 'utf8')) as {
    key: { publicJwk: Record<string, string> };
    transcripts: { name: string; transcript: Parameters<typeof verify.verifyFair1Transcript>[0] }[];
  };
  const jwks = { keys: [vectors.key.publicJwk] } as Parameters<typeof verify.verifyFair1Transcript>[1];
  for (const { name, transcript } of vectors.transcripts) {
    const report = await verify.verifyFair1Transcript(transcript, jwks);
    assert.equal(report.ok, true, `golden transcript ${name}`);
  }
  const odds = engine.exactOdds(8);
  assert.ok(odds.ok);
  assert.equal(odds.value.banker, 2_292_252_566_437_888n);
  assert.equal(odds.value.player, 2_230_518_282_592_256n);
  assert.equal(odds.value.tie, 475_627_426_473_216n);
});

test('a consumer project type-checks against the shipped declarations', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pb-consumer-'));
  const types = (p: string) => JSON.stringify(path.join(root, p).replace(/\.d\.ts$/, '.js'));
  writeFileSync(
    path.join(dir, 'consumer.ts'),
    `import type { PuntoBancoTable } from ${types((pkg.exports['.'] as Record<string, string>).types!)};
import { verifyFileText, verifyText, type FairnessFile, type Jwks } from ${types((pkg.exports['./verify'] as Record<string, string>).types!)};
import { exactOdds, ROOMS } from ${types((pkg.exports['./engine'] as Record<string, string>).types!)};
declare const table: PuntoBancoTable;
export const balance: number = table.balance;
export const tag: PuntoBancoTable | null = document.querySelector('punto-banco-table');
const odds = exactOdds(8);
export const banker: bigint = odds.ok ? odds.value.banker : 0n;
export const min: number = ROOMS['hall-1'].limits.min;
export async function check(file: FairnessFile, jwks: Jwks): Promise<boolean> {
  return (await verifyText(JSON.stringify(file), jwks)).ok;
}
export async function code(text: string, jwks: Jwks): Promise<string> {
  return (await verifyFileText(text, jwks)).code;
}
`,
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        noEmit: true,
        types: [],
      },
      files: ['consumer.ts'],
    }),
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});
