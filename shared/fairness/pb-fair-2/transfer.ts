/**
 * Transfer records (FAIRNESS.md §B14): a shared table moves a session's balance between its
 * private rounds, and the session's pb-fair-2 chain states every such movement in a record the
 * operator signs, so the balance it carries stays continuous. Pure: the Worker signs and stores.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8Bytes } from '../common/encoding.ts';
import type { FairnessFile, Signed, TransferKind, Transfer, WalletDebit, WalletMovement } from './records.ts';

export const TRANSFER_KINDS: readonly TransferKind[] = ['debit', 'credit', 'refund'];

/** What a shared table asks of a session: one movement, named by its id. */
export interface TransferAsk {
  /** The shared table's id for this movement: the same movement always carries the same id. */
  id: string;
  table: string;
  shoe: number;
  round: number;
  kind: TransferKind;
  amount: number;
  /** A credit's or refund's: the id of the debit transfer whose stake it pays or returns (a wallet-mode session's wallet call names that debit). */
  debit?: string;
}

const ID = /^[0-9a-f]{16,64}$/;

/** The wallet member a transfer of each kind carries in a wallet shoe (§B15), and the wallet call it is. */
export const TRANSFER_WALLET_MEMBER: Readonly<Record<TransferKind, 'debit' | 'credit' | 'rollback'>> = { debit: 'debit', credit: 'credit', refund: 'rollback' };

/**
 * Why the members of a transfer are not a transfer (§B14: `bad_transfer`), or null. `wallet`: the
 * transfer is of a wallet shoe (§B15), where a credit may be 0 (the zero credit that closes a lost
 * shared round, as a private round's receipt does).
 */
export function transferShapeError(t: { id: unknown; shoe: unknown; round: unknown; kind: unknown; amount: unknown }, wallet = false): string | null {
  if (typeof t.id !== 'string' || !ID.test(t.id)) return 'a transfer id is 16–64 lowercase hex characters';
  if (!TRANSFER_KINDS.includes(t.kind as TransferKind)) return 'a transfer is a debit, a credit or a refund';
  const least = wallet && t.kind === 'credit' ? 0 : 1;
  if (!Number.isSafeInteger(t.amount) || (t.amount as number) < least)
    return least === 0 ? "a wallet shoe's credit is an integer of minor units ≥ 0" : 'a transfer amount is a positive integer of minor units';
  if (!Number.isSafeInteger(t.shoe) || (t.shoe as number) < 1 || !Number.isSafeInteger(t.round) || (t.round as number) < 1)
    return 'a transfer names its shared shoe and round, each from 1';
  return null;
}

/** The balance after a transfer: a debit takes, a credit or refund adds. Null: a debit the balance does not cover. */
export function balanceAfterTransfer(kind: TransferKind, amount: number, balanceBefore: number): number | null {
  const after = kind === 'debit' ? balanceBefore - amount : balanceBefore + amount;
  return after < 0 ? null : after;
}

/** A wallet shoe's transfer's wallet member (§B15): the debit of a debit, the credit of a credit, the rollback of a refund. */
export type TransferWallet = { debit: WalletDebit } | { credit: WalletMovement } | { rollback: WalletMovement };

/**
 * The transfer record of `ask` (applied: the balance covers it), following the record `last`
 * (its hash) of the session's private table, in the private shoe `shoe`. `wallet`: a wallet
 * shoe's member of its kind (§B15), whose `debit.balanceAfter + amount` is then `balanceBefore`.
 */
export function buildTransfer(a: {
  ask: TransferAsk;
  last: Signed;
  shoe: number;
  balanceBefore: number;
  keyId: string;
  issuedAt: string;
  wallet?: TransferWallet;
}): Transfer {
  const t = a.ask;
  const after = balanceAfterTransfer(t.kind, t.amount, a.balanceBefore);
  if (after === null) throw new RangeError(`a debit of ${t.amount} from a balance of ${a.balanceBefore} is refused, not recorded`);
  return {
    type: 'transfer',
    table: a.last.body.table,
    shoe: a.shoe,
    keyId: a.keyId,
    transfer: t.id,
    sharedTable: t.table,
    sharedShoe: t.shoe,
    sharedRound: t.round,
    kind: t.kind,
    amount: t.amount,
    balanceBefore: a.balanceBefore,
    balanceAfter: after,
    ...a.wallet,
    prev: a.last.hash,
    issuedAt: a.issuedAt,
  };
}

/**
 * The id a shared table gives a movement (§B14): SHA-256 of "pb-shared/transfer\n", the shared
 * table, shoe and round, the player's key at that table (its pb-shared-1 `player`) and the kind,
 * separated by newlines. A player computes it from a pb-shared-1 settlement to find the matching
 * transfer record of its private chain.
 */
export function sharedTransferId(sharedTable: string, shoe: number, round: number, player: string, kind: TransferKind): string {
  return bytesToHex(sha256(utf8Bytes(`pb-shared/transfer\n${sharedTable}\n${shoe}\n${round}\n${player}\n${kind}`)));
}

/**
 * The transfer records of the operator's file (`theirs`) that the player's copy (`mine`) does not
 * hold, in chain order. Not a discrepancy: the player's copy keeps what answered its own requests,
 * and a transfer answers none; listed so the player can match each with its shared table's records.
 */
export function unseenTransfers(mine: Pick<FairnessFile, 'records'>, theirs: Pick<FairnessFile, 'records'>): Signed<Transfer>[] {
  const held = new Set(mine.records.map((r) => r?.hash));
  return theirs.records.filter((r): r is Signed<Transfer> => r?.body?.type === 'transfer' && !held.has(r.hash));
}
