/**
 * A stand-in for the Worker's HTTP API (API.md), for the widget tests, the screenshots and the
 * widget bench. It deals with the shared engine (scripted cards, or a derived shoe) and settles
 * with settle.ts, so receipts are real receipt bodies; the signatures are placeholders (the element
 * does not verify). Idempotency as the Worker does it: the same key and body get the first answer.
 * Runs in the browser (as an injected `fetch`) and in Node (behind an http server).
 */
import { playRoundFromCodes, type Round } from '../../shared/round.ts';
import { settle } from '../../shared/settle.ts';
import { isRoomId, ROOMS, validateBets, type Bet } from '../../shared/table.ts';
import { buildReceiptBody, DEFAULT_SHOE_PARAMS, deriveShoe, cutRange, type ReceiptBody, type ShoeParams, type Signed } from '../../shared/fairness/index.ts';
import { dealRound, type Shoe } from '../../shared/shoe.ts';

export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface FakeAnswer {
  status: number;
  body: unknown;
}

/** A failure the next matching request(s) get instead of an answer. */
export interface Fault {
  /** Matched against the path's last segment: `sessions`, `start`, `rounds`. */
  route: 'sessions' | 'start' | 'rounds';
  times: number;
  /** `network` throws like a dead connection; a number answers with that status. */
  kind: 'network' | number;
  code?: string;
}

const SERVER_SEED = 'c0ffee'.repeat(10) + 'abcd';

function sign<T>(body: T): Signed<T> {
  return { body, hash: '00'.repeat(32), keyId: 'fake-key', signature: 'fake-signature' };
}

export class FakeWorker {
  /** Every request seen, in order. */
  readonly log: FakeRequest[] = [];
  /** Card codes of the coming rounds (each list in shoe order); when empty, the derived shoe deals. */
  script: string[][] = [];
  faults: Fault[] = [];
  startBalance = 1_000_000;
  /** The shoe's parameters (a one-deck shoe ends after a handful of rounds). */
  params: ShoeParams = { ...DEFAULT_SHOE_PARAMS };
  /** Resolves a request only when this promise resolves (to hold a round "in flight"). */
  gate: Promise<void> | null = null;

  #sessions = new Map<string, { token: string; room: keyof typeof ROOMS; balance: number; shoeNumber: number; status: string; rounds: number; shoe: Shoe | null; position: number }>();
  #answers = new Map<string, { body: string; answer: FakeAnswer }>();
  #next = 1;

  /** A `fetch` for the element's `fetcher` property. */
  fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input, 'http://fake.invalid/');
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    const raw = typeof init.body === 'string' ? init.body : '';
    const answer = await this.handle({ method: init.method ?? 'GET', path: url.pathname, headers, body: raw ? JSON.parse(raw) : null });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  };

  /** Requests to `route` (last path segment), e.g. `rounds`. */
  requests(route: string): FakeRequest[] {
    return this.log.filter((r) => r.path.endsWith(`/${route}`));
  }

  async handle(req: FakeRequest): Promise<FakeAnswer> {
    this.log.push(req);
    if (this.gate) await this.gate;
    const route = req.path.split('/').filter(Boolean).pop() as Fault['route'];
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
    const answer = this.#route(req);
    if (req.method === 'POST' && key && answer.status < 500) this.#answers.set(`${req.path} ${key}`, { body: bodyText, answer });
    return answer;
  }

  #route(req: FakeRequest): FakeAnswer {
    const parts = req.path.split('/').filter(Boolean); // api, sessions, id, …
    if (req.method === 'POST' && parts.length === 2 && parts[1] === 'sessions') return this.#create(req.body as { room?: unknown });
    const session = this.#sessions.get(parts[2] ?? '');
    if (!session) return error(404, 'not_found', 'no such session');
    if (req.headers.authorization !== `Bearer ${session.token}`) return error(401, 'unauthorized', 'wrong token');
    const tail = parts.slice(3).join('/');
    if (req.method === 'POST' && tail === 'shoe/start') {
      if (session.status !== 'awaiting-start') return error(409, 'shoe_already_started', 'the shoe is already in play');
      const { clientSeed, cut } = req.body as { clientSeed: string; cut: number };
      session.shoe = deriveShoe(this.params, SERVER_SEED, clientSeed, cut);
      session.status = 'in-play';
      return { status: 200, body: { shoe: { number: session.shoeNumber, status: 'in-play', rounds: 0, start: sign({ type: 'start', clientSeed, cut }) } } };
    }
    if (req.method === 'POST' && tail === 'rounds') return this.#round(session, (req.body as { bets: Bet[] }).bets);
    return error(404, 'not_found', `no route ${req.method} ${req.path}`);
  }

  #create(body: { room?: unknown }): FakeAnswer {
    const room = isRoomId(body?.room) ? body.room : 'hall-1';
    const id = `s${this.#next++}`;
    this.#sessions.set(id, { token: `t-${id}`, room, balance: this.startBalance, shoeNumber: 1, status: 'awaiting-start', rounds: 0, shoe: null, position: 0 });
    return { status: 201, body: { sessionId: id, token: `t-${id}`, balance: this.startBalance, room, limits: ROOMS[room].limits, shoe: this.#shoeInfo(1) } };
  }

  #shoeInfo(number: number): unknown {
    return {
      number,
      status: 'awaiting-start',
      rounds: 0,
      cutRange: cutRange(this.params),
      commitment: sign({ type: 'commitment', table: 'fake', shoe: number, params: this.params, serverSeedHash: 'ab'.repeat(32), prev: null, issuedAt: '2026-01-01T00:00:00.000Z' }),
    };
  }

  #round(session: { room: keyof typeof ROOMS; balance: number; shoeNumber: number; status: string; rounds: number; shoe: Shoe | null; position: number }, bets: Bet[]): FakeAnswer {
    if (session.status !== 'in-play' || !session.shoe) return error(409, 'shoe_not_started', 'start the shoe first');
    const checked = validateBets(bets, ROOMS[session.room].limits, session.balance);
    if (!checked.ok) return error(422, checked.error.code, checked.error.message);
    let dealt: Round;
    let cutCardOut = false;
    const scripted = this.script.shift();
    if (scripted) {
      const played = playRoundFromCodes(scripted);
      if (!played.ok) return error(500, 'bad_script', played.error.message);
      // Scripted cards get positions after the cards dealt so far, as a shoe would give them.
      const base = session.position;
      dealt = { ...played.value, positions: played.value.positions.map((p) => p + base) };
      session.position = base + played.value.cardsUsed;
    } else {
      const next = dealRound(session.shoe);
      if (!next.ok) return error(409, 'shoe_ended', next.error.message);
      session.shoe = next.value.shoe;
      dealt = next.value.round;
      cutCardOut = next.value.cutCardOut;
      session.position = next.value.shoe.next;
    }
    const settlement = settle(checked.value, dealt.outcome);
    session.rounds++;
    const body: ReceiptBody = buildReceiptBody({
      table: 'fake',
      shoe: session.shoeNumber,
      round: session.rounds,
      affiliate: null,
      bets: checked.value,
      dealt,
      settlement,
      balanceBefore: session.balance,
      cutCardOut,
      prev: '00'.repeat(32),
      issuedAt: '2026-01-01T00:00:00.000Z',
    });
    session.balance = body.balanceAfter;
    const answer: Record<string, unknown> = { receipt: sign(body), balance: session.balance, shoe: { number: session.shoeNumber, status: cutCardOut ? 'ended' : 'in-play', rounds: session.rounds } };
    if (cutCardOut) {
      session.shoeNumber++;
      session.status = 'awaiting-start';
      session.rounds = 0;
      session.shoe = null;
      session.position = 0;
      answer.nextShoe = this.#shoeInfo(session.shoeNumber);
    }
    return { status: 200, body: answer };
  }

  /** Forgets every session (as if the Worker lost them): the next call gets 404. */
  expireSessions(): void {
    this.#sessions.clear();
  }
}

function error(status: number, code: string, message: string): FakeAnswer {
  return { status, body: { error: { code, message } } };
}
