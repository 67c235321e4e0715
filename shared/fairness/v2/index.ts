/** pb-fair-2 (FAIRNESS.md part II): locked bets, both sides' signatures, a closed history. */
export * from './derive.ts';
export * from './params.ts';
export * from './records.ts';
export * from './operator.ts';
export * from './play.ts';
export * from './json.ts';
export * from './shape.ts';
export * from './verify.ts';
export * from './copies.ts';
export * from './any.ts';
