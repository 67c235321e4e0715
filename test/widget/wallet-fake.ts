/**
 * The fake Worker in wallet mode, for the wallet widget tests: launch tokens the element redeems
 * (`POST /api/sessions` with `launchToken`), each refused with its own code when unknown, used,
 * expired or another operator's; a launched session's limits in its currency (the room's, per
 * currency, as the Worker's `defaultCurrencyLimits`), its wallet view (currency, pending payouts,
 * reality check, end), and the reality check's answer. Bets and rounds are the fake Worker's own.
 */
import type { ApiErrorCode, CreatedSession, WalletSessionView } from '../../shared/api.ts';
import type { Language } from '../../shared/languages.ts';
import type { RoomId } from '../../shared/table.ts';
import { defaultCurrencyLimits } from '../../shared/wallet/operators.ts';
import { minorUnitDigits } from '../../shared/wallet/currency.ts';
import { LAUNCH_PATH, verifyLaunchRequest } from '../../shared/wallet/launch.ts';
import type { PlayerLimits } from '../../shared/wallet/responsible.ts';
import { type FakeAnswer, type FakeRequest, FakeWorker } from './fake-worker.ts';

export interface FakeLaunch {
  operator: string;
  playerId: string;
  currency: string;
  lang: Language;
  room: RoomId;
  returnUrl: string;
  limits: PlayerLimits;
  /** The wallet's balance at launch (minor units). */
  balance: number;
  state: 'new' | 'used' | 'expired';
}

const refuse = (status: number, code: ApiErrorCode, message: string, extra: Record<string, unknown> = {}): FakeAnswer => ({
  status,
  body: { error: { code, message, ...extra } },
});

export class WalletFake extends FakeWorker {
  readonly launches = new Map<string, FakeLaunch>();

  /** A launch token for `currency` (and anything else overridden), as the operator's launch would give. */
  launch(token: string, over: Partial<FakeLaunch> = {}): string {
    this.launches.set(token, {
      operator: 'demo',
      playerId: 'alice',
      currency: 'EUR',
      lang: 'en',
      room: 'hall-1',
      returnUrl: 'https://casino.example/lobby',
      limits: {},
      balance: 100_000,
      state: 'new',
      ...over,
    });
    return token;
  }

  /** The wallet view of a launched session (tests change it: a pending payout, a reality check, an end). */
  walletOf(sessionId: string): WalletSessionView {
    const w = this.wallets.get(sessionId);
    if (!w) throw new Error(`no wallet session ${sessionId}`);
    return w.view;
  }

  override async handle(req: FakeRequest): Promise<FakeAnswer> {
    const parts = req.path.split('/').filter(Boolean);
    const body = req.body as Record<string, unknown> | null;
    if (req.method === 'POST' && parts.length === 2 && parts[1] === 'sessions' && typeof body?.launchToken === 'string') return this.#redeem(req, body);
    if (req.method === 'POST' && req.path === LAUNCH_PATH) return this.#logged(req, await this.#launch(req));
    const id = parts[1] === 'sessions' ? parts[2] : undefined;
    const wallet = id ? this.wallets.get(id)?.view : undefined;
    if (wallet && req.method === 'POST' && parts.at(-1) === 'reality-check') {
      this.log.push(req);
      const choice = (body as { choice?: unknown } | null)?.choice;
      if (!wallet.realityCheck) return refuse(409, 'bad_request', 'no reality check is waiting');
      if (choice === 'continue') wallet.realityCheck = null;
      else if (choice === 'stop') {
        wallet.realityCheck = null;
        wallet.ended = { code: 'player_stopped', at: new Date(this.now).toISOString() };
      } else return refuse(400, 'bad_request', 'choice: continue or stop');
      return super.handle({ method: 'GET', path: `/api/sessions/${id}`, headers: req.headers, body: null });
    }
    if (wallet && req.method === 'POST' && parts.at(-1) === 'rounds') {
      if (wallet.ended) return this.#logged(req, refuse(409, 'session_ended', 'the session has ended'));
      if (wallet.realityCheck) return this.#logged(req, refuse(409, 'reality_check_pending', 'answer the reality check first'));
    }
    return super.handle(req);
  }

  #logged(req: FakeRequest, answer: FakeAnswer): FakeAnswer {
    this.log.push(req);
    return answer;
  }

  /** `POST /api/operator/launch`, signed by the development operator (`demo`, `dev-demo-secret`), checked as the Worker checks it. */
  async #launch(req: FakeRequest): Promise<FakeAnswer> {
    const checked = await verifyLaunchRequest({
      headers: req.headers,
      body: JSON.stringify(req.body),
      now: Math.floor(Date.now() / 1000),
      operatorSecret: (id) => (id === 'demo' ? 'dev-demo-secret' : undefined),
      nonceRefused: () => false,
    });
    if (!checked.ok) return refuse(checked.error.code === 'bad_launch' ? 400 : 401, checked.error.code, checked.error.message);
    const { launch } = checked.value;
    const token = this.launch(`launch-${this.launches.size + 1}`, { ...launch, operator: checked.value.operatorId, limits: launch.limits });
    return { status: 201, body: { token, url: `/embed?launch=${token}`, expiresAt: new Date(Date.now() + 120_000).toISOString() } };
  }

  async #redeem(req: FakeRequest, body: Record<string, unknown>): Promise<FakeAnswer> {
    const launch = this.launches.get(body.launchToken as string);
    if (!launch) return this.#logged(req, refuse(404, 'launch_token_unknown', 'no such launch token'));
    if (typeof body.operator === 'string' && body.operator !== launch.operator)
      return this.#logged(req, refuse(403, 'launch_wrong_operator', `the token is not ${body.operator}'s`));
    if (launch.state === 'used') return this.#logged(req, refuse(409, 'launch_token_used', 'the launch token was used', { returnUrl: launch.returnUrl }));
    if (launch.state === 'expired') return this.#logged(req, refuse(410, 'launch_token_expired', 'the launch token expired', { returnUrl: launch.returnUrl }));
    const asPlay: FakeRequest = { ...req, body: { room: launch.room, playerKey: body.playerKey } };
    const answer = await super.handle(asPlay);
    // The log shows what the element sent (the launch), not the play create the fake made of it.
    this.log[this.log.lastIndexOf(asPlay)] = req;
    if (answer.status !== 201) return answer;
    launch.state = 'used';
    const created = answer.body as CreatedSession;
    const limits = defaultCurrencyLimits(launch.room, launch.currency);
    const digits = minorUnitDigits(launch.currency);
    if (!limits.ok || !digits.ok) throw new Error(`bad currency ${launch.currency}`);
    const view: WalletSessionView = {
      operator: launch.operator,
      currency: launch.currency,
      minorUnits: digits.value,
      lang: launch.lang,
      returnUrl: launch.returnUrl,
      playerLimits: launch.limits,
      played: { startedAt: new Date(this.now).toISOString(), wagered: 0, net: 0 },
      pendingPayments: [],
      realityCheck: null,
      ended: null,
    };
    this.wallets.set(created.sessionId, { limits: limits.value, view });
    const live = this.sessionOfToken(created.token);
    if (live) live.balance = launch.balance;
    return { status: 201, body: { ...created, balance: launch.balance, limits: limits.value, wallet: view } };
  }
}
