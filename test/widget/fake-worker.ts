/**
 * A stand-in for the Worker's HTTP API (API.md), for the widget tests, the screenshots and the
 * widget bench. It deals with the shared engine (scripted cards, or a derived shoe), settles with
 * settle.ts and signs every record for real (an Ed25519 key made on first use, served as the JWKS),
 * chained as the Worker chains them — so a shoe dealt from its derived stack verifies with the
 * shared verifier; scripted cards, which no shoe produced, do not. Idempotency as the Worker does
 * it: the same key and body get the first answer. Runs in the browser (as an injected `fetch`) and
 * in Node (behind an http server).
 */
import type { ApiErrorCode, CreatedSession, EndAnswer, ReceiptsAnswer, RoundAnswer, SessionView, ShoeStatus, ShoeView, StartAnswer } from '../../shared/api.ts';
import { playRoundFromCodes, type Round } from '../../shared/round.ts';
import { settle } from '../../shared/settle.ts';
import { isRoomId, ROOMS, validateBets, type Bet } from '../../shared/table.ts';
import {
  buildCommitmentBody,
  buildReceiptBody,
  buildRevealBody,
  buildStartBody,
  type CommitmentBody,
  cutRange,
  DEFAULT_SHOE_PARAMS,
  deriveRoundShoe,
  deriveShoe,
  FAIRNESS_VERSION,
  generateSigningKey,
  type Jwks,
  type ReceiptBody,
  type RevealBody,
  type ShoeParams,
  type Signed,
  type SigningKey,
  signRecord,
  type StartBody,
  type Transcript,
  validateClientSeed,
  validateShoeCut,
} from '../../shared/fairness/index.ts';
import { dealRound, defaultShoeRules, type Shoe } from '../../shared/shoe.ts';
import { STORAGE_PREFIX } from '../../widget/element/session-store.ts';

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
  /** Matched against the path's last segment: `sessions`, `start`, `rounds`, `end`, `transcript`, `receipts`, `jwks.json`; `session` is GET /api/sessions/:id. */
  route: 'sessions' | 'session' | 'start' | 'rounds' | 'end' | 'transcript' | 'receipts' | 'jwks.json';
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

const ISSUED_AT = '2026-01-01T00:00:00.000Z';

/** One shoe's records as the fake keeps them (its transcript, and the dealing state). */
interface FakeShoe {
  number: number;
  status: ShoeStatus;
  serverSeed: string;
  commitment: Signed<CommitmentBody>;
  start?: Signed<StartBody>;
  receipts: Signed<ReceiptBody>[];
  reveal?: Signed<RevealBody>;
  shoe: Shoe | null;
  position: number;
}

interface FakeSession {
  id: string;
  token: string;
  room: keyof typeof ROOMS;
  balance: number;
  shoes: FakeShoe[];
}

export class FakeWorker {
  /** Every request seen, in order. */
  readonly log: FakeRequest[] = [];
  /** Card codes of the coming rounds (each list in shoe order); when empty, the derived shoe deals. */
  script: string[][] = [];
  faults: Fault[] = [];
  startBalance = 1_000_000;
  /** The shoe's parameters (a one-deck shoe ends after a handful of rounds). */
  params: ShoeParams = { ...DEFAULT_SHOE_PARAMS, ...defaultShoeRules('shoe') };
  /** Resolves a request only when this promise resolves (to hold a round "in flight"). */
  gate: Promise<void> | null = null;

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

  /** The public keys that verify this fake's records, as /.well-known/jwks.json serves them. */
  async jwks(): Promise<Jwks> {
    return { keys: [(await this.#signingKey()).publicJwk] };
  }

  /** Shoe `shoe` of session `sessionId` as a transcript (what GET …/shoes/:n/transcript answers). */
  transcript(sessionId: string, shoe: number): Transcript | null {
    const s = this.#sessions.get(sessionId)?.shoes[shoe - 1];
    return s ? transcriptOf(s) : null;
  }

  async #sign<T extends { type: string }>(body: T): Promise<Signed<T>> {
    return signRecord(body, await this.#signingKey());
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
    if (req.method === 'POST' && parts.length === 2 && parts[1] === 'sessions') return this.#create(req.body as { room?: unknown });
    const session = this.#sessions.get(parts[2] ?? '');
    if (!session) return error(404, 'not_found', 'no such session');
    if (req.headers.authorization !== `Bearer ${session.token}`) return error(401, 'unauthorized', 'wrong token');
    const tail = parts.slice(3).join('/');
    const shoe = session.shoes.at(-1)!;
    if (req.method === 'POST' && tail === 'shoe/start') return this.#start(shoe, req.body as { clientSeed?: unknown; cut?: unknown });
    if (req.method === 'POST' && tail === 'rounds') return this.#round(session, shoe, (req.body as { bets: Bet[] }).bets);
    if (req.method === 'POST' && tail === 'shoe/end') {
      if (shoe.status === 'ended') return error(409, 'shoe_not_started', 'the shoe has ended');
      const next = await this.#end(session, shoe, 'ended-early');
      const ended: EndAnswer = { reveal: shoe.reveal!, balance: session.balance, shoe: { number: shoe.number, status: 'ended', rounds: shoe.receipts.length }, nextShoe: shoeInfo(next, this.params) };
      return { status: 200, body: ended };
    }
    if (req.method === 'GET' && tail === '') return { status: 200, body: sessionView(session, this.params) };
    if (req.method === 'GET' && tail === 'receipts') {
      const raw = new URLSearchParams(req.query ?? '').get('shoe');
      const found = raw === null ? shoe : session.shoes[Number(raw) - 1];
      const receipts: ReceiptsAnswer | null = found ? { shoe: found.number, receipts: [...found.receipts] } : null;
      return receipts ? { status: 200, body: receipts } : error(404, 'not_found', 'no such shoe');
    }
    const wanted = /^shoes\/(\d+)\/transcript$/.exec(tail);
    if (req.method === 'GET' && wanted) {
      const found = session.shoes[Number(wanted[1]) - 1];
      return found ? { status: 200, body: transcriptOf(found) } : error(404, 'not_found', 'no such shoe');
    }
    return error(404, 'not_found', `no route ${req.method} ${req.path}`);
  }

  async #create(body: { room?: unknown }): Promise<FakeAnswer> {
    const room = isRoomId(body?.room) ? body.room : 'hall-1';
    const id = `s${this.#next++}`;
    const session: FakeSession = { id, token: `t-${id}`, room, balance: this.startBalance, shoes: [] };
    this.#sessions.set(id, session);
    await this.#commit(session, null);
    const created: CreatedSession = { ...sessionView(session, this.params), token: session.token };
    return { status: 201, body: created };
  }

  /** Commits the session's next shoe (its seed's hash and parameters, signed) before anything else. */
  async #commit(session: FakeSession, prev: string | null): Promise<FakeShoe> {
    const number = session.shoes.length + 1;
    const serverSeed = serverSeedOf(number);
    const body = buildCommitmentBody({ table: session.id, shoe: number, params: this.params, serverSeed, prev, issuedAt: ISSUED_AT, limits: ROOMS[session.room].limits });
    const shoe: FakeShoe = { number, status: 'awaiting-start', serverSeed, commitment: await this.#sign(body), receipts: [], shoe: null, position: 0 };
    session.shoes.push(shoe);
    return shoe;
  }

  async #start(shoe: FakeShoe, body: { clientSeed?: unknown; cut?: unknown }): Promise<FakeAnswer> {
    if (shoe.status !== 'awaiting-start') return error(409, 'shoe_already_started', 'the shoe is already in play');
    const seed = validateClientSeed(String(body?.clientSeed ?? ''));
    if (!seed.ok) return error(400, 'bad_client_seed', seed.error.message);
    const cut = validateShoeCut(this.params, Number(body?.cut));
    if (!cut.ok) return error(400, 'bad_cut', cut.error.message);
    shoe.shoe = this.params.mode === 'reshuffle' ? deriveRoundShoe(this.params, shoe.serverSeed, seed.value, cut.value, 1) : deriveShoe(this.params, shoe.serverSeed, seed.value, cut.value);
    shoe.status = 'in-play';
    shoe.start = await this.#sign(buildStartBody({ table: shoe.commitment.body.table, shoe: shoe.number, clientSeed: seed.value, cut: cut.value, prev: shoe.commitment.hash, issuedAt: ISSUED_AT }));
    const started: StartAnswer = { shoe: shoeInfo(shoe, this.params) };
    return { status: 200, body: started };
  }

  async #round(session: FakeSession, shoe: FakeShoe, bets: Bet[]): Promise<FakeAnswer> {
    if (shoe.status !== 'in-play' || !shoe.shoe) return error(409, 'shoe_not_started', 'start the shoe first');
    const checked = validateBets(bets, ROOMS[session.room].limits, session.balance);
    if (!checked.ok) return error(422, checked.error.code, checked.error.message);
    let dealt: Round;
    let cutCardOut = false;
    const scripted = this.script.shift();
    if (scripted) {
      const played = playRoundFromCodes(scripted);
      if (!played.ok) return error(500, 'bad_script', played.error.message);
      // Scripted cards get positions after the cards dealt so far, as a shoe would give them.
      const base = shoe.position;
      dealt = { ...played.value, positions: played.value.positions.map((p) => p + base) };
      shoe.position = base + played.value.cardsUsed;
    } else {
      const next = dealRound(shoe.shoe);
      if (!next.ok) return error(409, 'shoe_not_started', next.error.message);
      shoe.shoe = next.value.shoe;
      dealt = next.value.round;
      cutCardOut = next.value.cutCardOut;
      shoe.position = next.value.shoe.next;
    }
    const body: ReceiptBody = buildReceiptBody({
      table: session.id,
      shoe: shoe.number,
      round: shoe.receipts.length + 1,
      affiliate: null,
      bets: checked.value,
      dealt,
      settlement: settle(checked.value, dealt.outcome),
      balanceBefore: session.balance,
      cutCardOut,
      prev: shoe.receipts.at(-1)?.hash ?? shoe.start!.hash,
      issuedAt: ISSUED_AT,
    });
    const receipt = await this.#sign(body);
    shoe.receipts.push(receipt);
    session.balance = body.balanceAfter;
    const answer: RoundAnswer = { receipt, balance: session.balance, shoe: { number: shoe.number, status: cutCardOut ? 'ended' : 'in-play', rounds: shoe.receipts.length } };
    if (cutCardOut) {
      const next = await this.#end(session, shoe, 'cut-card');
      answer.reveal = shoe.reveal!;
      answer.nextShoe = shoeInfo(next, this.params);
    }
    return { status: 200, body: answer };
  }

  /** Reveals the shoe's server seed and commits the next shoe, chained to the reveal. */
  async #end(session: FakeSession, shoe: FakeShoe, reason: RevealBody['reason']): Promise<FakeShoe> {
    const prev = shoe.receipts.at(-1)?.hash ?? shoe.start?.hash ?? shoe.commitment.hash;
    shoe.reveal = await this.#sign(buildRevealBody({ table: session.id, shoe: shoe.number, serverSeed: shoe.serverSeed, rounds: shoe.receipts.length, reason, prev, issuedAt: ISSUED_AT }));
    shoe.status = 'ended';
    shoe.shoe = null;
    return this.#commit(session, shoe.reveal.hash);
  }

  /** Forgets every session (as if the Worker lost them): the next call gets 404. */
  expireSessions(): void {
    this.#sessions.clear();
  }
}

/** The shoe as the session and round answers describe it. */
function shoeInfo(shoe: FakeShoe, params: ShoeParams): ShoeView {
  return {
    number: shoe.number,
    status: shoe.status,
    rounds: shoe.receipts.length,
    params,
    cutRange: cutRange(params),
    commitment: shoe.commitment,
    ...(shoe.start ? { start: shoe.start } : {}),
    ...(shoe.reveal ? { reveal: shoe.reveal } : {}),
  };
}

/** The session as `GET /api/sessions/:id` shows it (the fake knows no affiliates). */
function sessionView(session: FakeSession, params: ShoeParams): SessionView {
  const room = ROOMS[session.room];
  return { sessionId: session.id, room: session.room, roomName: room.name, affiliate: null, attribution: 'claimed', balance: session.balance, limits: room.limits, shoe: shoeInfo(session.shoes.at(-1)!, params), lastReceipt: lastReceipt(session) };
}

/** The newest receipt of the session (null before the first round). */
function lastReceipt(session: FakeSession): Signed<ReceiptBody> | null {
  for (const shoe of [...session.shoes].reverse()) if (shoe.receipts.length) return shoe.receipts.at(-1)!;
  return null;
}

function transcriptOf(shoe: FakeShoe): Transcript {
  return {
    version: FAIRNESS_VERSION,
    commitment: shoe.commitment,
    ...(shoe.start ? { start: shoe.start } : {}),
    receipts: [...shoe.receipts],
    ...(shoe.reveal ? { reveal: shoe.reveal } : {}),
  };
}

function error(status: number, code: ApiErrorCode | FakeOnlyCode, message: string): FakeAnswer {
  return { status, body: { error: { code, message } } };
}
