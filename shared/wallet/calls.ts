/**
 * The four wallet calls, their answers, and what an answer means for the provider
 * (WALLET.md "Calls", "Answers", "Outcomes"). Pure: building a body, checking a body (the wallet's
 * side), parsing an answer strictly (the provider's side) and classifying the outcome.
 */
import { type EngineError, fail, ok, oneOf, type Result } from '../errors.ts';
import { isCurrency } from './currency.ts';
import { ID_PATTERN, TRANSACTION_ID_PATTERN, type TransactionKind } from './transaction.ts';

export type WalletCallName = 'balance' | TransactionKind;
export const WALLET_CALLS: readonly WalletCallName[] = ['balance', 'debit', 'credit', 'rollback'];

interface CallBase {
  playerId: string;
  sessionId: string;
  /** ISO 4217 code; every amount is in its minor units. */
  currency: string;
}

export interface BalanceCall extends CallBase {
  kind: 'balance';
}

interface MoneyCall extends CallBase {
  transactionId: string;
  /** `<sessionId>/<shoe>/<round>`. */
  roundId: string;
  /** Minor units, a whole number: > 0 for a debit, ≥ 0 for a credit (0 closes a lost round), the debit's amount for a rollback. */
  amount: number;
}

export interface DebitCall extends MoneyCall {
  kind: 'debit';
}

export interface CreditCall extends MoneyCall {
  kind: 'credit';
  /** The id of the round's debit that this credit settles. */
  debitTransactionId: string;
}

export interface RollbackCall extends MoneyCall {
  kind: 'rollback';
  /** The id of the debit to undo. */
  debitTransactionId: string;
}

export type WalletCall = BalanceCall | DebitCall | CreditCall | RollbackCall;

/** The fields of each call's body, in the order the provider writes them. */
const FIELDS: Readonly<Record<WalletCallName, readonly string[]>> = {
  balance: ['kind', 'playerId', 'sessionId', 'currency'],
  debit: ['kind', 'transactionId', 'roundId', 'playerId', 'sessionId', 'currency', 'amount'],
  credit: ['kind', 'transactionId', 'roundId', 'playerId', 'sessionId', 'currency', 'amount', 'debitTransactionId'],
  rollback: ['kind', 'transactionId', 'roundId', 'playerId', 'sessionId', 'currency', 'amount', 'debitTransactionId'],
};

/** The JSON body of a call, its fields in a fixed order. */
export function walletCallBody(call: WalletCall): string {
  const record = call as unknown as Record<string, unknown>;
  return JSON.stringify(Object.fromEntries(FIELDS[call.kind].map((name) => [name, record[name]])));
}

/** The path of a call under the wallet's base: `<walletBase>/<kind>`. */
export function walletCallUrl(walletBase: string, kind: WalletCallName): string {
  return `${walletBase.replace(/\/+$/, '')}/${kind}`;
}

export type CallErrorCode = 'bad_request';

/**
 * The wallet's check of a call body (the reference wallet uses it): every field there, of its type,
 * nothing else, and `kind` equal to the path's call. Amounts are whole minor units.
 */
export function parseWalletCall(kind: string, body: string): Result<WalletCall, EngineError<CallErrorCode>> {
  if (!(WALLET_CALLS as readonly string[]).includes(kind)) return fail('bad_request', `there is no call "${kind}"; the calls are ${oneOf(WALLET_CALLS)}`);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return fail('bad_request', 'the body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('bad_request', 'the body must be a JSON object');
  const record = value as Record<string, unknown>;
  const fields = FIELDS[kind as WalletCallName];
  const extra = Object.keys(record).find((k) => !fields.includes(k));
  if (extra !== undefined) return fail('bad_request', `unknown field "${extra}"`);
  for (const name of fields) if (!(name in record)) return fail('bad_request', `the field "${name}" is missing`);
  if (record.kind !== kind) return fail('bad_request', `"kind" is ${JSON.stringify(record.kind)} but the call is ${kind}`);
  for (const name of ['playerId', 'sessionId'] as const) {
    if (typeof record[name] !== 'string' || !ID_PATTERN.test(record[name])) return fail('bad_request', `"${name}" must be 1 to 128 of A-Z a-z 0-9 . _ : -`);
  }
  if (!isCurrency(record.currency)) return fail('bad_request', `"currency" must be an active ISO 4217 code, got ${JSON.stringify(record.currency)}`);
  if (kind === 'balance') return ok(record as unknown as BalanceCall);
  for (const name of kind === 'debit' ? ['transactionId'] : ['transactionId', 'debitTransactionId']) {
    if (typeof record[name] !== 'string' || !TRANSACTION_ID_PATTERN.test(record[name]))
      return fail('bad_request', `"${name}" must be a transaction id (pbw1- and 32 hex digits)`);
  }
  if (
    typeof record.roundId !== 'string' ||
    !record.roundId.startsWith(`${record.sessionId}/`) ||
    !/^[^/]+\/(0|[1-9]\d{0,14})\/(0|[1-9]\d{0,14})$/.test(record.roundId)
  ) {
    return fail('bad_request', '"roundId" must be <sessionId>/<shoe>/<round>, of this call\'s session');
  }
  const amount = record.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) return fail('bad_request', '"amount" must be a whole number of minor units');
  if (kind === 'credit' ? amount < 0 : amount <= 0) return fail('bad_request', `"amount" must be ${kind === 'credit' ? '≥ 0' : '> 0'}`);
  return ok(record as unknown as WalletCall);
}

/** Two calls with one transaction id are the same call when these agree. */
export function sameCall(a: WalletCall, b: WalletCall): boolean {
  return walletCallBody(a) === walletCallBody(b);
}

/**
 * The closed list of codes a wallet may answer. `unknown_transaction` is a success on a rollback
 * (there was nothing to undo, and now nothing ever will be: the id is closed).
 */
export const WALLET_CODES = [
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
] as const;
export type WalletCode = (typeof WALLET_CODES)[number];

/** A successful answer: the player's balance after the call. */
export interface WalletOk {
  status: 'ok';
  /** Absent on a balance call. */
  transactionId?: string;
  currency: string;
  /** Minor units after the call. */
  balance: number;
  /** Only `unknown_transaction`, on a rollback of a debit the wallet never saw. */
  code?: 'unknown_transaction';
}

/** A refusal: nothing was applied. */
export interface WalletRefusal {
  status: 'refused';
  code: Exclude<WalletCode, 'duplicate'>;
  message: string;
  /** The balance, when the wallet knows the player (insufficient_funds always carries it). */
  balance?: number;
}

/** The same transaction id came again with the same body: here is the first answer, unchanged. */
export interface WalletDuplicate {
  status: 'duplicate';
  code: 'duplicate';
  original: WalletOk | WalletRefusal;
}

export type WalletAnswer = WalletOk | WalletRefusal | WalletDuplicate;

/** The HTTP status a wallet answers with: 200 for ok and duplicate, 401 for a bad signature, 409 for a conflict, 422 for other refusals, 400 for a bad request. */
export function answerStatus(answer: WalletAnswer): number {
  if (answer.status !== 'refused') return 200;
  return answer.code === 'bad_signature' ? 401 : answer.code === 'bad_request' ? 400 : answer.code === 'transaction_conflict' ? 409 : 422;
}

export type AnswerErrorCode = 'malformed_answer';

function isMinor(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function exactKeys(record: Record<string, unknown>, required: readonly string[], optional: readonly string[]): string | undefined {
  for (const k of required) if (!(k in record)) return `"${k}" is missing`;
  const extra = Object.keys(record).find((k) => !required.includes(k) && !optional.includes(k));
  return extra === undefined ? undefined : `unknown field "${extra}"`;
}

function parseInner(value: unknown, call: WalletCall, nested: boolean): Result<WalletAnswer, EngineError<AnswerErrorCode>> {
  const bad = (why: string) => fail('malformed_answer', `the wallet's answer to ${call.kind}: ${why}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('not a JSON object');
  const r = value as Record<string, unknown>;
  if (r.status === 'ok') {
    const missing = exactKeys(r, call.kind === 'balance' ? ['status', 'currency', 'balance'] : ['status', 'transactionId', 'currency', 'balance'], ['code']);
    if (missing) return bad(missing);
    if (call.kind !== 'balance' && r.transactionId !== call.transactionId)
      return bad(`it names transaction ${JSON.stringify(r.transactionId)}, not ${call.transactionId}`);
    if (r.currency !== call.currency) return bad(`its currency ${JSON.stringify(r.currency)} is not ${call.currency}`);
    if (!isMinor(r.balance)) return bad('"balance" must be a whole number of minor units ≥ 0');
    if ('code' in r && !(r.code === 'unknown_transaction' && call.kind === 'rollback'))
      return bad(`an ok answer to ${call.kind} cannot carry the code ${JSON.stringify(r.code)}`);
    return ok(r as unknown as WalletOk);
  }
  if (r.status === 'refused') {
    const missing = exactKeys(r, ['status', 'code', 'message'], ['balance']);
    if (missing) return bad(missing);
    if (typeof r.code !== 'string' || r.code === 'duplicate' || !(WALLET_CODES as readonly string[]).includes(r.code))
      return bad(`unknown code ${JSON.stringify(r.code)}`);
    if (r.code === 'unknown_transaction' && call.kind === 'rollback') return bad('a rollback of an unknown debit is answered ok, never refused');
    if (typeof r.message !== 'string') return bad('"message" must be text');
    if ('balance' in r && !isMinor(r.balance)) return bad('"balance" must be a whole number of minor units ≥ 0');
    return ok(r as unknown as WalletRefusal);
  }
  if (r.status === 'duplicate' && !nested) {
    const missing = exactKeys(r, ['status', 'code', 'original'], []);
    if (missing) return bad(missing);
    if (r.code !== 'duplicate') return bad('a duplicate answer carries the code "duplicate"');
    if (call.kind === 'balance') return bad('a balance call has no transaction to duplicate');
    const original = parseInner(r.original, call, true);
    if (!original.ok) return original;
    return ok({ status: 'duplicate', code: 'duplicate', original: original.value as WalletOk | WalletRefusal });
  }
  return bad(`unknown status ${JSON.stringify(r.status)}`);
}

/**
 * A wallet's answer to `call`, checked strictly: JSON of one of the three shapes, no unknown field,
 * a code from the closed list, the call's own transaction id and currency, whole balances. Anything
 * else is `malformed_answer`, whose outcome is unknown.
 */
export function parseWalletAnswer(call: WalletCall, body: string): Result<WalletAnswer, EngineError<AnswerErrorCode>> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return fail('malformed_answer', `the wallet's answer to ${call.kind} is not JSON`);
  }
  return parseInner(value, call, false);
}

/** Why an outcome is unknown: nothing proves the call was applied, nor that it was not. */
export type UnknownReason = 'timeout' | 'network' | 'http_status' | 'malformed_answer' | 'bad_answer_signature';

export type WalletOutcome =
  | { kind: 'applied'; answer: WalletOk; duplicate: boolean }
  | { kind: 'refused'; code: WalletRefusal['code']; message: string; balance?: number; duplicate: boolean }
  | { kind: 'unknown'; reason: UnknownReason; message: string };

/**
 * What a call did, from the HTTP status and the parsed answer. A 5xx is unknown whatever its body
 * says; a 200 must be ok or duplicate, a 4xx a refusal; a duplicate means whatever its original
 * meant.
 */
export function classifyAnswer(httpStatus: number, answer: Result<WalletAnswer, EngineError<AnswerErrorCode>>): WalletOutcome {
  if (httpStatus >= 500 || httpStatus < 200) return { kind: 'unknown', reason: 'http_status', message: `the wallet answered HTTP ${httpStatus}` };
  if (!answer.ok) return { kind: 'unknown', reason: 'malformed_answer', message: answer.error.message };
  const a = answer.value;
  const expected = answerStatus(a);
  if (httpStatus !== expected) {
    return { kind: 'unknown', reason: 'http_status', message: `the wallet answered HTTP ${httpStatus} with a ${a.status} answer (expected ${expected})` };
  }
  const duplicate = a.status === 'duplicate';
  const inner = a.status === 'duplicate' ? a.original : a;
  if (inner.status === 'ok') return { kind: 'applied', answer: inner, duplicate };
  return { kind: 'refused', code: inner.code, message: inner.message, ...(inner.balance === undefined ? {} : { balance: inner.balance }), duplicate };
}

/**
 * What an outbox does with a credit's or rollback's outcome: `done` once the wallet has it
 * (applied; a rollback of an unknown debit is applied too; a rollback refused with
 * `unknown_player` or `wrong_currency` is done as well, since no debit can have been applied to an
 * account that does not exist in that currency), `retry` while the outcome is unknown or the wallet
 * refused the signature (a secret being rotated), `stuck` on any other refusal, which no retry
 * changes: the row stays for reconciliation and an operator's attention.
 */
export function outboxDisposition(kind: 'credit' | 'rollback', outcome: WalletOutcome): 'done' | 'retry' | 'stuck' {
  if (outcome.kind === 'applied') return 'done';
  if (outcome.kind === 'unknown') return 'retry';
  if (kind === 'rollback' && (outcome.code === 'unknown_player' || outcome.code === 'wrong_currency')) return 'done';
  return outcome.code === 'bad_signature' ? 'retry' : 'stuck';
}
