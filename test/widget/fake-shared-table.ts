/**
 * A stand-in for one shared table (API.md "Shared tables") over fake WebSockets, for the widget
 * tests: the element's `socketFactory` opens sockets to it; the test drives the round loop
 * (`openWindow`, `closeWindow`, `deal`) instead of alarms. The players' sessions and balances are
 * the FakeWorker's (found by the ticket in the socket's URL). Every bet and start request is
 * checked for its player's signature with the shared verifier, so a widget that signs wrongly
 * fails here. The operator's records are shaped as pb-shared-1 but not signed: the widget draws
 * them, it does not verify them.
 */
import { type BeaconChain, QUICKNET } from '../../shared/beacon-chains.ts';
import { outcomeCode } from '../../shared/fairness/pb-shared-1/outcomes.ts';
import {
  type SharedBetRequest,
  type SharedCommitment,
  type SignedShared,
  type SignedSharedRequest,
  verifySharedRequest,
} from '../../shared/fairness/pb-shared-1/records.ts';
import { receiptCards } from '../../shared/fairness/index.ts';
import {
  type BetProof,
  betProofs,
  buildMerkleClose,
  buildMerkleStart,
  closeRecordOf,
  recordOf,
  signMerkleClose,
  signMerkleStart,
  type StartEntry,
  startProofs,
} from '../../shared/fairness/pb-shared-2/index.ts';
import { playRoundFromCodes, roundFacts } from '../../shared/round.ts';
import { settle } from '../../shared/settle.ts';
import { ROOMS, totalStake } from '../../shared/table.ts';
import type { SocketLike } from '../../widget/session/shared-table-session.ts';
import type { FakeWorker } from './fake-worker.ts';

type Listener = (e: { data?: unknown }) => void;
type Wallet = NonNullable<ReturnType<FakeWorker['sessionOfToken']>>;

export class FakeSocket implements SocketLike {
  readyState = 0;
  readonly url: URL;
  readonly wallet: Wallet | null;
  /** Every message the element sent on this socket. */
  readonly sent: any[] = [];
  #listeners = new Map<string, Listener[]>();
  #table: FakeSharedTable;

  constructor(table: FakeSharedTable, url: string) {
    this.#table = table;
    this.url = new URL(url);
    // The widget sends a ticket, never its session token, in the URL.
    this.wallet = this.url.searchParams.has('token') ? null : table.worker.sessionOfTicket(this.url.searchParams.get('ticket') ?? '');
    setTimeout(() => {
      if (table.refuseNext > 0) {
        // The upgrade fails: the browser reports only a close.
        table.refuseNext--;
        this.readyState = 3;
        this.#emit('close', {});
        return;
      }
      this.readyState = 1;
      this.#emit('open', {});
      table.joined(this);
    }, 0);
  }

  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('the socket is not open');
    const m = JSON.parse(data);
    this.sent.push(m);
    void this.#table.received(this, m);
  }

  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.#table.left(this);
    setTimeout(() => this.#emit('close', {}), 0);
  }

  /** A message from the table (delivered on the next task, as a network would). */
  deliver(type: string, body: object): void {
    const text = JSON.stringify({ v: 1, type, ...body });
    setTimeout(() => this.readyState === 1 && this.#emit('message', { data: text }), 0);
  }

  #emit(type: string, e: { data?: unknown }): void {
    for (const l of this.#listeners.get(type) ?? []) l(e);
  }
}

/** A credit or refund the table owes a session (a seat's `owed`). */
interface Owed {
  transfer: string;
  kind: 'credit' | 'refund';
  amount: number;
  shoe: number;
  round: number;
}

interface TableBet {
  player: string;
  wallet: Wallet | null;
  request: SignedSharedRequest<SharedBetRequest>;
  stake: number;
  balanceBefore: number;
}

export class FakeSharedTable {
  readonly worker: FakeWorker;
  readonly tableId: string;
  readonly windowMs: number;
  readonly sockets: FakeSocket[] = [];
  /** Every socket ever opened, in order. */
  readonly opened: FakeSocket[] = [];
  shoe = 1;
  round = 1;
  phase: 'idle' | 'betting' | 'awaiting-beacon' = 'idle';
  closesAt: number | null = null;
  readonly bets = new Map<string, TableBet>();
  readonly outcomes: string[] = [];
  readonly starts = new Set<string>();
  /** The shoe's signed start requests, by player, with the wallet that sent each (a pb-shared-2 start commits to them at round 1's close). */
  readonly startRequests = new Map<string, { request: any; wallet: Wallet | null }>();
  /** The shoe's signed pb-shared-2 start, once its first close made it (its requests beside it). */
  start: StartEntry | null = null;
  /** Changes the start proof a joining socket's state carries (as a lying table would). */
  stateStartProof: (proof: BetProof) => BetProof = (p) => p;
  /** While true, bets are taken but their acks are not sent (a dropped answer). */
  holdAcks = false;
  /** The next bet message is lost on the way (the table never sees it). */
  loseNextBet = false;
  /** The next start message is lost on the way. */
  loseNextStart = false;
  /** This many next connections fail (the server is unreachable). */
  refuseNext = 0;
  /** The players' settlements go out before the round's deal (a deal that reaches a socket late). */
  settlementsFirst = false;
  /** What the table owes each session and has not paid yet (its seat's `owed` in every state it gets), by wallet. */
  readonly owed = new Map<Wallet, Owed[]>();
  /** The beacon chain the shoes commit (quicknet unless a test sets another). */
  chain: BeaconChain = QUICKNET;
  #position = 0;

  constructor(worker: FakeWorker, tableId = 'hall-1/a', windowMs = 15_000) {
    this.worker = worker;
    this.tableId = tableId;
    this.windowMs = windowMs;
  }

  /** The element's `socketFactory`. */
  readonly socketFactory = (url: string): FakeSocket => {
    const s = new FakeSocket(this, url);
    this.opened.push(s);
    return s;
  };

  /** Every `type` message the element sent, on any socket. */
  sent(type: string): any[] {
    return this.opened.flatMap((s) => s.sent.filter((m) => m.type === type));
  }

  get commitment(): SignedShared<SharedCommitment> {
    const body: SharedCommitment = {
      type: 'commitment',
      table: this.tableId,
      shoe: this.shoe,
      keyId: 'fake-key',
      issuedAt: new Date(0).toISOString(),
      params: { algorithm: 'pb-shared-1', mode: 'shoe', decks: 6, burn: true, cutCardFromEnd: 16, beaconDeadlineSeconds: 10 },
      limits: ROOMS['hall-1'].limits,
      beacon: this.chain,
      serverSeedHash: `seed-hash-${this.shoe}`,
      prev: null,
    };
    return { body, keyId: 'fake-key', hash: `c0ffee${this.shoe}`.padEnd(64, '0'), signature: 'fake' } as SignedShared<SharedCommitment>;
  }

  publicState() {
    return {
      tableId: this.tableId,
      room: 'hall-1',
      mode: 'shoe',
      speed: 'normal',
      windowMs: this.windowMs,
      limits: ROOMS['hall-1'].limits,
      shoe: {
        number: this.shoe,
        params: this.commitment.body.params,
        commitment: this.commitment,
        start: this.start ? recordOf(this.start) : null,
        closed: this.round - 1,
        cardsDealt: this.#position,
        cardsLeft: 312 - this.#position,
      },
      round: this.round,
      phase: this.phase,
      closesAt: this.closesAt === null ? null : new Date(this.closesAt).toISOString(),
      beaconRound: this.phase === 'awaiting-beacon' ? 1000 + this.round : null,
      bets: [...this.bets.values()].map((b) => ({ player: b.player, stake: b.stake, bets: b.request.body.bets })),
      lastDeal: null,
      outcomes: [...this.outcomes],
      connections: this.sockets.length,
    };
  }

  joined(s: FakeSocket): void {
    this.sockets.push(s);
    // A seat in the shoe's start finds its request and start proof in the state (as the Worker's seatOf gives them).
    const leaf = this.start ? this.start.requests.findIndex((r) => this.startRequests.get(r.body.player)?.wallet === s.wallet && s.wallet) : -1;
    const start = leaf >= 0 ? { startProof: this.stateStartProof(startProofs(this.start!.requests)[leaf]!), startRequest: this.start!.requests[leaf] } : {};
    this.sendState(s, { ...start, balance: s.wallet?.balance });
    if (this.phase === 'idle') this.openWindow();
  }

  /** The table's `state` to one socket, with its seat (`you`): its bets of the round and what it is owed. */
  sendState(s: FakeSocket, extra: object = {}): void {
    const mine = [...this.bets.values()].filter((b) => s.wallet && b.wallet === s.wallet);
    const owed = (s.wallet && this.owed.get(s.wallet)) || [];
    s.deliver('state', {
      ...this.publicState(),
      you: {
        ...extra,
        started: this.starts.has(s.wallet?.id ?? ''),
        bets: mine.map((b) => ({ player: b.player, request: b.request, stake: b.stake, status: 'accepted' })),
        ...(owed.length > 0 ? { owed } : {}),
      },
    });
  }

  /** The session answers at last: one owed transfer is paid into its balance (a `balance` message naming it). */
  pay(s: FakeSocket, transfer: string): void {
    const wallet = s.wallet!;
    const owed = this.owed.get(wallet) ?? [];
    const paid = owed.find((o) => o.transfer === transfer)!;
    this.owed.set(
      wallet,
      owed.filter((o) => o !== paid),
    );
    wallet.balance += paid.amount;
    s.deliver('balance', { balance: wallet.balance, transfer, kind: paid.kind, shoe: paid.shoe, round: paid.round });
  }

  left(s: FakeSocket): void {
    const i = this.sockets.indexOf(s);
    if (i >= 0) this.sockets.splice(i, 1);
  }

  broadcast(type: string, body: object): void {
    for (const s of this.sockets) s.deliver(type, body);
  }

  /** The table drops a socket (the network failed): the element sees it close. */
  drop(s: FakeSocket): void {
    s.close();
  }

  openWindow(): void {
    this.phase = 'betting';
    this.closesAt = Date.now() + this.windowMs;
    this.bets.clear();
    this.broadcast('open', { shoe: this.shoe, round: this.round, closesAt: new Date(this.closesAt).toISOString(), connections: this.sockets.length });
  }

  /** Another player's bet, as the table announces it. */
  otherBet(player: string, bets: SharedBetRequest['bets']): void {
    const request = {
      body: { type: 'bet', table: this.tableId, shoe: this.shoe, round: this.round, player, bets },
      signature: 'other',
    } as SignedSharedRequest<SharedBetRequest>;
    this.bets.set(player, { player, wallet: null, request, stake: totalStake(bets), balanceBefore: 0 });
    this.broadcast('bet', { shoe: this.shoe, round: this.round, player, stake: totalStake(bets), bets });
  }

  closeWindow(): void {
    this.phase = 'awaiting-beacon';
    this.closesAt = null;
    const close = {
      body: {
        type: 'close',
        table: this.tableId,
        shoe: this.shoe,
        round: this.round,
        bets: [...this.bets.values()].map((b) => b.request),
        beaconRound: 1000 + this.round,
      },
      hash: `close-${this.round}`,
      signature: 'fake',
      keyId: 'fake-key',
    };
    this.broadcast('close', { shoe: this.shoe, round: this.round, close });
  }

  /**
   * Closes the window as a pb-shared-2 table does: the close signed with the fake Worker's key
   * (its JWKS), committing to the bets; then each bettor's sockets get the inclusion proof of its
   * bet (`tamper` changes a proof on its way, as a lying table would).
   */
  async closeMerkle(tamper?: (proof: BetProof) => BetProof, tamperStart?: (proof: BetProof) => BetProof): Promise<void> {
    this.phase = 'awaiting-beacon';
    this.closesAt = null;
    const start = this.round === 1 && this.startRequests.size > 0 ? await this.#signStart() : null;
    if (start) this.start = start;
    const built = buildMerkleClose({
      last: { body: { table: this.tableId, shoe: this.shoe }, hash: '0'.repeat(64) },
      round: this.round,
      bets: [...this.bets.values()].map((b) => b.request),
      beacon: this.chain,
      keyId: 'fake-key',
      issuedAt: new Date().toISOString(),
    });
    if (!built.ok) throw new Error(built.error.message);
    const entry = await signMerkleClose(built.value, await this.worker.operatorKey());
    // The shoe's start goes with its first close, without its requests; each seated player then gets its start proof.
    this.broadcast('close', { shoe: this.shoe, round: this.round, close: closeRecordOf(entry), ...(start ? { start: recordOf(start) } : {}) });
    if (start) {
      const proofs = startProofs(start.requests);
      for (const [leaf, request] of start.requests.entries()) {
        const wallet = this.startRequests.get(request.body.player)?.wallet;
        const proof = tamperStart ? tamperStart(proofs[leaf]!) : proofs[leaf]!;
        for (const sock of this.sockets.filter((x) => wallet && x.wallet === wallet))
          sock.deliver('start-proof', { shoe: this.shoe, player: request.body.player, proof });
      }
    }
    const proofs = betProofs(entry.bets);
    for (const [leaf, bet] of entry.bets.entries()) {
      const wallet = this.bets.get(bet.body.player)?.wallet;
      const proof = tamper ? tamper(proofs[leaf]!) : proofs[leaf]!;
      for (const sock of this.sockets.filter((x) => wallet && x.wallet === wallet))
        sock.deliver('proof', { shoe: this.shoe, round: this.round, player: bet.body.player, proof });
    }
  }

  /** The shoe's pb-shared-2 start over the start requests taken, signed with the fake Worker's key. */
  async #signStart() {
    const built = buildMerkleStart(
      this.commitment,
      [...this.startRequests.values()].map((x) => x.request),
      'fake-key',
      new Date().toISOString(),
    );
    if (!built.ok) throw new Error(built.error.message);
    return signMerkleStart(built.value, await this.worker.operatorKey());
  }

  /** Deals the round from these card codes (P, B, P, B, …), settles every bet and opens the next window. */
  deal(codes: string[]): void {
    const played = playRoundFromCodes(codes);
    if (!played.ok) throw new Error(played.error.message);
    const r = played.value;
    const at = this.#position;
    this.#position += r.cardsUsed;
    const dealBody = {
      type: 'deal',
      table: this.tableId,
      shoe: this.shoe,
      round: this.round,
      keyId: 'fake-key',
      issuedAt: new Date(0).toISOString(),
      beacon: { round: 1000 + this.round, signature: 'fake' },
      cards: receiptCards({ ...r, positions: r.positions.map((p) => p + at) }),
      cutCardOut: false,
      ...roundFacts(r),
      prev: `close-${this.round}`,
    };
    const deal = { body: dealBody, hash: `deal-${this.shoe}-${this.round}`, signature: 'fake', keyId: 'fake-key' };
    this.outcomes.push(outcomeCode(r));
    this.phase = 'idle';
    if (!this.settlementsFirst) this.broadcast('deal', { shoe: this.shoe, round: this.round, deal });
    for (const b of this.bets.values()) {
      if (!b.wallet) continue;
      const s = settle(b.request.body.bets, r.outcome);
      b.wallet.balance += s.returned;
      const settlement = {
        body: {
          type: 'settlement',
          table: this.tableId,
          shoe: this.shoe,
          round: this.round,
          player: b.player,
          deal: deal.hash,
          prev: deal.hash,
          keyId: 'fake-key',
          issuedAt: new Date(0).toISOString(),
          payouts: s.bets.map((x) => ({ sector: x.sector, box: x.box, amount: x.amount, result: x.result, returned: x.returned, net: x.net })),
          staked: s.staked,
          returned: s.returned,
          balanceBefore: b.balanceBefore,
          balanceAfter: b.balanceBefore - s.staked + s.returned,
        },
        hash: `settlement-${this.round}-${b.player}`,
        signature: 'fake',
        keyId: 'fake-key',
      };
      for (const sock of this.sockets.filter((x) => x.wallet === b.wallet)) sock.deliver('settlement', { shoe: this.shoe, round: this.round, settlement });
    }
    if (this.settlementsFirst) this.broadcast('deal', { shoe: this.shoe, round: this.round, deal });
    this.round++;
    this.openWindow();
  }

  /** The round voids (its beacon came too late): every stake goes back, and the next window opens. */
  voidRound(): void {
    const refunds = [...this.bets.values()].map((b) => ({ player: b.player, returned: b.stake }));
    this.phase = 'idle';
    this.broadcast('void', { shoe: this.shoe, round: this.round, void: { body: { type: 'void', round: this.round }, hash: `void-${this.round}` }, refunds });
    for (const b of this.bets.values()) {
      if (!b.wallet) continue;
      b.wallet.balance += b.stake;
      for (const sock of this.sockets.filter((x) => x.wallet === b.wallet))
        sock.deliver('balance', { balance: b.wallet.balance, kind: 'refund', shoe: this.shoe, round: this.round });
    }
    this.round++;
    this.openWindow();
  }

  /** The shoe ends: its reveal and the next shoe's commitment; the next window is round 1 of it. */
  reveal(): void {
    const shoe = this.shoe;
    this.shoe++;
    this.round = 1;
    this.#position = 0;
    this.outcomes.length = 0;
    this.starts.clear();
    this.startRequests.clear();
    this.start = null;
    this.broadcast('reveal', { shoe, reveal: { body: { type: 'reveal', shoe }, hash: `reveal-${shoe}` }, commitment: this.commitment });
    this.openWindow();
  }

  async received(s: FakeSocket, m: any): Promise<void> {
    if (m.type === 'state') return this.sendState(s);
    if (m.type === 'start' && this.loseNextStart) {
      this.loseNextStart = false;
      return;
    }
    if (m.type === 'start') {
      if (!(await verifySharedRequest(m.request))) return s.deliver('start-refused', { code: 'bad_player_signature', message: 'bad signature' });
      this.starts.add(s.wallet?.id ?? '');
      this.startRequests.set(m.request.body.player, { request: m.request, wallet: s.wallet });
      return s.deliver('start-ack', { shoe: this.shoe, player: m.request.body.player });
    }
    if (m.type !== 'bet') return s.deliver('error', { code: 'unknown_type', message: 'unknown' });
    if (this.loseNextBet) {
      this.loseNextBet = false;
      return;
    }
    const request = m.request as SignedSharedRequest<SharedBetRequest>;
    if (!(await verifySharedRequest(request))) return s.deliver('bet-refused', { code: 'bad_player_signature', message: 'bad signature' });
    const player = request.body.player;
    const known = this.bets.get(player);
    if (known) {
      if (known.request.signature !== request.signature) return s.deliver('bet-refused', { code: 'already_bet', message: 'one bet a round' });
      return s.deliver('bet-ack', { shoe: this.shoe, round: this.round, player, stake: known.stake, duplicate: true });
    }
    if (this.phase !== 'betting' || request.body.round !== this.round) return s.deliver('bet-refused', { code: 'betting_closed', message: 'closed' });
    // The shoe starts at its first close: a first-round bettor must have sent its start.
    if (this.round === 1 && !this.starts.has(s.wallet?.id ?? '')) return s.deliver('bet-refused', { code: 'start_required', message: 'send your start first' });
    const stake = totalStake(request.body.bets);
    const wallet = s.wallet!;
    if (stake > wallet.balance) return s.deliver('bet-refused', { code: 'insufficient_funds', message: 'not enough' });
    const balanceBefore = wallet.balance;
    wallet.balance -= stake;
    this.bets.set(player, { player, wallet, request, stake, balanceBefore });
    if (!this.holdAcks) s.deliver('bet-ack', { shoe: this.shoe, round: this.round, player, stake, balance: wallet.balance });
    this.broadcast('bet', { shoe: this.shoe, round: this.round, player, stake, bets: request.body.bets });
  }
}
