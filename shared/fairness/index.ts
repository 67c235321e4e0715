/**
 * Provable fairness (FAIRNESS.md), the package's `punto-banco/verify` entry: what every protocol
 * version shares (seeds, encoding, keys, the word stream, canonical and strict JSON), the retired
 * pb-fair-1 (part I: read-only, its files stay verifiable), the live pb-fair-2 (part II), and
 * `verifyFileText`, which picks the verifier by the file's `version`. pb-shared-1 (part III, shared
 * tables) is not exported here: it imports the beacon's BLS code, and `verifyFileText` loads it only
 * for a shared-table file.
 */
// every version
export * from './encoding.ts';
export * from './commit.ts';
export * from './stream.ts';
export * from './keys.ts';
export * from './v2/json.ts';
export * from './receipt-fields.ts';
export * from './loosest-limits.ts';
// pb-fair-1 (retired)
export * from './params.ts';
export * from './fair1-commit.ts';
export * from './shuffle.ts';
export * from './derive.ts';
export * from './records.ts';
export * from './verify.ts';
// pb-fair-2
export * from './v2/index.ts';
// any version
export * from './v2/any.ts';
