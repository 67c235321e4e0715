/**
 * Helpers of the operator tests (operator-*.test.ts): operator-signed calls (WALLET.md
 * "Signatures"), launches and their redemption, against the operators of vitest.config.ts: the
 * development operator "demo" (its wallet: the reference wallet on a free port) and "other-casino".
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { type Bet, generateSigningKey, playerKeyOf, type SigningKey } from '../../shared/index.ts';
import { type LaunchRequest, signLaunchRequest } from '../../shared/wallet/launch.ts';
import { signWalletMessage } from '../../shared/wallet/sign.ts';
import type { Operator } from '../../worker/operator/operator.ts';
import { api, type Reply, type Session } from './helpers.ts';

export const DEMO = { id: 'demo', secret: 'dev-demo-secret' };
export const OTHER = { id: 'other-casino', secret: 'other-casino-operator-secret' };

export function freshNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function launchOf(over: Partial<LaunchRequest> = {}): LaunchRequest {
  return { playerId: 'alice', currency: 'EUR', lang: 'en', room: 'hall-1', limits: {}, returnUrl: 'https://casino.example/lobby', ...over };
}

export interface SignOptions {
  operator?: { id: string; secret: string };
  /** Sign with this secret instead of the operator's (a forgery). */
  secret?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  nonce?: string;
  /** Leave the signature headers out. */
  unsigned?: boolean;
}

/** A signed launch, as an operator's back end sends it. */
export async function launch(request: LaunchRequest = launchOf(), opts: SignOptions = {}): Promise<Reply> {
  const operator = opts.operator ?? DEMO;
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const signed = await signLaunchRequest(operator.id, opts.secret ?? operator.secret, request, timestamp * 1000, opts.nonce ?? freshNonce());
  return api('POST', '/api/operator/launch', { raw: signed.body, key: null, headers: signed.headers });
}

/** An operator call signed over its method, path with query and body (a GET: the empty body). */
export async function operatorCall(method: 'GET' | 'POST', path: string, body = '', opts: SignOptions = {}): Promise<Reply> {
  const operator = opts.operator ?? DEMO;
  const signed = opts.unsigned
    ? {}
    : await signWalletMessage(opts.secret ?? operator.secret, {
        direction: 'request',
        method,
        path,
        timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
        nonce: opts.nonce ?? freshNonce(),
        body,
      });
  return api(method, path, {
    raw: body === '' ? undefined : body,
    key: null,
    headers: { ...signed, 'PB-Operator': operator.id, 'content-type': 'application/json' },
  });
}

/** The player's redemption of a launch token: `POST /api/sessions` with `launchToken`. */
export async function redeem(token: string, opts: { key?: string; operator?: string; player?: SigningKey } = {}): Promise<Reply> {
  const player = opts.player ?? (await generateSigningKey()).key;
  const body = { launchToken: token, playerKey: playerKeyOf(player), ...(opts.operator === undefined ? {} : { operator: opts.operator }) };
  return api('POST', '/api/sessions', { body, key: opts.key });
}

/** A launched player's session, ready for the helpers of helpers.ts (bet, play…). */
export async function launchedSession(request: LaunchRequest = launchOf()): Promise<Session> {
  const launched = await launch(request);
  if (launched.status !== 201) throw new Error(`launch failed: ${launched.status} ${launched.text}`);
  const player = (await generateSigningKey()).key;
  const r = await redeem(launched.body.token, { player });
  if (r.status !== 201) throw new Error(`redemption failed: ${r.status} ${r.text}`);
  return { id: r.body.sessionId, token: r.body.token, limits: r.body.limits, created: r.body, player, secrets: new Map(), next: null };
}

/** Runs `fn` with the operator's object's clock moved by `offsetMs`, then puts it back. */
export async function withOperatorClock(operatorId: string, offsetMs: number, fn: () => Promise<void>): Promise<void> {
  const stub = env.OPERATORS.getByName(operatorId);
  await runInDurableObject(stub, (o: Operator) => {
    o.clock = () => Date.now() + offsetMs;
  });
  try {
    await fn();
  } finally {
    await runInDurableObject(stub, (o: Operator) => {
      o.clock = () => Date.now();
    });
  }
}

/** The smallest legal bet of these limits on Punto in sector 1. */
export function minimumBet(limits: { min: number }): Bet[] {
  return [{ sector: 1, box: 'player', amount: limits.min }] as Bet[];
}
