/**
 * A shared table's round loop, run on the object's alarm, never on timers:
 *   betting (a window) → close (the signed close record: every accepted bet request, the first
 *   beacon round published after the close) → wait for that beacon round → deal from the
 *   committed shoe and the beacon value, one signed settlement per player, broadcast → next window.
 * A window that closes with no bets opens again only while someone is connected. A beacon round
 * later than the committed deadline voids the round: the void record, and every stake back by a
 * refund transfer. A shoe's end (cut card, or a reshuffle shoe's round limit) reveals its server
 * seed and commits the next shoe in the same step.
 *
 * Crash safety: every step is one `transactionSync` writing its records and the next state
 * together, re-entered from the stored state by the next alarm.
 */
import { type BeaconChain, type BeaconRound, timeOfRound } from '../../shared/beacon.ts';
import {
  buildClose,
  buildSharedCommitment,
  buildSharedDeal,
  buildSharedReveal,
  buildSharedStart,
  buildSharedVoid,
  checkSharedStartRequest,
  DEFAULT_BEACON_DEADLINE_SECONDS,
  type SharedClose,
  type SharedCommitment,
  type SharedDeal,
  type SharedParams,
  type SharedSettlement,
  type SharedStart,
  sharedRevealDue,
  type SignedShared,
  signSharedSettlements,
  startSharedShoe,
  voidNotBefore,
} from '../../shared/fairness/pb-shared-1/index.ts';
import {
  betProofs,
  buildMerkleClose,
  buildMerkleStart,
  type CloseEntry,
  closeRecordOf,
  recordOf,
  signMerkleClose,
  signMerkleSettlements,
  signMerkleStart,
  type StartEntry,
  startInputs,
  startProofs,
} from '../../shared/fairness/pb-shared-2/index.ts';
import { signSharedRecordFor } from '../../shared/fairness/pb-shared-2/records.ts';
import { sharedTransferId } from '../../shared/fairness/pb-fair-2/transfer.ts';
import { FAIR1_DEFAULT_SHOE_PARAMS, defaultShoeRules, newServerSeed, ROOMS, type SigningKey } from '../../shared/index.ts';
import { MAX_SEATS } from '../../shared/wire/shared-table-socket.ts';
import { fetchBeacon, VerifiedRounds } from '../beacon/beacon.ts';
import { type Env, isDev, sharedTiming } from '../config/env.ts';
import { signingKey } from '../keys/keys.ts';
import { haltIfAsked, type ShoeState, type TableState } from './parts.ts';
import type { TableConfig } from './settings.ts';
import { TableWork } from './work.ts';

/** The version every new shoe commits to. */
export const SHARED_TABLE_VERSION = 'pb-shared-2';

/** Reshuffle tables reveal their server seed and commit a new one after this many closed rounds. */
export const RESHUFFLE_ROUND_LIMIT = 100;

/**
 * The round limit committed for a new reshuffle shoe: RESHUFFLE_ROUND_LIMIT, or in development only
 * (DEV=true) `SHARED_TEST_ROUND_LIMIT`, so that a test reaches a shoe's reveal in a round or two.
 */
export function reshuffleRoundLimit(env: Env): number {
  const asked = Number(env.SHARED_TEST_ROUND_LIMIT ?? '');
  return isDev(env) && Number.isSafeInteger(asked) && asked >= 1 && asked < RESHUFFLE_ROUND_LIMIT ? asked : RESHUFFLE_ROUND_LIMIT;
}

export class RoundLoop extends TableWork {
  /** Opens the next betting window, or sleeps when nobody is there. */
  async openWindow(now: number): Promise<void> {
    const s = this.p.state();
    if (s.phase !== 'idle' || this.p.connections() === 0) return;
    this.p.save({ ...s, phase: 'betting', closesAt: now + s.config.windowMs, beaconRound: null });
    this.announceWindow();
    await this.p.schedule();
  }
  async close(now: number): Promise<void> {
    const s = this.p.state();
    const round = s.shoe.closed + 1;
    const accepted = this.p.store.bets(s.shoe.number, round, 'accepted');
    if (accepted.length === 0) {
      // No round is dealt without bets: the window opens again while someone is there.
      const open = this.p.connections() > 0;
      this.p.save({ ...s, phase: open ? 'betting' : 'idle', closesAt: open ? now + s.config.windowMs : null });
      this.announceWindow();
      return;
    }
    const key = await signingKey(this.p.env);
    const source = await this.p.beaconSource();
    const issuedAt = new Date(now).toISOString();
    let shoe = s.shoe;
    let last = this.p.store.last()!.record;
    const records: SignedShared[] = [];
    let startRecord: SignedShared<SharedStart> | StartEntry | null = null;
    if (shoe.clientSeed === null) {
      const start = await this.#buildStart(shoe, accepted, key, issuedAt);
      const inputs = startInputs(start.body, shoe.params.decks);
      shoe = { ...shoe, clientSeed: inputs.clientSeed, cut: inputs.cut, deal: startSharedShoe(shoe.params, shoe.serverSeed, inputs.clientSeed, inputs.cut) };
      records.push(start as SignedShared);
      startRecord = start;
      last = start as SignedShared;
    }
    const args = { last, round, bets: accepted.map((b) => b.request), beacon: source.chain, keyId: key.keyId, issuedAt };
    // A pb-shared-2 shoe's close commits to the bets (their root, count and totals) and is stored with them beside it; a pb-shared-1 shoe's lists them.
    const merkle = shoe.params.algorithm === 'pb-shared-2';
    let close: SignedShared | CloseEntry;
    if (merkle) {
      const built = buildMerkleClose(args);
      if (!built.ok) throw new Error(`${s.config.tableId}: the close cannot be built: ${built.error.message}`);
      close = await signMerkleClose(built.value, key);
    } else {
      const built = buildClose(args);
      if (!built.ok) throw new Error(`${s.config.tableId}: the close cannot be built: ${built.error.message}`);
      close = await signSharedRecordFor(shoe.params.algorithm, built.value, key);
    }
    records.push(close as SignedShared);
    const beaconRound = (close.body as { beaconRound: number }).beaconRound;
    this.p.ctx.storage.transactionSync(() => {
      for (const r of records) this.p.store.insertRecord(round, null, r);
      this.p.save({ ...s, shoe: { ...shoe, closed: round }, phase: 'awaiting-beacon', closesAt: null, beaconRound });
    });
    await haltIfAsked(this.p.env, 'closed');
    this.p.fanOut({
      type: 'close',
      shoe: shoe.number,
      round,
      // Everyone gets the signed close alone: its size does not grow with the table.
      close: merkle ? closeRecordOf(close as CloseEntry) : (close as SignedShared<SharedClose>),
      connections: this.p.connections(),
      // The shoe's start, at its first close: a pb-shared-2 start without its requests (its size does not grow with the table either).
      ...(startRecord ? { start: recordOf(startRecord as StartEntry) } : {}),
    });
    if (startRecord && 'startsRoot' in startRecord.body) this.sendStartProofs(shoe.number, startRecord as StartEntry);
    if (merkle) this.sendProofs(shoe.number, round, close as CloseEntry);
  }
  /**
   * The shoe's start: the signed start requests of every bettor of this round and of the players
   * seated now, MAX_SEATS at most. A pb-shared-2 shoe's start commits to them (root, count, cut)
   * and is stored with them beside it; a pb-shared-1 shoe's lists them.
   */
  async #buildStart(shoe: ShoeState, accepted: { session: string }[], key: SigningKey, issuedAt: string) {
    const seated = new Set([...accepted.map((b) => b.session), ...this.seats.sessions()].slice(0, MAX_SEATS));
    const commitment = this.p.store.record(shoe.number, 'commitment')!.record;
    // Stored requests were checked on arrival; one stored by an older version that breaks a rule is left out, never signed.
    const starts = this.p.store.starts(shoe.number, seated).filter((r) => checkSharedStartRequest(commitment, r.body).ok);
    const tableId = commitment.body.table;
    if (shoe.params.algorithm === 'pb-shared-2') {
      const built = buildMerkleStart(commitment, starts, key.keyId, issuedAt);
      if (!built.ok) throw new Error(`${tableId}: the start cannot be built: ${built.error.message}`);
      return signMerkleStart(built.value, key);
    }
    const built = buildSharedStart(commitment, starts, key.keyId, issuedAt);
    if (!built.ok) throw new Error(`${tableId}: the start cannot be built: ${built.error.message}`);
    return signSharedRecordFor(shoe.params.algorithm, built.value, key);
  }
  /** Each seated player whose request is in a pb-shared-2 start gets its proof: O(log n) hashes, one build of the tree. */
  sendStartProofs(shoe: number, start: StartEntry): void {
    const sessions = this.p.store.startSessions(shoe);
    const proofs = startProofs(start.requests);
    for (const [leaf, request] of start.requests.entries()) {
      const session = sessions.get(request.body.player);
      if (session !== undefined) this.p.toPlayer(session, { type: 'start-proof', shoe, player: request.body.player, proof: proofs[leaf]! });
    }
  }
  /** Each bettor's session gets the inclusion proof of its own bet in a pb-shared-2 close: O(log n) hashes, one build of the tree. */
  sendProofs(shoe: number, round: number, close: CloseEntry): void {
    const sessions = new Map(this.p.store.bets(shoe, round, 'accepted').map((b) => [b.player, b.session]));
    const proofs = betProofs(close.bets);
    for (const [leaf, bet] of close.bets.entries()) {
      const session = sessions.get(bet.body.player);
      if (session !== undefined) this.p.toPlayer(session, { type: 'proof', shoe, round, player: bet.body.player, proof: proofs[leaf]! });
    }
  }
  async awaitBeacon(now: number): Promise<void> {
    const s = this.p.state();
    const source = await this.p.beaconSource();
    if (now < timeOfRound(source.chain, s.beaconRound!)) return;
    // A test's relay gets a cache of its own: the isolate's may already hold the round.
    const got = await fetchBeacon(source, s.beaconRound!, this.p.hooks.beaconFetch ? { fetch: this.p.hooks.beaconFetch, cache: new VerifiedRounds() } : {});
    if (got.ok) return this.#deal(source.chain, got.value);
    if (this.p.now() >= voidNotBefore(source.chain, s.shoe.params, s.beaconRound!)) return this.#void(source.chain);
    console.warn(`punto-banco: ${s.config.tableId} shoe ${s.shoe.number} round ${s.shoe.closed}: ${got.error.message} (asking again)`);
  }
  /** The round that closed and what its deal or void is built from: its close record, its accepted bets, the key and the time. */
  async #closedRound() {
    const s = this.p.state();
    const shoe = s.shoe;
    const round = shoe.closed;
    const key = await signingKey(this.p.env);
    const issuedAt = new Date(this.p.now()).toISOString();
    const close = this.p.store.record(shoe.number, 'close', round)!.record;
    const accepted = this.p.store.bets(shoe.number, round, 'accepted');
    return { s, shoe, round, key, issuedAt, close, accepted };
  }

  async #deal(chain: BeaconChain, beacon: BeaconRound): Promise<void> {
    const { s, shoe, round, key, issuedAt, close, accepted } = await this.#closedRound();
    const built = buildSharedDeal({
      params: shoe.params,
      state: shoe.deal!,
      serverSeed: shoe.serverSeed,
      cut: shoe.cut!,
      chain,
      close,
      beacon,
      keyId: key.keyId,
      issuedAt,
    });
    if (!built.ok) throw new Error(`${s.config.tableId}: the deal cannot be built: ${built.error.message}`);
    const deal = await signSharedRecordFor(shoe.params.algorithm, built.value.body, key);
    const bySession = new Map(accepted.map((b) => [b.player, b]));
    const balances = new Map(accepted.map((b) => [b.player, b.balanceBefore!]));
    const settlements: SignedShared<SharedSettlement>[] =
      shoe.params.algorithm === 'pb-shared-2'
        ? await signMerkleSettlements({ deal, close: close as unknown as CloseEntry, balances, key, issuedAt })
        : await signSharedSettlements({ deal, close: close, balances, key, issuedAt });
    const after = { ...shoe, deal: built.value.state };
    const ending = await this.#revealIfDue(s, after, deal.body, settlements.at(-1) ?? deal, key.keyId, issuedAt);
    this.p.ctx.storage.transactionSync(() => {
      this.p.store.insertRecord(round, null, deal);
      for (const x of settlements) {
        const bet = bySession.get(x.body.player)!;
        this.p.store.insertRecord(round, x.body.player, x);
        if (x.body.returned > 0) {
          this.p.store.insertTransfer({
            id: sharedTransferId(s.config.tableId, shoe.number, round, x.body.player, 'credit'),
            session: bet.session,
            shoe: shoe.number,
            round,
            kind: 'credit',
            amount: x.body.returned,
          });
        } else if (this.transfers.walletSeats.isWallet(bet.session)) {
          // A wallet closes every debit: a lost wallet bet owes a zero credit (wallet-seats.ts).
          const id = sharedTransferId(s.config.tableId, shoe.number, round, x.body.player, 'credit');
          this.transfers.walletSeats.oweClose({ id, session: bet.session, shoe: shoe.number, round, player: x.body.player });
        }
      }
      if (ending) for (const r of ending.records) this.p.store.insertRecord(round, null, r);
      this.#nextRound({ ...s, shoe: ending ? ending.next : after });
    });
    await haltIfAsked(this.p.env, ending ? 'revealed' : 'dealt');
    this.p.fanOut({ type: 'deal', shoe: shoe.number, round, deal });
    for (const x of settlements) this.p.toPlayer(bySession.get(x.body.player)!.session, { type: 'settlement', shoe: shoe.number, round, settlement: x });
    if (ending) this.p.fanOut({ type: 'reveal', shoe: shoe.number, reveal: ending.reveal, commitment: ending.commitment });
    this.announceWindow();
    // The credits (refunds) go out in the background: the next window does not wait for any session.
    this.transfers.askPending();
  }
  /** The round voids (its beacon is late past the committed deadline): every stake goes back by its own refund transfer. */
  async #void(chain: BeaconChain): Promise<void> {
    const { s, shoe, round, key, issuedAt, close, accepted } = await this.#closedRound();
    const built = buildSharedVoid({ close, chain, params: shoe.params, keyId: key.keyId, issuedAt });
    if (!built.ok) throw new Error(`${s.config.tableId}: the void cannot be built: ${built.error.message}`);
    const voided = await signSharedRecordFor(shoe.params.algorithm, built.value, key);
    const ending = await this.#revealIfDue(s, shoe, null, voided, key.keyId, issuedAt);
    this.p.ctx.storage.transactionSync(() => {
      this.p.store.insertRecord(round, null, voided);
      for (const b of accepted) {
        this.p.store.insertTransfer({
          id: sharedTransferId(s.config.tableId, shoe.number, round, b.player, 'refund'),
          session: b.session,
          shoe: shoe.number,
          round,
          kind: 'refund',
          amount: b.stake,
        });
      }
      if (ending) for (const r of ending.records) this.p.store.insertRecord(round, null, r);
      this.#nextRound({ ...s, shoe: ending ? ending.next : shoe });
    });
    await haltIfAsked(this.p.env, ending ? 'revealed' : 'voided');
    this.p.fanOut({ type: 'void', shoe: shoe.number, round, void: voided, refunds: accepted.map((b) => ({ player: b.player, returned: b.stake })) });
    if (ending) this.p.fanOut({ type: 'reveal', shoe: shoe.number, reveal: ending.reveal, commitment: ending.commitment });
    this.announceWindow();
    // The credits (refunds) go out in the background: the next window does not wait for any session.
    this.transfers.askPending();
  }
  /** The reveal the rules force after this round, and the next shoe's commitment chained to it. */
  async #revealIfDue(s: TableState, shoe: ShoeState, deal: SharedDeal | null, last: SignedShared, keyId: string, issuedAt: string) {
    const reason = sharedRevealDue(shoe.params, { cutCardOut: deal?.cutCardOut ?? false, closed: shoe.closed });
    if (reason === null) return null;
    const key = await signingKey(this.p.env);
    const reveal = await signSharedRecordFor(
      shoe.params.algorithm,
      buildSharedReveal({ last, serverSeed: shoe.serverSeed, rounds: shoe.closed, reason, keyId, issuedAt }),
      key,
    );
    const next = await this.commitShoe(s.config, shoe.number + 1, reveal.hash, Date.parse(issuedAt));
    return { reveal, commitment: next.commitment, records: [reveal, next.commitment] as SignedShared[], next: next.shoe };
  }
  /** After a round: the next window when someone is connected, else sleep. (Inside the step's transaction.) */
  #nextRound(s: TableState): void {
    const open = this.p.connections() > 0;
    this.p.save({ ...s, phase: open ? 'betting' : 'idle', closesAt: open ? this.p.now() + s.config.windowMs : null, beaconRound: null });
  }
  announceWindow(): void {
    const s = this.p.state();
    if (s.phase === 'betting')
      this.p.fanOut({
        type: 'open',
        shoe: s.shoe.number,
        round: s.shoe.closed + 1,
        closesAt: new Date(s.closesAt!).toISOString(),
        // Who is at the table, once a window (a message to all on every join would grow with the square of the players).
        connections: this.p.connections(),
      });
  }
  async commitShoe(
    config: TableConfig,
    number: number,
    prev: string | null,
    now: number,
  ): Promise<{ shoe: ShoeState; commitment: SignedShared<SharedCommitment> }> {
    const source = await this.p.beaconSource();
    const beaconDeadlineSeconds = Math.min(DEFAULT_BEACON_DEADLINE_SECONDS, Math.max(1, Math.ceil(sharedTiming(this.p.env).beaconLateMs / 1000)));
    // The cut card in the middle of the stack (rule text 000), as at a private table: a committed parameter, so shoes committed before with another place stay verifiable.
    const { decks, burn, cutCardFromEnd } = defaultShoeRules('shoe', FAIR1_DEFAULT_SHOE_PARAMS.decks);
    // New shoes are pb-shared-2 (FAIRNESS.md part IV): the close commits to a Merkle root of the bets. A shoe committed before keeps its version to its reveal.
    const params: SharedParams =
      config.mode === 'shoe'
        ? { algorithm: SHARED_TABLE_VERSION, mode: 'shoe', decks, burn, cutCardFromEnd, beaconDeadlineSeconds }
        : { algorithm: SHARED_TABLE_VERSION, mode: 'reshuffle', decks, roundLimit: reshuffleRoundLimit(this.p.env), beaconDeadlineSeconds };
    const serverSeed = newServerSeed((n) => crypto.getRandomValues(new Uint8Array(n)));
    const key = await signingKey(this.p.env);
    const body = buildSharedCommitment({
      table: config.tableId,
      shoe: number,
      keyId: key.keyId,
      params,
      limits: ROOMS[config.room].limits,
      beacon: source.chain,
      serverSeed,
      prev,
      issuedAt: new Date(now).toISOString(),
    });
    const commitment = await signSharedRecordFor(params.algorithm, body, key);
    return { shoe: { number, params, serverSeed, clientSeed: null, cut: null, deal: null, closed: 0 }, commitment };
  }
}
