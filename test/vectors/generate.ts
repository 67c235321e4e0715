/**
 * Writes test/vectors/fairness.json, the golden vectors of FAIRNESS.md, from fixed seeds and the
 * fixed test key test-key.jwk.json (RFC 8032 §7.1 TEST 1; its kid is its RFC 7638 thumbprint,
 * as in RFC 8037 A.3). Ed25519 is deterministic, so the output never changes unless the algorithm
 * does — and then `pb-fair-1` must become a new version. Run once, from the project root:
 *
 *   npx node test/vectors/generate.ts
 *
 * test/shared/fairness-vectors.test.ts recomputes every value here and fails on any difference.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { vectorInputs } from './inputs.ts';
import { computeVectors } from './compute.ts';

const dir = new URL('.', import.meta.url);
const key = JSON.parse(readFileSync(new URL('test-key.jwk.json', dir), 'utf8')) as JsonWebKey;
const vectors = await computeVectors(vectorInputs, key);
writeFileSync(new URL('fairness.json', dir), JSON.stringify(vectors, null, 2) + '\n');
console.log('wrote test/vectors/fairness.json');
