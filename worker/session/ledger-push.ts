/**
 * The operator's ledger, from a session's side, and the session's one alarm. The session keeps
 * running totals (rounds, staked, returned) written with each receipt (in its record's row);
 * `LEDGER_DELAY_MS` after the first change the ledger lacks, the alarm sends them to the `Ledger`
 * (ledger/ledger.ts explains why that can neither double count nor lose a round). What the ledger
 * acknowledged is kept in memory, not written. The one alarm serves both the ledger and the
 * table's own timer (`due_at`, void-timer.ts): it is armed for the earlier of the two, and an
 * alarm already armed earlier is left be (each `setAlarm` is billed as a row written; an early
 * alarm does what is due and arms the next), so voids are never late. In wallet mode it serves
 * the outbox as well (worker/wallet/outbox.ts: the next credit or rollback due), and the ledger
 * is not pushed (its totals are play money; a wallet session's books are the operator's).
 */
import { ledgerDelayMs } from '../config/env.ts';
import { LEDGER_NAME } from '../ledger/ledger.ts';
import type { SessionParts, TableStats } from './parts.ts';
import type { SessionRow } from './store.ts';

/** How long to wait before sending the totals again when the ledger could not be reached. */
export const LEDGER_RETRY_MS = 30_000;

export class LedgerPush {
  readonly #parts: SessionParts;
  readonly #storage: DurableObjectStorage;
  /** When the ledger push is due (table clock, ms), while the ledger may lack some totals. */
  #ledgerDue: number | null = null;
  /**
   * Rounds the ledger has acknowledged, as far as this instance knows (kept in memory only: no row
   * written for it). A fresh instance starts from the session row's `ledger_rounds` (a lower
   * bound: no longer written, -1 for newer sessions), so after an eviction it sends its totals once
   * more, which the ledger ignores when it has them.
   */
  #ledgerRounds = -1;
  /** The alarm time this instance has set or found armed (ms), to set it again only when it must fire earlier. */
  #armedAt: number | null = null;
  readonly alarm: TableStats['alarm'] = { set: 0, runs: 0 };
  readonly ledger: TableStats['ledger'] = { pushes: 0, failed: 0 };

  /** Wallet mode: when the outbox next needs the alarm (ms), or null; and whether the ledger is skipped (its totals are play money). */
  readonly #wallet: { due(): number | null; active(): boolean };

  constructor(
    parts: SessionParts,
    storage: DurableObjectStorage,
    wallet: { due(): number | null; active(): boolean } = { due: () => null, active: () => false },
  ) {
    this.#parts = parts;
    this.#storage = storage;
    this.#wallet = wallet;
  }

  /** A wake-up found this alarm armed (by the instance before), or none. */
  found(at: number | null): void {
    this.#armedAt = at;
  }

  /** The alarm fires: nothing is armed any more. */
  fired(): void {
    this.alarm.runs++;
    this.#armedAt = null;
  }

  /**
   * Sets the one alarm for the earlier of the ledger push and the table's timer (when either is
   * due). `bet`: just after a change that left a round pending, whose settlement the ledger will
   * lack within seconds: its delay starts now, so that the bet arms the one alarm for both (the
   * void deadline is later) and the secret arms nothing.
   */
  async schedule(bet = false): Promise<void> {
    if (!this.#parts.exists()) return;
    const s = this.#parts.store.session()!;
    // Measured from the first change the ledger lacks, never pushed back by later ones: the ledger
    // lags by at most the delay, and the rounds played meanwhile go in one push.
    if (this.#behind(s) || (bet && s.pendingRound !== null)) this.#ledgerDue ??= this.#parts.now() + ledgerDelayMs(this.#parts.env);
    else this.#ledgerDue = null;
    const timer = s.dueAt === null ? null : Date.parse(s.dueAt);
    const at = [this.#ledgerDue, timer, this.#wallet.due()].filter((t): t is number => t !== null).reduce((a, b) => Math.min(a, b), Infinity);
    // An alarm armed no later serves as well: it does what is due and arms the next. Each setAlarm
    // is a row written, so a player's bets (their void deadlines) mostly leave the ledger's alarm be.
    if (at === Infinity || (this.#armedAt !== null && this.#armedAt <= at)) return;
    try {
      this.alarm.set++;
      await this.#storage.setAlarm(at);
      this.#armedAt = at;
    } catch (err) {
      // The change itself is committed: never fail its answer for this. The next change, or the
      // table's next wake-up, arms the alarm again.
      console.error('punto-banco: could not arm the alarm:', (err as Error).message);
    }
  }

  /** Whether the ledger may lack these totals (-1 acknowledged: it may not know the session yet). */
  #behind(s: SessionRow): boolean {
    // The ledger sums play money by affiliate and room: a wallet session's minor units of a currency are the operator's own books.
    if (this.#wallet.active()) return false;
    this.#ledgerRounds = Math.max(this.#ledgerRounds, s.ledgerRounds);
    return this.#ledgerRounds < s.rounds;
  }

  /** Sends the totals to the ledger now, when it is behind; true when the ledger has them. */
  async push(): Promise<boolean> {
    if (!this.#parts.exists()) return true;
    const s = this.#parts.store.session()!;
    if (!this.#behind(s)) return true;
    this.ledger.pushes++;
    try {
      await this.#parts.env.LEDGER.getByName(LEDGER_NAME).record({
        sessionId: s.sessionId,
        affiliate: s.affiliate,
        attribution: s.attribution,
        room: s.room,
        rounds: s.rounds,
        staked: s.staked,
        returned: s.returned,
      });
    } catch (err) {
      console.error(`punto-banco: the ledger did not take the totals of ${s.sessionId} (retry in ${LEDGER_RETRY_MS / 1000} s):`, (err as Error).message);
      this.ledger.failed++;
      this.#ledgerDue = this.#parts.now() + LEDGER_RETRY_MS;
      await this.schedule();
      return false;
    }
    // Applied or a repeat, the ledger now has these totals: remembered here, no row written.
    this.#ledgerRounds = Math.max(this.#ledgerRounds, s.rounds);
    this.#ledgerDue = null;
    // Rounds played while the totals were on their way go in the next push.
    await this.schedule();
    return true;
  }
}
