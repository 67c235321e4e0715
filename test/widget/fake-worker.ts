/**
 * A stand-in for the Worker's HTTP API (API.md, pb-fair-2: shared/api.ts), for the widget tests,
 * the screenshots and the widget bench. Every record comes from the shared operator builders
 * (buildCommitment, buildStart, buildAcceptance, buildReceipt, buildVoid,
 * buildReveal) and is signed for real (an Ed25519 key made on first use, served as the JWKS);
 * every player request is checked with validatePlayerRequest against the session's player key.
 * So a shoe dealt from its derived stack verifies with the shared verifier; scripted cards, which
 * no shoe produced, are written over a built receipt and do not. Idempotency as the Worker does
 * it: the same key and body get the first answer. Runs in the browser (as an injected `fetch`)
 * and in Node (behind an http server).
 */
import type {
  AcceptanceAnswer,
  ApiErrorCode,
  CreatedSession,
  EndAnswer,
  RoundAnswer,
  SessionView,
  ShoeStatus,
  ShoeView,
  StartAnswer,
  TableTranscript,
  WalletSessionView,
} from '../../shared/api.ts';
import { CARDS_PER_DECK, DEFAULT_DECKS } from '../../shared/cards.ts';
import { playRoundFromCodes } from '../../shared/round.ts';
import { settle } from '../../shared/settle.ts';
import { isRoomId, ROOMS, startingBalance, type TableLimits } from '../../shared/table.ts';
import {
  type Acceptance,
  buildAcceptance,
  buildCommitment,
  buildReceipt,
  buildReveal,
  buildStart,
  buildVoid,
  type Commitment,
  DEFAULT_VOID_AFTER_SECONDS,
  generateSigningKey,
  type Jwks,
  receiptCards,
  type Receipt,
  type FileRecord,
  type RevealReason,
  type Reveal,
  revealDue,
  type ShoeParams,
  type ShoeState,
  type Signed,
  type SigningKey,
  signRecord,
  startShoe,
  type Start,
  validateClientSeed,
  validatePlayerRequest,
} from '../../shared/fairness/index.ts';
import { defaultShoeRules } from '../../shared/shoe.ts';
import { STORAGE_PREFIX } from '../../widget/session/session-store.ts';

export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** The query string (`?shoe=2`), when the caller passes it. */
  query?: string;
}

export interface FakeAnswer {
  status: number;
  body: unknown;
}

/** A failure the next matching request(s) get instead of an answer. */
export interface Fault {
  /** Matched against the path's last segment: `sessions`, `start`, `rounds` (phase 1), `secret` (phase 2), `end`, `transcript`, `jwks.json`; `session` is GET /api/sessions/:id. */
  route: 'sessions' | 'session' | 'start' | 'rounds' | 'secret' | 'end' | 'transcript' | 'jwks.json';
  times: number;
  /** `network` throws like a dead connection; a number answers with that status. */
  kind: 'network' | number;
  code?: ApiErrorCode;
}

/** Codes only the fake answers with: an injected fault without a code, a script it cannot deal. */
type FakeOnlyCode = 'injected' | 'bad_script';

/** Shoe n's server seed: fixed, so runs repeat; 64 hex characters, different for every shoe. */
function serverSeedOf(shoe: number): string {
  return 'c0ffee'.repeat(10) + shoe.toString(16).padStart(4, '0');
}

/** The shoe the fake commits by default: six decks (the engine's default), burn, the cut card in the middle of the stack (defaultShoeRules). */
export const FAKE_PARAMS: ShoeParams = {
  algorithm: 'pb-fair-2',
  mode: 'shoe',
  decks: DEFAULT_DECKS,
  burn: true,
  cutCardFromEnd: defaultShoeRules('shoe', DEFAULT_DECKS).cutCardFromEnd,
  voidAfterSeconds: DEFAULT_VOID_AFTER_SECONDS,
};

/** One shoe as the fake keeps it (its records are in the session's list). */
interface FakeShoe {
  number: number;
  status: ShoeStatus;
  serverSeed: string;
  params: ShoeParams;
  commitment: Signed<Commitment>;
  start?: Signed<Start>;
  reveal?: Signed<Reveal>;
  state: ShoeState | null;
  /** Accepted rounds (settled, voided or pending). */
  accepted: number;
  /** Scripted rounds do not move the derived stack: positions continue from here. */
  position: number;
}

interface FakeSession {
  id: string;
  token: string;
  room: keyof typeof ROOMS;
  playerKey: string;
  balance: number;
  records: Signed[];
  shoes: FakeShoe[];
  pending: { acceptance: Signed<Acceptance>; voidAt: string } | null;
  /** Rounds voided, by "shoe:round", so a late secret hears `round_voided`. */
  voided: Set<string>;
}

export class FakeWorker {
  /** Every request seen, in order. */
  readonly log: FakeRequest[] = [];
  /** Card codes of the coming rounds (each list in shoe order); when empty, the derived shoe deals. */
  script: string[][] = [];
  faults: Fault[] = [];
  /** The Worker's starting balance in the fake's default room (hall-1); tests may change it. */
  startBalance = startingBalance('hall-1');
  /** The shoe's parameters for the next commitment (a one-deck shoe ends after a handful of rounds). */
  params: ShoeParams = { ...FAKE_PARAMS };
  /** Resolves a request only when this promise resolves (to hold a round "in flight"). */
  gate: Promise<void> | null = null;
  /** The fake's clock (ms): every record is one second after the one before. */
  now = Date.UTC(2026, 0, 1, 12, 0, 0);

  /** Wallet mode (wallet-fake.ts): a launched session's limits and wallet view, by session id; its views and bets use them. */
  readonly wallets = new Map<string, { limits: TableLimits; view: WalletSessionView }>();
  #sessions = new Map<string, FakeSession>();
  #answers = new Map<string, { body: string; answer: FakeAnswer }>();
  #next = 1;
  #key: Promise<SigningKey> | null = null;

  /**
   * A new fake is a new Worker behind the same endpoint: the sessions tables stored in this tab
   * (which outlives a test, and a test file) belonged to another one. Its ids and tokens repeat
   * (`s1`, `t-s1`), so a stale entry would open another table's session instead of being refused
   * as unknown, as the real Worker refuses it: forget them.
   */
  constructor() {
    try {
      const storage = globalThis.sessionStorage;
      for (const key of Object.keys(storage ?? {})) if (key.startsWith(STORAGE_PREFIX)) storage.removeItem(key);
    } catch {
      // no storage (Node, or a page that forbids it)
    }
  }

  /** A `fetch` for the element's `fetcher` property. */
  fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input, 'http://fake.invalid/');
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    const raw = typeof init.body === 'string' ? init.body : '';
    const answer = await this.handle({ method: init.method ?? 'GET', path: url.pathname, query: url.search, headers, body: raw ? JSON.parse(raw) : null });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  };

  /** Requests to `route` (last path segment), e.g. `rounds`. */
  requests(route: string): FakeRequest[] {
    return this.log.filter((r) => r.path.endsWith(`/${route}`));
  }

  /** The signing key (made on first use). */
  #signingKey(): Promise<SigningKey> {
    this.#key ??= generateSigningKey('fake-key').then(({ key }) => key);
    return this.#key;
  }

  /** The key this fake signs its records with (a fake shared table signs its pb-shared-2 closes with it too). */
  operatorKey(): Promise<SigningKey> {
    return this.#signingKey();
  }

  /** The public keys that verify this fake's records, as /.well-known/jwks.json serves them. */
  async jwks(): Promise<Jwks> {
    return { keys: [(await this.#signingKey()).publicJwk] };
  }

  /** The table's whole history (what GET …/transcript answers), or null for an unknown session. */
  transcript(sessionId: string): TableTranscript | null {
    const s = this.#sessions.get(sessionId);
    return s ? { version: 'pb-fair-2', records: [...s.records] } : null;
  }

  /** A session by its token, live (a fake shared table moves its balance: fake-shared-table.ts), or null. */
  sessionOfToken(token: string): { readonly id: string; readonly room: string; readonly playerKey: string; balance: number } | null {
    for (const s of this.#sessions.values()) if (s.token === token) return s;
    return null;
  }

  readonly #tickets = new Map<string, string>();

  /** The session a shared-table ticket was issued to, taking the ticket (single use, as the Worker's), or null. */
  sessionOfTicket(ticket: string): ReturnType<FakeWorker['sessionOfToken']> {
    const token = this.#tickets.get(ticket);
    this.#tickets.delete(ticket);
    return token === undefined ? null : this.sessionOfToken(token);
  }

  /** The session's player key (what its commitments name). */
  playerKey(sessionId: string): string | null {
    return this.#sessions.get(sessionId)?.playerKey ?? null;
  }

  #at(): string {
    const t = new Date(this.now).toISOString();
    this.now += 1000;
    return t;
  }

  async #sign<T extends FileRecord>(session: FakeSession, body: T): Promise<Signed<T>> {
    const signed = await signRecord(body, await this.#signingKey());
    session.records.push(signed);
    return signed;
  }

  async handle(req: FakeRequest): Promise<FakeAnswer> {
    this.log.push(req);
    if (this.gate) await this.gate;
    const segments = req.path.split('/').filter(Boolean);
    const route = (segments.length === 3 && segments[1] === 'sessions' ? 'session' : segments.pop()) as Fault['route'];
    const fault = this.faults.find((f) => f.route === route && f.times > 0);
    if (fault) {
      fault.times--;
      if (fault.kind === 'network') throw new TypeError('Failed to fetch');
      return error(fault.kind, fault.code ?? 'injected', `injected ${fault.kind}`);
    }
    const key = req.headers['idempotency-key'];
    const bodyText = JSON.stringify(req.body);
    if (req.method === 'POST' && key) {
      const seen = this.#answers.get(`${req.path} ${key}`);
      if (seen) return seen.body === bodyText ? seen.answer : error(409, 'idempotency_conflict', 'this key was used with another body');
    }
    const answer = await this.#route(req);
    // As the Worker: refusals (4xx) are not remembered, so the corrected request may reuse the key.
    if (req.method === 'POST' && key && answer.status < 400) this.#answers.set(`${req.path} ${key}`, { body: bodyText, answer });
    return answer;
  }

  async #route(req: FakeRequest): Promise<FakeAnswer> {
    if (req.method === 'GET' && req.path.endsWith('/.well-known/jwks.json')) return { status: 200, body: await this.jwks() };
    const parts = req.path.split('/').filter(Boolean); // api, sessions, id, …
    if (req.method === 'POST' && parts[1] === 'tables' && parts.at(-1) === 'ticket') {
      // A shared table's WebSocket ticket (API.md "Routes"): for the session whose token is the bearer.
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!this.sessionOfToken(token)) return error(401, 'unauthorized', 'the token is not valid');
      const ticket = `t.${crypto.randomUUID()}`;
      this.#tickets.set(ticket, token);
      return { status: 200, body: { ticket, expiresAt: new Date(this.now + 30_000).toISOString() } };
    }
    if (req.method === 'POST' && parts.length === 2 && parts[1] === 'sessions') return this.#create(req.body as { room?: unknown; playerKey?: unknown });
    const session = this.#sessions.get(parts[2] ?? '');
    if (!session) return error(404, 'not_found', 'no such session');
    if (req.headers.authorization !== `Bearer ${session.token}`) return error(401, 'unauthorized', 'wrong token');
    const tail = parts.slice(3).join('/');
    const shoe = session.shoes.at(-1)!;
    const request = (req.body as { request?: unknown } | null)?.request;
    if (req.method === 'POST' && tail === 'shoe/start') return this.#start(session, shoe, request);
    if (req.method === 'POST' && tail === 'rounds') return this.#bet(session, shoe, request);
    const secret = /^rounds\/(\d+)\/secret$/.exec(tail);
    if (req.method === 'POST' && secret) return this.#secret(session, shoe, Number(secret[1]), request);
    if (req.method === 'POST' && tail === 'shoe/end') return this.#endByPlayer(session, shoe, request);
    if (req.method === 'GET' && tail === '') return { status: 200, body: this.#view(session) };
    if (req.method === 'GET' && tail === 'transcript') return { status: 200, body: this.transcript(session.id) };
    return error(404, 'not_found', `no route ${req.method} ${req.path}`);
  }

  async #create(body: { room?: unknown; playerKey?: unknown }): Promise<FakeAnswer> {
    const room = isRoomId(body?.room) ? body.room : 'hall-1';
    if (typeof body?.playerKey !== 'string' || body.playerKey.length !== 43)
      return error(400, 'bad_request', "playerKey: the player's Ed25519 public key is required");
    const id = `s${this.#next++}`;
    const session: FakeSession = {
      id,
      token: `t-${id}`,
      room,
      playerKey: body.playerKey,
      balance: this.startBalance,
      records: [],
      shoes: [],
      pending: null,
      voided: new Set(),
    };
    this.#sessions.set(id, session);
    await this.#commit(session, null);
    const created: CreatedSession = { ...this.#view(session), token: session.token };
    return { status: 201, body: created };
  }

  /** Commits the session's next shoe (its seed's hash, parameters and the player's key, signed). */
  async #commit(session: FakeSession, prev: string | null): Promise<FakeShoe> {
    const number = session.shoes.length + 1;
    const serverSeed = serverSeedOf(number);
    const params = { ...this.params };
    const body = buildCommitment({
      table: session.id,
      shoe: number,
      keyId: 'fake-key',
      params,
      limits: ROOMS[session.room].limits,
      serverSeed,
      playerKey: session.playerKey,
      openingBalance: session.balance,
      prev,
      issuedAt: this.#at(),
    });
    const shoe: FakeShoe = {
      number,
      status: 'awaiting-start',
      serverSeed,
      params,
      commitment: await this.#sign(session, body),
      state: null,
      accepted: 0,
      position: 0,
    };
    session.shoes.push(shoe);
    return shoe;
  }

  async #start(session: FakeSession, shoe: FakeShoe, value: unknown): Promise<FakeAnswer> {
    if (shoe.status !== 'awaiting-start') return error(409, 'shoe_already_started', 'the shoe is already in play');
    const checked = await validatePlayerRequest(session.playerKey, value, 'start');
    if (!checked.ok) return error(400, checked.error.code, checked.error.message);
    const request = checked.value;
    const r = request.body;
    if (r.table !== session.id || r.shoe !== shoe.number || r.commitment !== shoe.commitment.hash)
      return error(409, 'request_mismatch', "the start request does not answer this shoe's commitment");
    const seed = validateClientSeed(r.clientSeed);
    if (!seed.ok || seed.value !== r.clientSeed) return error(400, 'bad_client_seed', seed.ok ? 'the client seed is not in NFC' : seed.error.message);
    const range = cutRange(shoe.params);
    if (r.cut < range.min || r.cut > range.max) return error(400, 'bad_cut', `the cut must be ${range.min}–${range.max}`);
    shoe.start = await this.#sign(session, buildStart(shoe.commitment, request, 'fake-key', this.#at()));
    shoe.state = startShoe(shoe.params, shoe.serverSeed, r.clientSeed, r.cut);
    shoe.status = 'in-play';
    const started: StartAnswer = { shoe: shoeView(shoe) };
    return { status: 200, body: started };
  }

  /** Phase 1: the bet with its lock → an acceptance (the stake debited, no card known). */
  async #bet(session: FakeSession, shoe: FakeShoe, value: unknown): Promise<FakeAnswer> {
    if (shoe.status !== 'in-play' || !shoe.state) return error(409, 'shoe_not_started', 'start the shoe first');
    if (session.pending) return error(409, 'round_pending', `round ${session.pending.acceptance.body.round} waits for its secret`);
    const checked = await validatePlayerRequest(session.playerKey, value, 'bet');
    if (!checked.ok) return error(400, checked.error.code, checked.error.message);
    const last = session.records.at(-1)!;
    const built = buildAcceptance({
      last,
      round: shoe.accepted + 1,
      request: checked.value,
      limits: this.#limits(session),
      balanceBefore: session.balance,
      affiliate: null,
      keyId: 'fake-key',
      issuedAt: this.#at(),
    });
    if (!built.ok) return error(built.error.code === 'bets_invalid' ? 422 : 409, built.error.code, built.error.message);
    const acceptance = await this.#sign(session, built.value);
    shoe.accepted++;
    session.balance -= acceptance.body.request.body.bets.reduce((sum, b) => sum + b.amount, 0);
    const voidAt = new Date(Date.parse(acceptance.body.issuedAt) + shoe.params.voidAfterSeconds * 1000).toISOString();
    session.pending = { acceptance, voidAt };
    const answer: AcceptanceAnswer = { acceptance, balance: session.balance, voidAt, shoe: summary(shoe) };
    return { status: 200, body: answer };
  }

  /** Phase 2: the round's secret → the receipt (and the reveal and next shoe when the shoe ends). */
  async #secret(session: FakeSession, shoe: FakeShoe, round: number, value: unknown): Promise<FakeAnswer> {
    if (session.voided.has(`${shoe.number}:${round}`))
      return error(409, 'round_voided', `round ${round} was voided: its secret came too late; the stake was returned`);
    const pending = session.pending;
    if (!pending || pending.acceptance.body.round !== round) return error(409, 'no_pending_round', `round ${round} does not wait for a secret`);
    const checked = await validatePlayerRequest(session.playerKey, value, 'secret');
    if (!checked.ok) return error(400, checked.error.code, checked.error.message);
    const built = buildReceipt({
      params: shoe.params,
      state: shoe.state!,
      serverSeed: shoe.serverSeed,
      cut: shoe.start!.body.request.body.cut,
      acceptance: pending.acceptance,
      request: checked.value,
      keyId: 'fake-key',
      issuedAt: this.#at(),
    });
    if (!built.ok) return error(409, built.error.code, built.error.message);
    let body: Receipt = built.value.body;
    const scripted = this.script.shift();
    if (scripted) {
      const played = playRoundFromCodes(scripted);
      if (!played.ok) return error(500, 'bad_script', played.error.message);
      // Scripted cards get positions after the cards dealt so far, as a shoe would give them.
      const dealt = { ...played.value, positions: played.value.positions.map((p) => p + shoe.position) };
      shoe.position += played.value.cardsUsed;
      const s = settle(pending.acceptance.body.request.body.bets, dealt.outcome);
      body = {
        ...body,
        cards: receiptCards(dealt),
        playerTotal: dealt.playerTotal,
        bankerTotal: dealt.bankerTotal,
        outcome: dealt.outcome,
        natural: dealt.natural,
        playerPair: dealt.playerPair,
        bankerPair: dealt.bankerPair,
        payouts: s.bets.map((b) => ({ sector: b.sector, box: b.box, amount: b.amount, result: b.result, returned: b.returned, net: b.net })),
        staked: s.staked,
        returned: s.returned,
        balanceAfter: body.balanceBefore - s.staked + s.returned,
        cutCardOut: false,
      };
    } else {
      shoe.state = built.value.state;
      shoe.position = built.value.state.dealt + built.value.state.burned;
    }
    const receipt = await this.#sign(session, body);
    session.pending = null;
    session.balance = body.balanceAfter;
    const answer: RoundAnswer = { receipt, balance: session.balance, shoe: summary(shoe) };
    const due = revealDue(shoe.params, { cutCardOut: body.cutCardOut, accepted: shoe.accepted });
    if (due) {
      const next = await this.#end(session, shoe, due);
      answer.shoe = summary(shoe);
      answer.reveal = shoe.reveal!;
      answer.nextShoe = shoeView(next);
    }
    return { status: 200, body: answer };
  }

  async #endByPlayer(session: FakeSession, shoe: FakeShoe, value: unknown): Promise<FakeAnswer> {
    if (shoe.status !== 'in-play') return error(409, 'shoe_not_started', 'the shoe is not in play');
    if (session.pending) return error(409, 'round_pending', 'a round waits for its secret');
    const checked = await validatePlayerRequest(session.playerKey, value, 'end');
    if (!checked.ok) return error(400, checked.error.code, checked.error.message);
    if (checked.value.body.prev !== session.records.at(-1)!.hash) return error(409, 'request_mismatch', 'the end request does not follow the last record');
    const next = await this.#end(session, shoe, 'player', checked.value);
    const ended: EndAnswer = { reveal: shoe.reveal!, balance: session.balance, shoe: summary(shoe), nextShoe: shoeView(next) };
    return { status: 200, body: ended };
  }

  /** Reveals the shoe's server seed and commits the next shoe, chained to the reveal. */
  async #end(session: FakeSession, shoe: FakeShoe, reason: RevealReason, request?: Parameters<typeof buildReveal>[0]['request']): Promise<FakeShoe> {
    const last = session.records.at(-1)!;
    const body = buildReveal({
      last,
      serverSeed: shoe.serverSeed,
      rounds: shoe.accepted,
      reason,
      ...(request ? { request } : {}),
      closingBalance: session.balance,
      keyId: 'fake-key',
      issuedAt: this.#at(),
    });
    shoe.reveal = await this.#sign(session, body);
    shoe.status = 'ended';
    shoe.state = null;
    return this.#commit(session, shoe.reveal.hash);
  }

  /**
   * The pending round of `sessionId` waited past `voidAfterSeconds`: the fake signs its void (the
   * stake returned), as the Worker does when the secret never comes. False when nothing waits.
   */
  async voidPending(sessionId: string): Promise<boolean> {
    const session = this.#sessions.get(sessionId);
    const pending = session?.pending;
    if (!session || !pending) return false;
    this.now = Math.max(this.now, Date.parse(pending.voidAt));
    const voided = await this.#sign(session, buildVoid(pending.acceptance, 'fake-key', this.#at()));
    session.pending = null;
    session.balance = voided.body.balanceAfter;
    session.voided.add(`${voided.body.shoe}:${voided.body.round}`);
    return true;
  }

  /** The session's table limits: a launched session's own (its currency's), else its room's. */
  #limits(session: FakeSession): TableLimits {
    return this.wallets.get(session.id)?.limits ?? ROOMS[session.room].limits;
  }

  #view(session: FakeSession): SessionView {
    const room = ROOMS[session.room];
    const wallet = this.wallets.get(session.id)?.view;
    const lastReceipt = [...session.records].reverse().find((r): r is Signed<Receipt> => r.body.type === 'receipt') ?? null;
    return {
      protocol: 'pb-fair-2',
      sessionId: session.id,
      room: session.room,
      roomName: room.name,
      affiliate: null,
      attribution: 'claimed',
      balance: session.balance,
      limits: this.#limits(session),
      ...(wallet ? { wallet } : {}),
      playerKey: session.playerKey,
      shoe: shoeView(session.shoes.at(-1)!),
      head: session.records.at(-1)!,
      pending: session.pending,
      lastReceipt,
    };
  }

  /** Forgets every session (as if the Worker lost them): the next call gets 404. */
  expireSessions(): void {
    this.#sessions.clear();
  }
}

/** The cuts the fake takes: any position inside the stack (the verifier's rule, FAIRNESS.md §B10). */
function cutRange(params: ShoeParams): { min: number; max: number } {
  return { min: 1, max: params.decks * CARDS_PER_DECK - 1 };
}

function summary(shoe: FakeShoe): { number: number; status: ShoeStatus; rounds: number } {
  return { number: shoe.number, status: shoe.status, rounds: shoe.accepted };
}

/** The shoe as the session and round answers describe it. */
function shoeView(shoe: FakeShoe): ShoeView {
  return {
    ...summary(shoe),
    params: shoe.params,
    cutRange: cutRange(shoe.params),
    commitment: shoe.commitment,
    ...(shoe.start ? { start: shoe.start } : {}),
    ...(shoe.reveal ? { reveal: shoe.reveal } : {}),
  };
}

function error(status: number, code: ApiErrorCode | FakeOnlyCode, message: string): FakeAnswer {
  return { status, body: { error: { code, message } } };
}
