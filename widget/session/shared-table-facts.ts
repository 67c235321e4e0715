/**
 * A shared table as this tab knows it from the table's messages (shared-table-session.ts reads
 * them): the table's last `state` kept up to date by the later messages (its shoe, round, phase,
 * connections), the betting window's local close, everyone's bets of the round and the shoe's
 * outcomes so far, and the HUD's model built from them. What is the player's own (its bet, its
 * start, its balance) is the session's.
 */
import type { SharedCommitment, SharedDeal, SignedShared } from '../../shared/fairness/pb-shared-1/records.ts';
import { outcomeOfCode, type OutcomeFacts } from '../../shared/fairness/pb-shared-1/outcomes.ts';
import { totalStake } from '../../shared/table.ts';
import type { ServerMessageOf, SharedCloseRecord, SharedStartRecord } from '../../shared/wire/shared-table-socket.ts';
import { afterDeal } from './shared-table-round.ts';
import type { SharedTablePhase, SharedTableView, TableBet } from './shared-table-link.ts';

/** What the HUD's model takes from the session: the player's own bet and what the table allows now. */
export type PlayerPart = Pick<SharedTableView, 'mine' | 'canBet' | 'drawing' | 'transcriptUrl' | 'verifyUrl' | 'proof' | 'startProof'>;

export class SharedTableFacts {
  /** The table as the socket's `state` message gave it, with this session's seat, kept up to date by the other messages. */
  pub: ServerMessageOf<'state'> | null = null;
  phase: SharedTablePhase = 'connecting';
  /** Everyone's bets of the round, by player. */
  bets = new Map<string, TableBet>();
  /** The shoe's outcomes so far (the roads). */
  outcomes: OutcomeFacts[] = [];
  /** Local time the window closes (the server's closesAt, never later than a window from when we heard of it). */
  #closesAt = 0;

  /** Milliseconds left in the betting window. */
  left(): number {
    return Math.max(0, this.#closesAt - Date.now());
  }

  /** The whole table again (a join, a resync); true when its shoe is another than the one this tab knew. */
  state(s: ServerMessageOf<'state'>): boolean {
    const newShoe = this.pub !== null && this.pub.shoe.number !== s.shoe.number;
    this.pub = s;
    this.phase = s.phase;
    this.#closesAt = s.closesAt ? Math.min(Date.parse(s.closesAt), Date.now() + s.windowMs) : 0;
    this.bets = new Map(s.bets.map((b) => [b.player, b]));
    if (s.outcomes) this.outcomes = s.outcomes.map(outcomeOfCode).filter((o): o is OutcomeFacts => o !== null);
    return newShoe;
  }

  /** A betting window opens (the table known). False when for a shoe this tab has not seen: its state is to be asked for. */
  open(shoe: number, round: number, closesAt: string): boolean {
    if (!this.pub) return true;
    const known = shoe === this.pub.shoe.number;
    this.pub = { ...this.pub, shoe: { ...this.pub.shoe, number: shoe }, round, phase: 'betting', closesAt, beaconRound: null, bets: [] };
    this.phase = 'betting';
    this.#closesAt = Math.min(Date.parse(closesAt), Date.now() + this.pub.windowMs);
    this.bets.clear();
    return known;
  }

  /**
   * The window closed: the round waits for its beacon. A pb-shared-1 close is the round's whole book
   * (every box's total from the signed requests); a pb-shared-2 close commits to the bets without
   * listing them, so the felt keeps the bets seen as they were taken.
   */
  close(round: number, close: SharedCloseRecord, start?: SharedStartRecord): void {
    if (!this.pub) return;
    const shoe = start ? { ...this.pub.shoe, start } : this.pub.shoe;
    this.pub = { ...this.pub, round, phase: 'awaiting-beacon', beaconRound: close.body.beaconRound, shoe };
    this.phase = 'awaiting-beacon';
    if ('bets' in close.body)
      this.bets = new Map(close.body.bets.map((b) => [b.body.player, { player: b.body.player, stake: totalStake(b.body.bets), bets: b.body.bets }]));
  }

  /** A round was dealt (or voided: no deal): the table waits for the next window. */
  idle(deal?: SharedDeal): void {
    if (this.pub) this.pub = { ...this.pub, phase: 'idle' };
    this.phase = 'idle';
    if (deal) this.outcomes = [...this.outcomes, deal];
  }

  /** The round's cards left the shoe (as the felt draws them). */
  drawn(deal: SharedDeal): void {
    if (this.pub) this.pub = { ...this.pub, shoe: afterDeal(this.pub.shoe, deal) };
  }

  /** The shoe's seed was revealed and the next shoe committed: its roads start empty. */
  revealed(commitment: SignedShared<SharedCommitment>): void {
    if (!this.pub) return;
    this.pub = { ...this.pub, shoe: { ...this.pub.shoe, number: commitment.body.shoe, commitment, start: null, cardsDealt: 0 } };
    this.outcomes = [];
  }

  connections(n: unknown): void {
    if (this.pub && typeof n === 'number') this.pub = { ...this.pub, connections: n };
  }

  /** The window's time ran out here: the table waits for the beacon (until its close says so). */
  tick(): void {
    if (this.phase === 'betting' && this.left() === 0 && this.pub) this.phase = 'awaiting-beacon';
  }

  /** This tab left the table: nothing of it is known until the next `state`. */
  forget(): void {
    this.pub = null;
    this.bets.clear();
    this.outcomes = [];
  }

  /** The HUD's model: the table's facts with the player's part. */
  view(tableId: string, player: PlayerPart): SharedTableView {
    const totals = new Map<string, number>();
    for (const b of this.bets.values()) for (const x of b.bets ?? []) totals.set(`${x.sector}:${x.box}`, (totals.get(`${x.sector}:${x.box}`) ?? 0) + x.amount);
    const pub = this.pub;
    return {
      tableId,
      phase: this.phase,
      connections: pub?.connections ?? 0,
      round: pub?.round ?? 1,
      shoe: pub?.shoe.number ?? 1,
      left: this.phase === 'betting' ? this.left() : 0,
      windowMs: pub?.windowMs ?? 15_000,
      beaconRound: pub?.beaconRound ?? null,
      boxTotals: totals,
      bettors: this.bets.size,
      tableTotal: [...this.bets.values()].reduce((n, b) => n + b.stake, 0),
      outcomes: this.outcomes,
      commitment: pub?.shoe.commitment ?? null,
      start: pub?.shoe.start ?? null,
      ...player,
    };
  }
}
