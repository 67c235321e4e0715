/**
 * The table session's own timer (`due_at`): a round accepted and owed whose secret does not come
 * within `voidAfterSeconds` is voided (signed, its stake returned; the shoe revealed when that
 * was its last round); a shoe whose newest record is a void, idle for `voidAfterSeconds`, is
 * revealed ("void-timeout"). Run inside the session's queue of changes, by the alarm or before
 * any change that finds it due.
 */
import { type Acceptance, buildVoid, revealDue, signRecord } from '../../shared/index.ts';
import { signingKey } from '../keys/keys.ts';
import { iso, type SessionParts } from './parts.ts';
import type { Shoes } from './shoes.ts';
import { stateAfter } from './store.ts';
import { oweRollback, rollbackFor } from '../wallet/wallet-table.ts';
import type { WalletSession } from '../wallet/wallet-session.ts';

/** Whether the session's timer is due now. */
export function timerDue(parts: SessionParts): boolean {
  const session = parts.store.session();
  return session !== null && session.dueAt !== null && parts.now() >= Date.parse(session.dueAt);
}

/** `wallet`: in wallet mode a void owes its round's rollback, written in the void's transaction. */
export async function runVoidTimer(parts: SessionParts, shoes: Shoes, wallet?: WalletSession): Promise<void> {
  if (!parts.exists()) return;
  const { store } = parts;
  const session = store.session()!;
  if (session.protocol !== 'pb-fair-2' || session.dueAt === null || parts.now() < Date.parse(session.dueAt)) return;
  const shoe = store.shoeV2(session.currentShoe)!;
  const key = await signingKey(parts.env);
  const now = iso(parts.now());
  if (session.pendingRound !== null) {
    const acceptance = store.lastRecord<Acceptance>('acceptance', shoe.number, session.pendingRound)!;
    const w = wallet?.row() ?? null;
    const rollback = wallet && w ? await rollbackFor(wallet, w, acceptance) : null;
    const voided = await signRecord(buildVoid(acceptance, key.keyId, now, rollback?.transaction), key);
    const reason = revealDue(shoe.params, { cutCardOut: false, accepted: session.shoeRounds });
    const ending = reason ? await shoes.endAndCommit(session, shoe, voided, reason, voided.body.balanceAfter) : null;
    parts.counted('void', () => {
      const voidedState = stateAfter(session, {
        balance: voided.body.balanceAfter,
        pendingRound: null,
        dueAt: iso(Date.parse(now) + shoe.params.voidAfterSeconds * 1000),
      });
      store.appendRecord(voided, voidedState);
      if (wallet && rollback) oweRollback(wallet, parts, voided, rollback);
      if (ending) shoes.writeEnding(shoe.number, ending, voidedState);
    });
    return;
  }
  const last = store.lastRecord(null)!;
  // Idle after a void, shared-table transfers aside (§B14): the reveal follows the newest record.
  if ((last.body.type === 'transfer' ? store.lastPrivateRecord()! : last).body.type !== 'void') return;
  const ending = await shoes.endAndCommit(session, shoe, last, 'void-timeout', session.balance);
  parts.counted('idle-reveal', () => {
    shoes.writeEnding(shoe.number, ending, session);
    shoes.dealt(shoe.number, null);
  });
}
