/**
 * The Worker's bindings and settings (wrangler.toml `[vars]`, secrets), and their parsing into
 * typed configuration. Vars are strings; a missing or malformed number falls back to the default
 * so that a typo in a var can never take the API down.
 */
import { DEFAULT_VOID_AFTER_SECONDS, type EngineError, type Result, VOID_AFTER_MAX } from '../../shared/index.ts';
import { type OperatorConfig, type OperatorConfigErrorCode, parseOperators } from '../../shared/wallet/operators.ts';
import type { Client } from '../session/client.ts';
import type { KeyStore } from '../keys/keys.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { Operator } from '../operator/operator.ts';
import type { Table } from '../session/table.ts';
import type { SharedTableRelay } from '../shared-table/relay.ts';
import type { SharedTable } from '../shared-table/shared-table.ts';

export interface Env {
  TABLES: DurableObjectNamespace<Table>;
  KEYS: DurableObjectNamespace<KeyStore>;
  CLIENTS: DurableObjectNamespace<Client>;
  /** The singleton ("ledger") that totals sessions, rounds and money per affiliate and room. */
  LEDGER: DurableObjectNamespace<Ledger>;
  /** One object per shared table, by table id ("hall-1/a"): its players, its round loop (shared-table/shared-table.ts). */
  SHARED_TABLES: DurableObjectNamespace<SharedTable>;
  /** The relays of the shared tables, by `<table id>@<n>` (shared-table/relay.ts): each holds up to RELAY_SOCKETS of the table's players' sockets. */
  SHARED_TABLE_RELAYS: DurableObjectNamespace<SharedTableRelay>;
  /** Wallet mode: one object per configured operator, by operator id: its nonces, launch tokens and sessions (operator/operator.ts). */
  OPERATORS: DurableObjectNamespace<Operator>;
  /** "true": browsers on localhost / 127.0.0.1 (any port) may call the API. */
  DEV?: string;
  /** JSON: affiliate id (or "*": everyone) → origins allowed to embed its tables (http/cors.ts). */
  EMBED_ORIGINS?: string;
  /** Older comma-separated origins allowed for everyone; the same as adding them to EMBED_ORIGINS["*"]. */
  ALLOWED_ORIGINS?: string;
  /** Secret: the bearer token of the operator's report (`GET /api/admin/affiliates`); unset, the report is off. */
  ADMIN_TOKEN?: string;
  /** Secret: JSON, affiliate id → HMAC key (32+ characters) its server mints `Affiliate-Token`s with (embed/attribution.ts). */
  AFFILIATE_KEYS?: string;
  /** Secret: the Ed25519 private key as a JWK JSON string (with d, x and kid). */
  SIGNING_KEY?: string;
  /** Secret or var: JSON of retired public keys, `[jwk, …]` or `{ "keys": [jwk, …] }`. */
  RETIRED_PUBLIC_KEYS?: string;
  /** The public randomness beacon's relay base URL (beacon.ts); empty or unset: the Worker's own local beacon. */
  BEACON_URL?: string;
  /** The relay's chain: "quicknet" (default) or the JSON of its /info. */
  BEACON_CHAIN?: string;
  /** Secret: the local beacon's BLS12-381 secret key, 64 hex characters (beacon/local.ts); unset in development: derived from the local signing key. */
  BEACON_SECRET_KEY?: string;
  RATE_SESSION_BURST?: string;
  RATE_SESSION_PER_SEC?: string;
  RATE_IP_BURST?: string;
  RATE_IP_PER_SEC?: string;
  RATE_CREATE_BURST?: string;
  RATE_CREATE_PER_SEC?: string;
  /** Milliseconds from a change to the push of its table's totals to the ledger (default 30000); rounds within it go as one push. */
  LEDGER_DELAY_MS?: string;
  /** Shared tables: the betting window at normal speed in ms (default 15000; fast tables: a third of it). */
  SHARED_WINDOW_MS?: string;
  /** Shared tables: how long past its due time a beacon round may come before the round is voided, in ms (default 10000). */
  SHARED_BEACON_LATE_MS?: string;
  /** Shared tables that exist by configuration, comma-separated ids (e.g. "hall-1/a,hall-1/blitz.fast"): a GET of one creates it. Any other id comes into being with its first seated player. */
  SHARED_TABLE_IDS?: string;
  /** Shared tables: sessions one client address (CF-Connecting-IP) may seat at one table at once (default 16). */
  SHARED_SEATS_PER_ADDRESS?: string;
  /** Tests only, never in production: the step of a round at which a shared table stops (shared-table/parts.ts `haltIfAsked`). */
  SHARED_TEST_HALT?: string;
  /** Tests only, never in production: a smaller round limit committed for new reshuffle shoes (shared-table/round.ts `reshuffleRoundLimit`; honoured only with DEV=true). */
  SHARED_TEST_ROUND_LIMIT?: string;
  /** Bench and tests only, never in production: the seats of every shared table instead of MAX_SEATS (shared-table.ts; honoured only with DEV=true). Bets a round stay at MAX_SEATS. */
  SHARED_TEST_SEATS?: string;
  /** Seconds an accepted round waits for the player's secret before it is voided (default 600, at most 86400); committed in every new shoe's params. */
  VOID_AFTER_SECONDS?: string;
  /** Wallet mode: JSON array of operators (shared/wallet/operators.ts): id, wallet URL, timeout, currencies and their rooms' limits. */
  OPERATOR_SETTINGS?: string;
  /** Secret: JSON, operator id → { "provider": secret signing our wallet calls, "operator": secret of its launches, calls and answers }. */
  OPERATOR_SECRETS?: string;
}

declare global {
  // Lets `import { env } from 'cloudflare:workers'` (used by the tests) see our bindings.

  namespace Cloudflare {
    interface Env extends WorkerEnv {}
    interface GlobalProps {
      mainModule: typeof import('../index.ts');
      durableNamespaces: 'Table' | 'KeyStore' | 'Client' | 'Ledger' | 'SharedTable' | 'Operator';
    }
  }
}
type WorkerEnv = Env;

/** A token bucket's shape: `burst` tokens at most, refilled at `perSecond`. */
export interface RateSpec {
  burst: number;
  perSecond: number;
}

export interface RateLimits {
  /** Every request on one table session. */
  session: RateSpec;
  /** Every API request from one client address (per isolate). */
  ip: RateSpec;
  /** Session creation from one client address. */
  create: RateSpec;
}

export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = {
  session: { burst: 300, perSecond: 30 },
  ip: { burst: 3000, perSecond: 1000 },
  create: { burst: 200, perSecond: 2 },
};

function positive(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function rateLimits(env: Env): RateLimits {
  const d = DEFAULT_RATE_LIMITS;
  return {
    session: { burst: positive(env.RATE_SESSION_BURST, d.session.burst), perSecond: positive(env.RATE_SESSION_PER_SEC, d.session.perSecond) },
    ip: { burst: positive(env.RATE_IP_BURST, d.ip.burst), perSecond: positive(env.RATE_IP_PER_SEC, d.ip.perSecond) },
    create: { burst: positive(env.RATE_CREATE_BURST, d.create.burst), perSecond: positive(env.RATE_CREATE_PER_SEC, d.create.perSecond) },
  };
}

/** Default of `LEDGER_DELAY_MS`: the report lags the tables by up to 30 seconds. */
export const DEFAULT_LEDGER_DELAY_MS = 30_000;

/**
 * How long after the first change the ledger lacks a table sends its totals. Each push costs two
 * Durable Object requests (the alarm, the ledger's `record`) and two rows written (the ledger's
 * row of the session, the alarm's `setAlarm`) and carries every round played meanwhile: at a
 * round every 3 seconds, the default makes one push per ~10 rounds (DEPLOY.md "What a round costs").
 */
export function ledgerDelayMs(env: Env): number {
  return positive(env.LEDGER_DELAY_MS, DEFAULT_LEDGER_DELAY_MS);
}

/** Shared tables' timing (shared-table/settings.ts): the betting windows and the beacon's grace. */
export function sharedTiming(env: Env): { windowMs: { normal: number; fast: number }; beaconLateMs: number } {
  const normal = Math.max(100, positive(env.SHARED_WINDOW_MS, 15_000));
  return { windowMs: { normal, fast: Math.max(100, Math.round(normal / 3)) }, beaconLateMs: positive(env.SHARED_BEACON_LATE_MS, 10_000) };
}

/** The shared tables that exist by configuration (`SHARED_TABLE_IDS`). */
export function configuredTables(env: Env): ReadonlySet<string> {
  return new Set(
    (env.SHARED_TABLE_IDS ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== ''),
  );
}

/** `SHARED_SEATS_PER_ADDRESS`: seats one client address may hold at one shared table (default 16). */
export function seatsPerAddress(env: Env): number {
  return Math.floor(positive(env.SHARED_SEATS_PER_ADDRESS, 16));
}

/** `VOID_AFTER_SECONDS`, within the range pb-fair-2 allows (FAIRNESS.md §B3). */
export function voidAfterSeconds(env: Env): number {
  return Math.min(VOID_AFTER_MAX, Math.max(1, Math.floor(positive(env.VOID_AFTER_SECONDS, DEFAULT_VOID_AFTER_SECONDS))));
}

/**
 * The configured operators (wallet mode), parsed once per settings text: a malformed setting is an
 * error value naming it (answered `503 misconfigured` on the operator routes), never a throw.
 */
export function operators(env: Env): Result<Map<string, OperatorConfig>, EngineError<OperatorConfigErrorCode>> {
  const key = `${env.OPERATOR_SETTINGS ?? ''}\u0000${env.OPERATOR_SECRETS ?? ''}`;
  if (parsedOperators?.key !== key) parsedOperators = { key, result: parseOperators(env.OPERATOR_SETTINGS, env.OPERATOR_SECRETS) };
  return parsedOperators.result;
}
let parsedOperators: { key: string; result: ReturnType<typeof parseOperators> } | undefined;

export function isDev(env: Env): boolean {
  return (env.DEV ?? '').trim().toLowerCase() === 'true';
}
