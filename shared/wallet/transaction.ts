/**
 * Wallet transaction ids, derived, never drawn: the same round's debit always has the same id, so a
 * retry after a crash, a timeout or a restart names the same transaction and the wallet applies it
 * at most once (WALLET.md "Transaction ids").
 *
 *   walletTransactionId = "pbw1-" + the first 32 hex digits of
 *     SHA-256(UTF-8("pb-wallet-tx-1\n" + operatorId + "\n" + sessionId + "\n" + shoe + "\n" + round + "\n" + kind))
 *
 * with shoe and round as decimal integers without leading zeros and kind `debit`, `credit` or
 * `rollback`. Ids contain no newline (see ID_PATTERN), so the fields cannot run into each other.
 */
import { type EngineError, fail, ok, type Result } from '../errors.ts';

/** Operator, session and player ids: 1 to 128 of `A–Z a–z 0–9 . _ : -`. */
export const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The calls that move money and so carry a transaction id. */
export type TransactionKind = 'debit' | 'credit' | 'rollback';
export const TRANSACTION_KINDS: readonly TransactionKind[] = ['debit', 'credit', 'rollback'];

export interface TransactionKey {
  operatorId: string;
  sessionId: string;
  /** The shoe's number in the session, from 0 (or 1; whatever the records number it). */
  shoe: number;
  /** The round's number in its shoe. */
  round: number;
  kind: TransactionKind;
}

export type TransactionIdErrorCode = 'bad_transaction_key';

function checkKey(key: TransactionKey): EngineError<TransactionIdErrorCode> | undefined {
  for (const name of ['operatorId', 'sessionId'] as const) {
    if (typeof key[name] !== 'string' || !ID_PATTERN.test(key[name])) {
      return { code: 'bad_transaction_key', message: `${name} must be 1 to 128 of A-Z a-z 0-9 . _ : -` };
    }
  }
  for (const name of ['shoe', 'round'] as const) {
    if (!Number.isSafeInteger(key[name]) || key[name] < 0) return { code: 'bad_transaction_key', message: `${name} must be a whole number ≥ 0` };
  }
  if (!TRANSACTION_KINDS.includes(key.kind)) return { code: 'bad_transaction_key', message: `kind must be debit, credit or rollback` };
  return undefined;
}

/** The exact text whose SHA-256 names a transaction. */
export function transactionIdPreimage(key: TransactionKey): string {
  return `pb-wallet-tx-1\n${key.operatorId}\n${key.sessionId}\n${key.shoe}\n${key.round}\n${key.kind}`;
}

/** The transaction id of one kind of call for one round (see the module comment). */
export async function walletTransactionId(key: TransactionKey): Promise<Result<string, EngineError<TransactionIdErrorCode>>> {
  const bad = checkKey(key);
  if (bad) return { ok: false, error: bad };
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(transactionIdPreimage(key))));
  const hex = Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
  return ok(`pbw1-${hex}`);
}

/** A transaction id as walletTransactionId writes it. */
export const TRANSACTION_ID_PATTERN = /^pbw1-[0-9a-f]{32}$/;

/** The round id the wallet sees: `<sessionId>/<shoe>/<round>` (shown on the casino statement). */
export function walletRoundId(sessionId: string, shoe: number, round: number): Result<string, EngineError<TransactionIdErrorCode>> {
  const bad = checkKey({ operatorId: 'x', sessionId, shoe, round, kind: 'debit' });
  if (bad) return fail(bad.code, bad.message);
  return ok(`${sessionId}/${shoe}/${round}`);
}
