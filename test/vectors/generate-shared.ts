/**
 * Writes test/vectors/fairness-shared.json, the pb-shared-1 golden vectors of FAIRNESS.md part III.
 * Run from the project root: npx node test/vectors/generate-shared.ts
 */
import { writeFileSync } from 'node:fs';
import { computeSharedVectors } from './compute-shared.ts';

writeFileSync(new URL('fairness-shared.json', import.meta.url), JSON.stringify(await computeSharedVectors(), null, 2) + '\n');
console.log('wrote test/vectors/fairness-shared.json');
