/**
 * Provable fairness (FAIRNESS.md): seeds and commitment, the keyed
 * shuffle stream, the derivation of the shoe, Ed25519 keys, signed chained records, the verifier.
 */
export * from './encoding.ts';
export * from './shape-checks.ts';
export * from './params.ts';
export * from './commit.ts';
export * from './fair1-commit.ts';
export * from './stream.ts';
export * from './shuffle.ts';
export * from './derive.ts';
export * from './keys.ts';
export * from './receipt-fields.ts';
export * from './records.ts';
export * from './loosest-limits.ts';
export * from './verify.ts';
export * from './v2/index.ts';
export * from './v2/json.ts';
export * from './v2/any.ts';
