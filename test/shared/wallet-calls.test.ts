import { describe, expect, test } from 'vitest';
import {
  classifyAnswer,
  outboxDisposition,
  parseWalletAnswer,
  parseWalletCall,
  walletCallBody,
  WALLET_CODES,
  type CreditCall,
  type RollbackCall,
  type WalletCall,
  type WalletCode,
} from '../../shared/wallet/calls.ts';
import { DEBIT } from './wallet-fixtures.ts';

const CREDIT: CreditCall = {
  ...DEBIT,
  kind: 'credit',
  transactionId: 'pbw1-e0dcca8e62daec29e58bfa7b877c23a4',
  amount: 0,
  debitTransactionId: DEBIT.transactionId,
};
const ROLLBACK: RollbackCall = { ...DEBIT, kind: 'rollback', transactionId: 'pbw1-b919fcd64d3c4a755dafc1b11d552c27', debitTransactionId: DEBIT.transactionId };

const okAnswer = (call: WalletCall, balance = 97_500) => ({
  status: 'ok',
  ...(call.kind === 'balance' ? {} : { transactionId: call.transactionId }),
  currency: 'EUR',
  balance,
});

function outcome(call: WalletCall, http: number, body: unknown) {
  return classifyAnswer(http, parseWalletAnswer(call, typeof body === 'string' ? body : JSON.stringify(body)));
}

describe('call bodies', () => {
  test('fields in a fixed order, and the wallet reads them back', () => {
    expect(walletCallBody(DEBIT)).toBe(
      '{"kind":"debit","transactionId":"pbw1-40b4b41da353574977eb80a79251c868","roundId":"s-7f3a/1/12","playerId":"alice","sessionId":"s-7f3a","currency":"EUR","amount":2500}',
    );
    for (const call of [DEBIT, CREDIT, ROLLBACK, { kind: 'balance', playerId: 'alice', sessionId: 's-7f3a', currency: 'JPY' } as const]) {
      expect(parseWalletCall(call.kind, walletCallBody(call))).toEqual({ ok: true, value: call });
    }
  });

  test.each([
    ['not JSON', 'debit', '{'],
    ['an unknown call', 'deposit', walletCallBody(DEBIT)],
    ['kind differs from the path', 'credit', walletCallBody(DEBIT)],
    ['an unknown field', 'debit', JSON.stringify({ ...JSON.parse(walletCallBody(DEBIT)), bonus: 1 })],
    ['a missing field', 'debit', JSON.stringify({ ...JSON.parse(walletCallBody(DEBIT)), roundId: undefined })],
    ['a fractional amount', 'debit', walletCallBody({ ...DEBIT, amount: 12.5 })],
    ['a zero debit', 'debit', walletCallBody({ ...DEBIT, amount: 0 })],
    ['a negative credit', 'credit', walletCallBody({ ...CREDIT, amount: -1 })],
    ['an unknown currency', 'debit', walletCallBody({ ...DEBIT, currency: 'EURO' })],
    ['a bad transaction id', 'debit', walletCallBody({ ...DEBIT, transactionId: 'tx-1' })],
    ['a bad round id', 'debit', walletCallBody({ ...DEBIT, roundId: 'round 12' })],
    ["another session's round", 'debit', walletCallBody({ ...DEBIT, roundId: 's-other/1/12' })],
    ['a round number with a leading zero', 'debit', walletCallBody({ ...DEBIT, roundId: 's-7f3a/1/012' })],
  ])('%s is bad_request', (_why, kind, body) => {
    const r = parseWalletCall(kind, body);
    expect(r.ok ? '' : r.error.code).toBe('bad_request');
  });
});

describe('answers: the strict parser and what they mean', () => {
  test('ok → applied; a zero credit too', () => {
    expect(outcome(DEBIT, 200, okAnswer(DEBIT))).toEqual({ kind: 'applied', answer: okAnswer(DEBIT), duplicate: false });
    expect(outcome(CREDIT, 200, okAnswer(CREDIT, 97_500)).kind).toBe('applied');
    const balance = { kind: 'balance', playerId: 'alice', sessionId: 's', currency: 'EUR' } as const;
    expect(outcome(balance, 200, { status: 'ok', currency: 'EUR', balance: 0 }).kind).toBe('applied');
  });

  test('a rollback of a debit never seen is a success: applied, code unknown_transaction', () => {
    const answer = { ...okAnswer(ROLLBACK, 100_000), code: 'unknown_transaction' };
    expect(outcome(ROLLBACK, 200, answer)).toEqual({ kind: 'applied', answer, duplicate: false });
    // ...and never a refusal, nor a code on another call's ok.
    expect(outcome(ROLLBACK, 422, { status: 'refused', code: 'unknown_transaction', message: 'x' }).kind).toBe('unknown');
    expect(outcome(DEBIT, 200, { ...okAnswer(DEBIT), code: 'unknown_transaction' }).kind).toBe('unknown');
  });

  const refusals = WALLET_CODES.filter((c) => c !== 'duplicate');
  test.each(refusals)('refused %s: nothing applied, the code kept', (code) => {
    const http = code === 'bad_signature' ? 401 : code === 'bad_request' ? 400 : code === 'transaction_conflict' ? 409 : 422;
    const body = { status: 'refused', code, message: `because ${code}`, balance: 100 };
    expect(outcome(DEBIT, http, body)).toEqual({ kind: 'refused', code, message: `because ${code}`, balance: 100, duplicate: false });
    // The same refusal under the wrong HTTP status is not trusted.
    expect(outcome(DEBIT, http === 422 ? 400 : 422, body).kind).toBe('unknown');
  });

  test('duplicate carries the original answer and means what it meant', () => {
    const applied = { status: 'duplicate', code: 'duplicate', original: okAnswer(DEBIT) };
    expect(outcome(DEBIT, 200, applied)).toEqual({ kind: 'applied', answer: okAnswer(DEBIT), duplicate: true });
    const refused = { status: 'duplicate', code: 'duplicate', original: { status: 'refused', code: 'insufficient_funds', message: 'no', balance: 5 } };
    expect(outcome(DEBIT, 200, refused)).toEqual({ kind: 'refused', code: 'insufficient_funds', message: 'no', balance: 5, duplicate: true });
  });

  test('the codes are a closed list', () => {
    expect(WALLET_CODES).toEqual([
      'insufficient_funds',
      'limit_reached',
      'player_blocked',
      'unknown_player',
      'wrong_currency',
      'duplicate',
      'unknown_transaction',
      'rolled_back',
      'transaction_conflict',
      'bad_request',
      'bad_signature',
    ]);
  });

  test.each([
    ['not JSON', 200, '<html>ok</html>'],
    ['an empty body', 200, ''],
    ['an array', 200, [okAnswer(DEBIT)]],
    ['an unknown status', 200, { ...okAnswer(DEBIT), status: 'success' }],
    ['an unknown code', 422, { status: 'refused', code: 'out_of_money', message: 'x' }],
    ['a refusal with code duplicate', 422, { status: 'refused', code: 'duplicate', message: 'x' }],
    ['an unknown field', 200, { ...okAnswer(DEBIT), bonus: 5 }],
    ['another transaction id', 200, { ...okAnswer(DEBIT), transactionId: CREDIT.transactionId }],
    ['another currency', 200, { ...okAnswer(DEBIT), currency: 'USD' }],
    ['a fractional balance', 200, okAnswer(DEBIT, 0.5)],
    ['a negative balance', 200, okAnswer(DEBIT, -1)],
    ['a balance as text', 200, { ...okAnswer(DEBIT), balance: '97500' }],
    ['a missing message', 422, { status: 'refused', code: 'insufficient_funds' }],
    ['a nested duplicate', 200, { status: 'duplicate', code: 'duplicate', original: { status: 'duplicate', code: 'duplicate', original: okAnswer(DEBIT) } }],
    ['a duplicate without its original', 200, { status: 'duplicate', code: 'duplicate' }],
    ['an ok under HTTP 201', 201, okAnswer(DEBIT)],
    ['a refusal under HTTP 200', 200, { status: 'refused', code: 'insufficient_funds', message: 'x' }],
    ['an ok under a 5xx', 503, okAnswer(DEBIT)],
    ['a 500 with any body', 500, 'Internal Server Error'],
  ])('%s: the outcome is unknown', (_why, http, body) => {
    expect(outcome(DEBIT, http, body).kind).toBe('unknown');
  });
});

describe('the outbox keeps what is owed', () => {
  test('applied is done, unknown retried, a signature refusal retried, other refusals stuck', () => {
    const refused = (code: WalletCode) => ({ kind: 'refused' as const, code: code as Exclude<WalletCode, 'duplicate'>, message: '', duplicate: false });
    for (const kind of ['credit', 'rollback'] as const) {
      expect(outboxDisposition(kind, { kind: 'applied', answer: { status: 'ok', currency: 'EUR', balance: 1 }, duplicate: true })).toBe('done');
      expect(outboxDisposition(kind, { kind: 'unknown', reason: 'timeout', message: '' })).toBe('retry');
      expect(outboxDisposition(kind, refused('bad_signature'))).toBe('retry');
      expect(outboxDisposition(kind, refused('transaction_conflict'))).toBe('stuck');
    }
    // No debit can stand for a player, or a currency, the wallet does not have: the rollback is done; a credit is stuck.
    expect(outboxDisposition('rollback', refused('unknown_player'))).toBe('done');
    expect(outboxDisposition('rollback', refused('wrong_currency'))).toBe('done');
    expect(outboxDisposition('credit', refused('unknown_player'))).toBe('stuck');
  });
});
