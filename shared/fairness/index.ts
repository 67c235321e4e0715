/**
 * Provable fairness (FAIRNESS.md), the package's `punto-banco/verify` entry: what every protocol
 * version shares (seeds, encoding, keys, the word stream, canonical and strict JSON), the retired
 * pb-fair-1 (part I: read-only, its files stay verifiable), the live pb-fair-2 (part II), and
 * `verifyFileText`, which picks the verifier by the file's `version`. pb-shared-1 (part III, shared
 * tables) is not exported here: it imports the beacon's BLS code, and `verifyFileText` loads it only
 * for a shared-table file.
 */
// every version
export * from './common/encoding.ts';
export * from './common/seeds.ts';
export * from './common/stream.ts';
export * from './common/keys.ts';
export * from './common/strict-json.ts';
export * from './common/receipt-fields.ts';
export * from './common/loosest-limits.ts';
// pb-fair-1 (retired)
export * from './pb-fair-1/params.ts';
export * from './pb-fair-1/commit.ts';
export * from './pb-fair-1/shuffle.ts';
export * from './pb-fair-1/derive.ts';
export * from './pb-fair-1/records.ts';
export * from './pb-fair-1/verify.ts';
// pb-fair-2
export * from './pb-fair-2/index.ts';
// any version
export * from './verify-file.ts';
