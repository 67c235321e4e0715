/** The Punto Banco engine: pure, deterministic given its inputs, shared by the Worker, the widget and the CLI. */
export * from './cards.ts';
export * from './errors.ts';
export * from './round.ts';
export * from './shoe.ts';
export * from './table.ts';
export * from './settle.ts';
export * from './odds.ts';
export * from './prng.ts';
export * from './simulate.ts';
export * from './roads.ts';
export * from './random.ts';
export * from './languages.ts';
export * from './fairness/index.ts';
export type * from './api.ts';
