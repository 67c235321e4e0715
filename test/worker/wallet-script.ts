/**
 * A scripted operator wallet for the workerd tests of wallet mode: WALLET.md §5–§7 in memory
 * (balances, every transaction by id with its first answer, closed debit ids, rollbacks), answers
 * signed with the operator secret as `punto-banco wallet` signs them, and faults injected call by
 * call (`next`): a timeout (applied, never answered), a dropped connection or a 5xx (not applied),
 * a forged signature (applied), a duplicate answer (applied, answered as a repeat), a refusal.
 * It is the table's `walletFetch`; `ledger()` is its side of the books for reconciliation.
 */
import { env } from 'cloudflare:workers';
import { generateSigningKey, playerKeyOf, type SigningKey, type TableLimits } from '../../shared/index.ts';
import {
  answerStatus,
  defaultCurrencyLimits,
  parseWalletCall,
  sameCall,
  signWalletMessage,
  type FetchLike,
  type WalletAnswer,
  type WalletCall,
  type WalletOk,
  type WalletRefusal,
} from '../../shared/wallet/index.ts';
import { newSessionId, newToken, tokenHash } from '../../worker/http/tokens.ts';
import type { Table } from '../../worker/session/table.ts';
import type { WalletInit } from '../../worker/wallet/calls-view.ts';
import { insideTable, type Session } from './helpers.ts';

export const PROVIDER_SECRET = 'test-provider-secret';
export const OPERATOR_SECRET = 'test-operator-secret';
export const WALLET_BASE = 'https://wallet.test/pb';

/** The operator's settings for these tests: a short timeout, EUR and JPY at the default limits. */
export const OPERATOR_ENV = {
  OPERATOR_SETTINGS: JSON.stringify([{ id: 'demo', walletUrl: WALLET_BASE, timeoutMs: 150, currencies: { EUR: 'default', JPY: 'default' } }]),
  OPERATOR_SECRETS: JSON.stringify({ demo: { provider: PROVIDER_SECRET, operator: OPERATOR_SECRET } }),
};

export type Fault = 'timeout' | 'drop' | '5xx' | 'bad-signature' | 'duplicate' | { refuse: WalletRefusal['code'] };

interface Tx {
  call: WalletCall;
  answer: WalletOk | WalletRefusal;
  state: 'applied' | 'refused' | 'rolled_back' | 'closed';
}

export class ScriptedWallet {
  readonly balances = new Map<string, { currency: string; balance: number; status: 'active' | 'blocked' | 'limit_reached' }>();
  readonly txs = new Map<string, Tx>();
  /** Debit ids a rollback closed before the debit came. */
  readonly closed = new Set<string>();
  /** Every call received, in order, with the fault it met. */
  readonly received: Array<{ call: WalletCall; fault: Fault | null }> = [];
  /** Faults for the next calls, in order (optionally only for one kind). */
  readonly faults: Array<{ fault: Fault; kind?: WalletCall['kind'] }> = [];
  startingBalance = 100_000;
  /** The wallet's clock (ms): the table's, so that signatures stay within the window when a test moves it. */
  now: () => number = () => Date.now();

  next(fault: Fault, kind?: WalletCall['kind']): this {
    this.faults.push({ fault, ...(kind ? { kind } : {}) });
    return this;
  }

  #fault(kind: WalletCall['kind']): Fault | null {
    const i = this.faults.findIndex((f) => f.kind === undefined || f.kind === kind);
    return i < 0 ? null : this.faults.splice(i, 1)[0]!.fault;
  }

  #account(call: WalletCall) {
    let a = this.balances.get(call.playerId);
    if (!a) this.balances.set(call.playerId, (a = { currency: call.currency, balance: this.startingBalance, status: 'active' }));
    return a;
  }

  /** WALLET.md §7, applied to the in-memory ledger. */
  apply(call: WalletCall): WalletAnswer {
    const account = this.#account(call);
    const okAnswer = (): WalletOk => ({
      status: 'ok',
      ...(call.kind === 'balance' ? {} : { transactionId: call.transactionId }),
      currency: call.currency,
      balance: account.balance,
    });
    const refuse = (code: WalletRefusal['code'], message: string): WalletRefusal => ({ status: 'refused', code, message, balance: account.balance });
    if (call.kind === 'balance') return okAnswer();
    const seen = this.txs.get(call.transactionId);
    if (seen) {
      if (!sameCall(seen.call, call)) return refuse('transaction_conflict', 'this id came with another body');
      return { status: 'duplicate', code: 'duplicate', original: seen.answer };
    }
    const keep = (answer: WalletOk | WalletRefusal, state: Tx['state']) => {
      this.txs.set(call.transactionId, { call, answer, state });
      return answer;
    };
    if (call.kind === 'debit') {
      if (this.closed.has(call.transactionId)) return keep(refuse('rolled_back', 'this debit was rolled back'), 'refused');
      if (account.status === 'blocked') return keep(refuse('player_blocked', 'the player is blocked'), 'refused');
      if (account.status === 'limit_reached') return keep(refuse('limit_reached', 'a limit of the operator stops this bet'), 'refused');
      if (account.balance < call.amount) return keep(refuse('insufficient_funds', `the balance ${account.balance} is less than ${call.amount}`), 'refused');
      account.balance -= call.amount;
      return keep(okAnswer(), 'applied');
    }
    const debit = this.txs.get(call.debitTransactionId);
    const settledBy = [...this.txs.values()].find(
      (t) => t.call.kind === call.kind && 'debitTransactionId' in t.call && t.call.debitTransactionId === call.debitTransactionId,
    );
    if (call.kind === 'credit') {
      if (!debit) return keep(refuse('unknown_transaction', 'no such debit'), 'refused');
      if (debit.state === 'rolled_back') return keep(refuse('rolled_back', 'the debit was rolled back'), 'refused');
      if (settledBy) return refuse('transaction_conflict', 'this debit is credited already');
      account.balance += call.amount;
      return keep(okAnswer(), 'applied');
    }
    // rollback
    if (!debit) {
      this.closed.add(call.debitTransactionId);
      return keep({ ...okAnswer(), code: 'unknown_transaction' }, 'closed');
    }
    if (debit.state === 'refused') return keep(okAnswer(), 'closed');
    const credited = [...this.txs.values()].some((t) => t.call.kind === 'credit' && t.call.debitTransactionId === call.debitTransactionId);
    if (credited) return refuse('transaction_conflict', 'the debit is credited: a settled round is not undone');
    debit.state = 'rolled_back';
    account.balance += call.amount;
    return keep(okAnswer(), 'applied');
  }

  /** The table's `walletFetch`. */
  readonly fetch: FetchLike = async (url, init) => {
    const path = new URL(url).pathname;
    const kind = path.split('/').pop()!;
    const parsed = parseWalletCall(kind, init.body);
    if (!parsed.ok) throw new Error(`the table sent a malformed call: ${parsed.error.message}`);
    const call = parsed.value;
    const fault = this.#fault(call.kind);
    this.received.push({ call, fault });
    const nonce = (init.headers['PB-Nonce'] ?? init.headers['pb-nonce'])!;
    if (fault === 'drop') throw new TypeError('connection reset');
    if (fault === '5xx') return respond(500, '{"error":"down"}', {});
    let answer: WalletAnswer =
      typeof fault === 'object' && fault !== null ? { status: 'refused', code: fault.refuse, message: `scripted ${fault.refuse}` } : this.apply(call);
    if (fault === 'duplicate' && answer.status !== 'duplicate') answer = { status: 'duplicate', code: 'duplicate', original: answer };
    if (fault === 'timeout') {
      // Applied; the answer never comes: only the table's timeout ends the call.
      return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }
    const body = JSON.stringify(answer);
    const secret = fault === 'bad-signature' ? 'not-the-operator-secret' : OPERATOR_SECRET;
    const headers = await signWalletMessage(secret, { direction: 'answer', method: 'POST', path, timestamp: Math.floor(this.now() / 1000), nonce, body });
    return respond(answerStatus(answer), body, headers);
  };

  /** The player's balance as the wallet holds it. */
  balance(playerId: string): number {
    return this.balances.get(playerId)!.balance;
  }

  /** The wallet's books: applied debits, credits and rollbacks (the money that moved). */
  moved(): { debits: number; credits: number; rollbacks: number } {
    const sum = (kind: WalletCall['kind'], states: Tx['state'][]) =>
      [...this.txs.values()].filter((t) => t.call.kind === kind && states.includes(t.state)).reduce((n, t) => n + (t.call as { amount: number }).amount, 0);
    return { debits: sum('debit', ['applied', 'rolled_back']), credits: sum('credit', ['applied']), rollbacks: sum('rollback', ['applied']) };
  }
}

function respond(status: number, body: string, headers: Record<string, string>) {
  const bytes = new TextEncoder().encode(body);
  const h = new Headers(headers);
  return Promise.resolve({ status, headers: { get: (n: string) => h.get(n) }, arrayBuffer: async () => bytes.buffer as ArrayBuffer });
}

export const tableOf = (id: string) => env.TABLES.getByName(id);

/** Puts the operator's settings and the scripted wallet behind the live instance of `id` (again after a restart). */
export async function attach(id: string, wallet: ScriptedWallet): Promise<void> {
  await insideTable(id, (t: Table & { env: Record<string, unknown> }) => {
    t.env = { ...t.env, ...OPERATOR_ENV };
    t.walletFetch = wallet.fetch;
    wallet.now = () => t.clock();
  });
}

/** The launch's part of a session: player, currency, limits. */
export function walletInit(over: Partial<WalletInit> = {}): WalletInit {
  return {
    operator: 'demo',
    playerId: `p-${crypto.randomUUID().slice(0, 8)}`,
    currency: 'EUR',
    lang: 'en',
    returnUrl: 'https://casino.example/lobby',
    playerLimits: {},
    tableLimits: defaultCurrencyLimits('hall-1', over.currency ?? 'EUR').ok
      ? (defaultCurrencyLimits('hall-1', over.currency ?? 'EUR') as { value: TableLimits }).value
      : ({} as TableLimits),
    ...over,
  };
}

/** A wallet-mode session created through the table's RPC (the launch's redemption does this), as a test Session. */
export async function walletSession(
  wallet: ScriptedWallet,
  over: Partial<WalletInit> = {},
  player?: SigningKey,
): Promise<{ s: Session; init: WalletInit; status: number; body: any }> {
  const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
  const id = newSessionId(random);
  const token = newToken(id, random);
  const key = player ?? (await generateSigningKey()).key;
  const init = walletInit(over);
  await attach(id, wallet);
  const created = await tableOf(id).create({
    sessionId: id,
    tokenHash: tokenHash(token),
    room: 'hall-1',
    affiliate: null,
    attribution: 'claimed',
    playerKey: playerKeyOf(key),
    mode: 'shoe',
    wallet: init,
  });
  const body = created.body as any;
  return { s: { id, token, limits: body.limits, created: body, player: key, secrets: new Map(), next: null }, init, status: created.status, body };
}
