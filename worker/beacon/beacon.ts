/**
 * The Worker's beacon client: fetches one round of the public randomness beacon from a drand
 * relay, `GET <BEACON_URL>/<chain hash>/public/<round>` → `{ round, randomness, signature }`, and
 * never trusts the relay: the answer must be the round asked for, its signature must verify under
 * the configured chain's public key, and its randomness must be SHA-256 of the signature
 * (shared/beacon.ts; the pairing check in WebAssembly, mcl-module.ts). Verified rounds are kept in
 * memory: each round is fetched and verified once per isolate, however many tables and players need it.
 *
 * Configuration (wrangler.toml [vars], API.md "Public randomness beacon"):
 * - `BEACON_URL`: the relay's base URL (e.g. a drand HTTP relay); empty or unset: the Worker's own
 *   local beacon at `/api/beacon` (local.ts), reached by the same HTTP requests through the
 *   Worker's own fetch handler (its loopback, `exports.default`: no network, no self-fetch limits);
 * - `BEACON_CHAIN`: `quicknet` (the default) or the JSON of the chain's `/info`
 *   `{ hash, schemeID, public_key, period, genesis_time }`; the local beacon ignores it (it has its own chain).
 */
import { type BeaconChain, type BeaconRound, isRound, parseChainInfo, QUICKNET, useBeaconSignatureCheck, verifyBeacon } from '../../shared/beacon.ts';
import { exports } from 'cloudflare:workers';
import { fail, ok, type EngineError, type Result } from '../../shared/errors.ts';
import { localBeaconSigner, LOCAL_BEACON_PATH } from './local.ts';
import { workerSignatureCheck } from './mcl-module.ts';
import type { Env } from '../config/env.ts';

// Every `verifyBeacon` of this isolate (this client's, and the deal's in shared/fairness) checks
// signatures with mcl in WebAssembly, the JavaScript check as its fallback (mcl-module.ts).
useBeaconSignatureCheck(workerSignatureCheck);

export type BeaconFailureCode =
  /** No answer in time, a network fault, or an error status (e.g. 425/404: the round is not published yet). */
  | 'beacon_unavailable'
  /** An answer that is not the chain's signed round: wrong round, bad signature, mismatched randomness, malformed JSON. */
  | 'beacon_invalid'
  /** BEACON_URL, BEACON_CHAIN or BEACON_SECRET_KEY is malformed, or no beacon can be served. */
  | 'beacon_misconfigured';

export interface BeaconFailure extends EngineError<BeaconFailureCode> {
  /** The relay's HTTP status, when it answered with an error. */
  status?: number;
  /** The round is not published yet (the relay answered 425 or 404): ask again later. */
  notYetPublished?: boolean;
  /** For `beacon_misconfigured`: the setting to fix. */
  setting?: 'BEACON_URL' | 'BEACON_CHAIN' | 'BEACON_SECRET_KEY';
  /** For `beacon_invalid`: what verification found (shared/beacon.ts `BeaconErrorCode`), or `wrong_round` / `bad_json`. */
  reason?: string;
}

/** Where rounds come from and which chain must have signed them. */
export interface BeaconSource {
  /** The relay's base URL, no trailing slash: rounds are at `<baseUrl>/<chain.hash>/public/<round>`. */
  baseUrl: string;
  chain: BeaconChain;
  /** How to reach it, when not by the global `fetch` (the local beacon: the Worker's own handler). */
  fetch?: Fetcher;
}

export type Fetcher = (request: Request) => Promise<Response>;

export interface FetchOptions {
  /** The HTTP client, instead of the source's (tests play relays with it). */
  fetch?: Fetcher;
  /** How long to wait for the relay, in ms. */
  timeoutMs?: number;
  /** Where verified rounds are kept: this isolate's memory by default. */
  cache?: VerifiedRounds;
}

/** A relay normally answers within a second; past this the round is treated as unavailable (retried later). */
export const BEACON_TIMEOUT_MS = 5_000;

/** The Worker's own fetch handler, called in-process with a real Request: how the local beacon is reached. */
const loopback: Fetcher = (request) => exports.default.fetch(request);

/**
 * The configured source. Without `BEACON_URL`, the local beacon: `origin` (the Worker's own, e.g.
 * the request's) only names its URL, since the request goes through the Worker's own handler.
 */
export async function beaconSource(env: Env, origin = 'http://localhost'): Promise<Result<BeaconSource, BeaconFailure>> {
  const url = env.BEACON_URL?.trim() ?? '';
  if (url === '') {
    const signer = await localBeaconSigner(env);
    if (!signer.ok) return signer;
    return ok({ baseUrl: `${origin.replace(/\/+$/, '')}${LOCAL_BEACON_PATH}`, chain: signer.value.chain, fetch: loopback });
  }
  if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(url)) {
    return misconfiguredBeacon('BEACON_URL', `BEACON_URL must be a relay's http(s) base URL, e.g. "https://api.drand.sh", got "${url}"`);
  }
  const chain = configuredChain(env.BEACON_CHAIN);
  if (!chain.ok) return chain;
  return ok({ baseUrl: url.replace(/\/+$/, ''), chain: chain.value });
}

/** `BEACON_CHAIN`: unset, empty or "quicknet" → QUICKNET; else the JSON of the chain's /info. */
export function configuredChain(raw: string | undefined): Result<BeaconChain, BeaconFailure> {
  const text = raw?.trim() ?? '';
  if (text === '' || text.toLowerCase() === 'quicknet') return ok(QUICKNET);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return misconfiguredBeacon('BEACON_CHAIN', 'BEACON_CHAIN must be "quicknet" or the JSON of the chain\'s /info');
  }
  const chain = parseChainInfo(json);
  return chain.ok ? chain : misconfiguredBeacon('BEACON_CHAIN', `BEACON_CHAIN: ${chain.error.message}`);
}

/** A `beacon_misconfigured` failure naming the setting to fix. */
export function misconfiguredBeacon(setting: NonNullable<BeaconFailure['setting']>, message: string): { ok: false; error: BeaconFailure } {
  return { ok: false, error: { code: 'beacon_misconfigured', message, setting } };
}

/**
 * Verified rounds by public key and round (a signature valid under the key is valid whichever relay
 * served it), and the fetches under way, so that concurrent callers share one fetch. Only verified
 * rounds are kept: a failure is asked again next time.
 */
export class VerifiedRounds {
  readonly #rounds = new Map<string, BeaconRound>();
  readonly #pending = new Map<string, Promise<Result<BeaconRound, BeaconFailure>>>();
  readonly #max: number;

  constructor(max = 1024) {
    this.#max = max;
  }

  get size(): number {
    return this.#rounds.size;
  }

  /** The verified round from memory, or the one fetch that gets it. */
  through(chain: BeaconChain, round: number, get: () => Promise<Result<BeaconRound, BeaconFailure>>): Promise<Result<BeaconRound, BeaconFailure>> {
    const key = `${chain.publicKey}:${round}`;
    const known = this.#rounds.get(key);
    if (known) return Promise.resolve(ok(known));
    const under = this.#pending.get(key);
    if (under) return under;
    const fetched = get().then((result) => {
      this.#pending.delete(key);
      if (result.ok) {
        if (this.#rounds.size >= this.#max) this.#rounds.delete(this.#rounds.keys().next().value!);
        this.#rounds.set(key, result.value);
      }
      return result;
    });
    this.#pending.set(key, fetched);
    return fetched;
  }
}

/** This isolate's verified rounds: each round is verified once, for every table that needs it. */
const isolateRounds = new VerifiedRounds();

/** One round of the source's chain, verified; from memory when it has been verified before. */
export function fetchBeacon(source: BeaconSource, round: number, options: FetchOptions = {}): Promise<Result<BeaconRound, BeaconFailure>> {
  if (!isRound(round)) return Promise.resolve(fail('beacon_invalid', `a beacon round is a positive integer, got ${round}`));
  return (options.cache ?? isolateRounds).through(source.chain, round, () => fetchAndVerify(source, round, options));
}

async function fetchAndVerify(source: BeaconSource, round: number, options: FetchOptions): Promise<Result<BeaconRound, BeaconFailure>> {
  const url = `${source.baseUrl}/${source.chain.hash}/public/${round}`;
  const got = await getWithTimeout(url, options.fetch ?? source.fetch ?? ((request) => fetch(request)), options.timeoutMs ?? BEACON_TIMEOUT_MS);
  if (!got.ok) return got;
  const res = got.value;
  if (!res.ok) {
    const notYetPublished = res.status === 425 || res.status === 404;
    await res.body?.cancel();
    return {
      ok: false,
      error: {
        code: 'beacon_unavailable',
        message: notYetPublished
          ? `round ${round} is not published yet (the relay answered ${res.status})`
          : `the beacon relay answered ${res.status} for round ${round}`,
        status: res.status,
        notYetPublished,
      },
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(await res.text());
  } catch {
    return invalid('bad_json', `the beacon relay's answer for round ${round} is not JSON`);
  }
  const served = body as Partial<Record<keyof BeaconRound, unknown>> | null;
  if (typeof served !== 'object' || served === null || typeof served.signature !== 'string' || typeof served.randomness !== 'string') {
    return invalid('bad_json', `the beacon relay's answer for round ${round} is not { round, randomness, signature }`);
  }
  if (served.round !== round) return invalid('wrong_round', `asked the beacon relay for round ${round}, it answered round ${String(served.round)}`);
  const checked = verifyBeacon(source.chain, { round, signature: served.signature, randomness: served.randomness });
  return checked.ok ? checked : invalid(checked.error.code, `the beacon relay's round ${round} was refused: ${checked.error.message}`);
}

function invalid(reason: string, message: string): { ok: false; error: BeaconFailure } {
  return { ok: false, error: { code: 'beacon_invalid', message, reason } };
}

/** One GET; an answer after `timeoutMs` (or none) is unavailable, whether or not the fetcher honours the abort. */
async function getWithTimeout(url: string, fetcher: Fetcher, timeoutMs: number): Promise<Result<Response, BeaconFailure>> {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve('timeout');
    }, timeoutMs);
  });
  try {
    const request = new Request(url, { headers: { Accept: 'application/json' }, signal: abort.signal });
    const res = await Promise.race([fetcher(request), timeout]);
    if (res === 'timeout') return fail('beacon_unavailable', `the beacon relay did not answer within ${timeoutMs} ms (${url})`);
    return ok(res);
  } catch (err) {
    return fail('beacon_unavailable', `the beacon relay could not be reached (${url}): ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
