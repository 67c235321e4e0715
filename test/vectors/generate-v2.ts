/**
 * Writes test/vectors/fairness-v2.json, the pb-fair-2 golden vectors of FAIRNESS.md part II, from
 * fixed seeds and the two fixed keys (operator: test-key.jwk.json, RFC 8032 §7.1 TEST 1; player:
 * player-key.jwk.json, TEST 2). Run from the project root: npx node test/vectors/generate-v2.ts
 * The pb-fair-1 vectors (fairness.json) are not touched.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { computeVectorsV2 } from './compute-v2.ts';

const dir = new URL('.', import.meta.url);
const jwk = (name: string) => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as JsonWebKey;
const vectors = await computeVectorsV2(jwk('test-key.jwk.json'), jwk('player-key.jwk.json'));
writeFileSync(new URL('fairness-v2.json', dir), JSON.stringify(vectors, null, 2) + '\n');
console.log('wrote test/vectors/fairness-v2.json');
