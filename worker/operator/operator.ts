/**
 * `Operator`: one Durable Object per configured operator (wallet mode), addressed by the
 * operator's id (binding `OPERATORS`). It keeps what must be checked in one place for an operator:
 *
 * - the nonces of its signed messages (launches and operator calls): each is accepted once, and
 *   kept twice the ±5 min window (store.ts);
 * - its launch tokens: `POST /api/operator/launch` mints one (single use, 120 s), the player's
 *   `POST /api/sessions` with `launchToken` redeems it here and creates the session through the
 *   table's `create` with the launch's player, currency, language, limits and the operator's room
 *   limits in that currency;
 * - its sessions (player, currency, created, ended by the operator), which the operator routes
 *   reach: end a player's sessions, list the wallet calls, look up a round, a daily summary.
 *
 * Every signature is checked here (shared/wallet/sign.ts, launch.ts) against the operator's secret
 * from the configuration, with the nonce store's synchronous check-and-record as its last step, so
 * two calls with one nonce can never both pass. Changes run one at a time (`#exclusive`): a
 * redemption awaits the table (which asks the wallet for the balance) between its check and its
 * record, and a second redemption of the same token must see the first one's outcome.
 */
import { DurableObject } from 'cloudflare:workers';
import { type CreatedSession, type LaunchAnswer, oneOf, type SessionView, type ShoeMode, type Signed, type TableLimits } from '../../shared/index.ts';
import { ID_PATTERN } from '../../shared/wallet/transaction.ts';
import { type LaunchRequest, OPERATOR_HEADER, verifyLaunchRequest } from '../../shared/wallet/launch.ts';
import type { OperatorConfig } from '../../shared/wallet/operators.ts';
import { verifyWalletMessage } from '../../shared/wallet/sign.ts';
import { type Env, operators } from '../config/env.ts';
import { type Answer, answer, failure, isSuccess } from '../http/answers.ts';
import { LAUNCH_TOKEN_TTL_MS, newLaunchToken, newSessionId, newToken, tokenHash } from '../http/tokens.ts';
import type { Idem } from '../session/replay.ts';
import type { WalletCallRow } from '../wallet/calls-view.ts';
import { LAUNCH_KEEP_MS, type OperatorSession, OperatorStore } from './store.ts';
import { type DaySummary, summarizeDay } from './summary.ts';

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

/** A signed operator call as the fetch handler passes it on: what the signature covers, and its headers. */
export interface SignedCall {
  operatorId: string;
  method: string;
  /** The path as sent, with its query (`/api/operator/transactions?from=…&to=…`). */
  path: string;
  /** The PB-Signature, PB-Timestamp and PB-Nonce headers (absent ones left out). */
  headers: Record<string, string>;
  /** The body's exact text; empty for a GET. */
  body: string;
}

/** `POST /api/sessions` with a launch token, checked by the fetch handler. */
export interface Redemption {
  tokenHash: string;
  /** The body's `operator`: the token must be this operator's. */
  expectedOperator: string | null;
  idem: Idem;
  playerKey: string;
  mode?: ShoeMode;
  decks?: number;
}

/** A refused signature (any of its codes): the operator's call was not authenticated. */
const SIGNATURE_REFUSED = 401;

/** `401 unknown_operator`: no PB-Operator, or one that OPERATOR_SETTINGS does not list. */
export const unknownOperator = (): Answer<never> => failure(SIGNATURE_REFUSED, 'unknown_operator', 'the PB-Operator header must name a configured operator');

/** `404 launch_token_unknown`. */
export const launchTokenUnknown = (): Answer<never> =>
  failure(404, 'launch_token_unknown', 'this launch token is not known: ask the casino to launch the table again');

type EndCode = 'self_exclusion' | 'operator_ended';
const END_CODES: readonly EndCode[] = ['self_exclusion', 'operator_ended'];

/** The end call's body: exactly `{ "code": … }`. */
function endCode(text: string): { ok: true; value: EndCode } | { ok: false; answer: Answer<never> } {
  const bad = (message: string) => ({ ok: false as const, answer: failure(400, 'invalid_body', message) });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, answer: failure(400, 'bad_json', 'the request body is not valid JSON') };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('the body must be a JSON object');
  const extra = Object.keys(value).find((k) => k !== 'code');
  if (extra !== undefined) return bad(`unknown field "${extra}"`);
  const code = (value as { code?: unknown }).code;
  if (!END_CODES.includes(code as EndCode)) return bad(`code must be ${oneOf(END_CODES)}`);
  return { ok: true, value: code as EndCode };
}

export class Operator extends DurableObject<Env> {
  readonly #store: OperatorStore;
  #tail: Promise<unknown> = Promise.resolve();
  /** The object's clock (ms); public so that tests can move it past a token's expiry instead of waiting. */
  clock: () => number = () => Date.now();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new OperatorStore(ctx.storage);
  }

  // ---- the launch ---------------------------------------------------------------------------------

  /** `POST /api/operator/launch`: checks the signed launch, mints a launch token for it. */
  async launch(call: SignedCall, origin: string): Promise<Answer<LaunchAnswer>> {
    const config = this.#config(call.operatorId);
    if (!config) return unknownOperator();
    const now = this.clock();
    const checked = await verifyLaunchRequest({
      headers: { ...call.headers, [OPERATOR_HEADER]: call.operatorId },
      body: call.body,
      now: Math.floor(now / 1000),
      operatorSecret: (id) => (id === config.id ? config.operatorSecret : undefined),
      nonceRefused: (nonce) => this.#store.nonceRefused(nonce, Math.floor(now / 1000)),
    });
    if (!checked.ok) {
      const code = checked.error.code;
      return failure(code === 'bad_launch' ? 400 : SIGNATURE_REFUSED, code, checked.error.message);
    }
    const launch = checked.value.launch;
    if (!config.currencies[launch.currency]?.[launch.room]) {
      return failure(400, 'bad_launch', `operator "${config.id}" has no room "${launch.room}" open in ${launch.currency} (OPERATOR_SETTINGS)`);
    }
    const token = newLaunchToken(config.id, randomBytes);
    const expiresAt = now + LAUNCH_TOKEN_TTL_MS;
    this.#store.insertLaunch(tokenHash(token), launch, now, expiresAt);
    await this.#armPrune();
    return answer(201, { token, url: `${origin}/embed?launch=${encodeURIComponent(token)}`, expiresAt: new Date(expiresAt).toISOString() });
  }

  /**
   * Redeems a launch token for a new wallet-mode session, once: unknown (404), another operator's
   * (403), used (409, unless this is a retry of the redemption that used it: same Idempotency-Key
   * and body, which gets the same session again), expired (410).
   */
  async redeem(operatorId: string, r: Redemption): Promise<Answer<CreatedSession>> {
    return this.#exclusive(async () => {
      const row = this.#store.launch(r.tokenHash);
      if (!row) return launchTokenUnknown();
      if (r.expectedOperator !== null && r.expectedOperator !== operatorId)
        return failure(403, 'launch_wrong_operator', `this launch token is not operator "${r.expectedOperator}"'s`);
      if (row.redeemed) {
        if (row.redeemed.idemKey === r.idem.key && row.redeemed.requestHash === r.idem.requestHash) {
          return answer(201, JSON.parse(row.redeemed.answer) as CreatedSession, { 'Idempotent-Replayed': 'true' });
        }
        return failure(409, 'launch_token_used', 'this launch token was already used: ask the casino to launch the table again');
      }
      const now = this.clock();
      if (now > row.expiresAt) return failure(410, 'launch_token_expired', 'this launch token has expired: ask the casino to launch the table again');
      const config = this.#config(operatorId);
      const tableLimits = config?.currencies[row.launch.currency]?.[row.launch.room];
      if (!config || !tableLimits) {
        return failure(403, 'bad_launch', `operator "${operatorId}" no longer plays ${row.launch.room} in ${row.launch.currency} (OPERATOR_SETTINGS)`);
      }
      return this.#createSession(config, r, row.launch, tableLimits, now);
    });
  }

  async #createSession(config: OperatorConfig, r: Redemption, launch: LaunchRequest, tableLimits: TableLimits, now: number): Promise<Answer<CreatedSession>> {
    const sessionId = newSessionId(randomBytes);
    const token = newToken(sessionId, randomBytes);
    const created = await this.env.TABLES.getByName(sessionId).create({
      sessionId,
      tokenHash: tokenHash(token),
      room: launch.room,
      affiliate: null,
      // The operator's signed launch says who the player is and where they came from.
      attribution: 'signed',
      playerKey: r.playerKey,
      mode: r.mode,
      decks: r.decks,
      wallet: {
        operator: config.id,
        playerId: launch.playerId,
        currency: launch.currency,
        lang: launch.lang,
        returnUrl: launch.returnUrl,
        playerLimits: launch.limits,
        tableLimits,
      },
    });
    // A refusal (the wallet did not answer the balance, a bad player key) leaves the token unused.
    if (!isSuccess(created)) return created as Answer<never>;
    const body: CreatedSession = { ...(created.body as SessionView), token };
    const session: OperatorSession = {
      sessionId,
      playerId: launch.playerId,
      currency: launch.currency,
      room: launch.room,
      createdAt: new Date(now).toISOString(),
      endedAt: null,
      endCode: null,
    };
    this.#store.redeem(this.ctx.storage, r.tokenHash, { at: now, idemKey: r.idem.key, requestHash: r.idem.requestHash, answer: JSON.stringify(body) }, session);
    return answer(201, body);
  }

  // ---- the operator's calls -------------------------------------------------------------------------

  /**
   * `POST /api/operator/players/:playerId/end` `{ "code": "self_exclusion" | "operator_ended" }`:
   * ends at once every session of the player the operator has not ended yet. The body is read only
   * once the signature holds.
   */
  async endPlayer(call: SignedCall, playerId: string): Promise<Answer<{ playerId: string; code: EndCode; ended: string[] }>> {
    const refused = await this.#verify(call);
    if (refused) return refused;
    const code = endCode(call.body);
    if (!code.ok) return code.answer;
    if (!ID_PATTERN.test(playerId)) return failure(404, 'not_found', 'a player id is 1 to 128 of A-Z a-z 0-9 . _ : -');
    return this.#exclusive(async () => {
      const ended: string[] = [];
      for (const s of this.#store.openSessionsOf(playerId)) {
        await this.env.TABLES.getByName(s.sessionId).endByOperator(code.value);
        this.#store.markEnded(s.sessionId, code.value, new Date(this.clock()).toISOString());
        ended.push(s.sessionId);
      }
      return answer(200, { playerId, code: code.value, ended });
    });
  }

  /** `GET /api/operator/transactions?from=&to=`: every wallet call of the operator's sessions in [from, to), oldest first. */
  async transactions(
    call: SignedCall,
    from: string,
    to: string,
  ): Promise<Answer<{ operator: string; from: string; to: string; transactions: WalletCallRow[] }>> {
    const refused = await this.#verify(call);
    if (refused) return refused;
    return answer(200, { operator: call.operatorId, from, to, transactions: await this.#calls(from, to) });
  }

  /** `GET /api/operator/rounds/:sessionId/:shoe/:round`: the round's signed records (acceptance, then receipt or void), for a session of this operator. */
  async round(
    call: SignedCall,
    sessionId: string,
    shoe: number,
    round: number,
  ): Promise<Answer<{ sessionId: string; roundId: string; playerId: string; currency: string; records: Signed[] }>> {
    const refused = await this.#verify(call);
    if (refused) return refused;
    const session = this.#store.session(sessionId);
    if (!session) return failure(404, 'not_found', `operator "${call.operatorId}" has no session "${sessionId}"`);
    const records = await this.env.TABLES.getByName(sessionId).roundRecords(shoe, round);
    if (records.length === 0) return failure(404, 'not_found', `session "${sessionId}" has no round ${round} in shoe ${shoe}`);
    return answer(200, { sessionId, roundId: `${sessionId}/${shoe}/${round}`, playerId: session.playerId, currency: session.currency, records });
  }

  /** `GET /api/operator/summary?day=YYYY-MM-DD`: the day's figures per currency (summary.ts). */
  async summary(call: SignedCall, day: string): Promise<Answer<{ operator: string; day: string; currencies: DaySummary[] }>> {
    const refused = await this.#verify(call);
    if (refused) return refused;
    const from = `${day}T00:00:00.000Z`;
    const to = new Date(Date.parse(from) + 86_400_000).toISOString();
    return answer(200, { operator: call.operatorId, day, currencies: summarizeDay(await this.#calls(from, to)) });
  }

  async #calls(from: string, to: string): Promise<WalletCallRow[]> {
    const sessions = this.#store.sessionsCreatedBefore(to);
    const lists = await Promise.all(sessions.map((s) => this.env.TABLES.getByName(s.sessionId).walletCalls(from, to)));
    return lists.flat().sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.transaction < b.transaction ? -1 : 1));
  }

  // ---- the frame ----------------------------------------------------------------------------------

  /** The signature of an operator call (WALLET.md "Signatures", direction `request`), or its refusal. */
  async #verify(call: SignedCall): Promise<Answer<never> | null> {
    const config = this.#config(call.operatorId);
    if (!config) return unknownOperator();
    const now = Math.floor(this.clock() / 1000);
    const checked = await verifyWalletMessage({
      secret: config.operatorSecret,
      direction: 'request',
      method: call.method,
      path: call.path,
      headers: call.headers,
      body: call.body,
      now,
      nonceRefused: (nonce) => this.#store.nonceRefused(nonce, now),
    });
    return checked.ok ? null : failure(SIGNATURE_REFUSED, checked.error.code, checked.error.message);
  }

  #config(operatorId: string): OperatorConfig | undefined {
    const all = operators(this.env);
    return all.ok ? all.value.get(operatorId) : undefined;
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Launch rows (their answers hold bearer tokens) are deleted a day after the launch. */
  async #armPrune(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(this.clock() + LAUNCH_KEEP_MS + 1);
  }

  override async alarm(): Promise<void> {
    const oldest = this.#store.pruneLaunches(this.clock());
    if (oldest !== null) await this.ctx.storage.setAlarm(oldest + LAUNCH_KEEP_MS + 1);
  }
}
