/** Wallet mode's pure core: currencies, signatures, transaction ids, calls and answers, retries, limits, launch. */
export * from './currency.ts';
export * from './sign.ts';
export * from './transaction.ts';
export * from './calls.ts';
export * from './client.ts';
export * from './outbox.ts';
export * from './responsible.ts';
export * from './launch.ts';
export * from './operators.ts';
