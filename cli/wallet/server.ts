/**
 * The reference operator wallet over HTTP (WALLET.md): `POST /<call>` for balance, debit, credit
 * and rollback, each request's signature checked (provider → operator secret) and each answer
 * signed (operator → provider secret, echoing the request's nonce). For tests and the demo
 * (development only: no signature): `GET /players/:playerId` shows a player, and
 * `PUT /players/:playerId` with `{ currency, balance?, status? }` opens or changes one.
 *
 * Fault injection, drawn per call from one seeded generator in a fixed order (latency, fail,
 * timeout, duplicate), so a seed replays the same faults for the same sequence of calls:
 * - latency: a wait drawn uniformly from A..B ms before the call is handled;
 * - fail: HTTP 500 and the call NOT applied;
 * - timeout: the call IS applied and no answer is ever sent (the connection stays open until the
 *   caller gives up);
 * - duplicate: the call is applied and answered as if it had come twice (`duplicate` with the
 *   original answer).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededPrng } from '../../shared/prng.ts';
import { answerStatus, parseWalletCall, type WalletAnswer } from '../../shared/wallet/calls.ts';
import { NONCE_PATTERN, SIGNATURE_WINDOW_SECONDS, signWalletMessage, verifyWalletMessage, header } from '../../shared/wallet/sign.ts';
import { isCurrency } from '../../shared/wallet/currency.ts';
import { PLAYER_STATUSES, type PlayerStatus, type WalletLedger } from './ledger.ts';

export interface Faults {
  latencyMs: readonly [number, number];
  failRate: number;
  timeoutRate: number;
  duplicateRate: number;
  seed: string;
}

export const NO_FAULTS: Faults = { latencyMs: [0, 0], failRate: 0, timeoutRate: 0, duplicateRate: 0, seed: '0' };

export interface WalletServerOptions {
  ledger: WalletLedger;
  /** Checks requests (provider → operator). */
  providerSecret: string;
  /** Signs answers (operator → provider). */
  operatorSecret: string;
  faults: Faults;
  /** The clock, Unix ms (tests may move it). */
  now?: () => number;
}

export interface RunningWallet {
  server: Server;
  url: string;
  /** Stops listening and drops every open connection (held timeouts included). */
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function walletHandler(options: WalletServerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { ledger, faults } = options;
  const now = options.now ?? Date.now;
  const random = seededPrng(faults.seed);
  // A uniform draw in [0, 1) with 32 bits; always drawn, so the sequence does not depend on the rates.
  const draw = () => random.nextUint32() / 2 ** 32;

  async function send(res: ServerResponse, path: string, nonce: string, answer: WalletAnswer): Promise<void> {
    const body = JSON.stringify(answer);
    const headers = await signWalletMessage(options.operatorSecret, {
      direction: 'answer',
      method: 'POST',
      path,
      timestamp: Math.floor(now() / 1000),
      nonce,
      body,
    });
    res.writeHead(answerStatus(answer), { 'content-type': 'application/json', ...headers });
    res.end(body);
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://wallet');
    const player = /^\/players\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && player) {
      const view = ledger.player(decodeURIComponent(player[1]!));
      // Readable from any page (the demo's real-wallet switch shows it): development only, like the route.
      res.writeHead(view ? 200 : 404, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(JSON.stringify(view ?? { error: 'unknown_player', message: 'this wallet never saw that player' }));
      return;
    }
    if (req.method === 'PUT' && player) {
      const fields = playerFields((await readBody(req))?.toString('utf8'));
      const status = typeof fields === 'string' ? 400 : 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(typeof fields === 'string' ? { error: 'bad_request', message: fields } : ledger.setPlayer(decodeURIComponent(player[1]!), fields)),
      );
      return;
    }
    const call = /^\/(balance|debit|credit|rollback)$/.exec(url.pathname)?.[1];
    if (req.method !== 'POST' || call === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'not_found', message: 'POST /balance, /debit, /credit, /rollback; GET or PUT /players/:playerId' }));
      return;
    }
    const body = await readBody(req);
    const latency = faults.latencyMs[0] + draw() * (faults.latencyMs[1] - faults.latencyMs[0]);
    const failing = draw() < faults.failRate;
    const timingOut = draw() < faults.timeoutRate;
    const duplicating = draw() < faults.duplicateRate;
    if (latency > 0) await sleep(latency);
    const given = header(req.headers, 'PB-Nonce');
    // An answer echoes the request's nonce; a request without a usable one gets a fresh one (which its sender will refuse, rightly).
    const echo = given !== undefined && NONCE_PATTERN.test(given) ? given : randomBytes(16).toString('hex');
    if (body === undefined) return send(res, url.pathname, echo, { status: 'refused', code: 'bad_request', message: `a body is at most ${MAX_BODY} bytes` });
    const seconds = Math.floor(now() / 1000);
    const verified = await verifyWalletMessage({
      secret: options.providerSecret,
      direction: 'request',
      method: 'POST',
      path: url.pathname,
      headers: req.headers,
      body,
      now: seconds,
      nonceRefused: (n) => !ledger.acceptNonce(n, seconds, 2 * SIGNATURE_WINDOW_SECONDS),
    });
    if (!verified.ok) return send(res, url.pathname, echo, { status: 'refused', code: 'bad_signature', message: verified.error.message });
    const parsed = parseWalletCall(call, body.toString('utf8'));
    if (!parsed.ok) return send(res, url.pathname, echo, { status: 'refused', code: 'bad_request', message: parsed.error.message });
    if (failing) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'injected_failure', message: 'a fault injected by --fail-rate: nothing was applied' }));
      return;
    }
    const answer = ledger.apply(parsed.value, duplicating);
    if (timingOut) return; // applied; the answer never comes
    return send(res, url.pathname, echo, answer);
  };
}

/** The body of `PUT /players/:id`: the fields, or what is wrong with them. */
function playerFields(body: string | undefined): { currency: string; balance?: number; status?: PlayerStatus } | string {
  let value: unknown;
  try {
    value = JSON.parse(body ?? '');
  } catch {
    return 'the body must be JSON: { "currency": "EUR", "balance": 5000, "status": "active" | "blocked" | "limit_reached" }';
  }
  if (typeof value !== 'object' || value === null) return 'the body must be a JSON object';
  const r = value as Record<string, unknown>;
  const extra = Object.keys(r).find((k) => !['currency', 'balance', 'status'].includes(k));
  if (extra !== undefined) return `unknown field "${extra}"`;
  if (!isCurrency(r.currency)) return '"currency" must be an active ISO 4217 code';
  if ('balance' in r && !(typeof r.balance === 'number' && Number.isSafeInteger(r.balance) && r.balance >= 0)) return '"balance" must be whole minor units ≥ 0';
  if ('status' in r && !(PLAYER_STATUSES as readonly unknown[]).includes(r.status)) return '"status" must be "active", "blocked" or "limit_reached"';
  return r as { currency: string; balance?: number; status?: PlayerStatus };
}

/** Starts the wallet on host:port (port 0: a free one). */
export async function startWalletServer(options: WalletServerOptions, port: number, host = '127.0.0.1'): Promise<RunningWallet> {
  const handle = walletHandler(options);
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'internal', message: String(err) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
