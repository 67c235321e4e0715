/**
 * The Worker's own beacon, for when no relay is configured (`BEACON_URL` empty: local development,
 * tests). It serves rounds exactly as a drand relay does, signed by a local BLS key on quicknet's
 * schedule (round 1 at quicknet's genesis, one every 3 s), so that the beacon client
 * (beacon.ts) takes the same HTTP path and the same verification as in production:
 *
 *   GET /api/beacon/chains                     → ["<chain hash>"]
 *   GET /api/beacon/<chain hash>/info          → { hash, schemeID, public_key, period, genesis_time }
 *   GET /api/beacon/<chain hash>/public/latest → { round, randomness, signature }
 *   GET /api/beacon/<chain hash>/public/<round> → the same, or 425 Too Early for a round not yet due
 *
 * The key: the `BEACON_SECRET_KEY` secret (64 hex characters) if set; otherwise, in zero-config
 * development (no `SIGNING_KEY` either), one derived with HKDF-SHA256 from the local signing key that
 * the KeyStore Durable Object generated and keeps (keys/keys.ts), so it survives restarts with it. With
 * `SIGNING_KEY` set and neither `BEACON_URL` nor `BEACON_SECRET_KEY`, there is no beacon (a
 * production Worker must use a public one: DEPLOY.md "Public randomness beacon").
 *
 * Whoever holds this key knows every future round: it is a stand-in, not a public beacon.
 */
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { Hono } from 'hono';
import { type BeaconRound, chainInfo, QUICKNET, roundAt, timeOfRound } from '../../shared/beacon.ts';
import { beaconSecretKeyFromSeed, type LocalBeacon, localBeacon, parseBeaconSecretKey, signRound } from '../../shared/beacon-local.ts';
import { type EngineError, type Result } from '../../shared/errors.ts';
import { base64urlToBytes } from '../../shared/fairness/common/encoding.ts';
import type { Env } from '../config/env.ts';
import { KEYSTORE_NAME } from '../keys/keys.ts';

/** Where the Worker serves its own beacon: the base URL of a relay. */
export const LOCAL_BEACON_PATH = '/api/beacon';

/** Quicknet's schedule: rounds are due at the same times as in production, only signed by another key. */
export const LOCAL_BEACON_SCHEDULE = { periodSeconds: QUICKNET.periodSeconds, genesisTime: QUICKNET.genesisTime };

/** HKDF info of the development key's derivation: the beacon key is never the signing key itself. */
const DERIVATION_INFO = 'punto-banco local beacon key v1';

/** Why there is no local beacon, and the setting to fix. */
export type SignerFailure = EngineError<'beacon_misconfigured'> & { setting: 'BEACON_URL' | 'BEACON_SECRET_KEY' };

function misconfigured(setting: SignerFailure['setting'], message: string): { ok: false; error: SignerFailure } {
  return { ok: false, error: { code: 'beacon_misconfigured', message, setting } };
}

let cached: { source: string; signer: Promise<Result<LocalBeacon, SignerFailure>> } | null = null;

/** The local beacon's signer, set up once per isolate (and again if its configuration changes). */
export function localBeaconSigner(env: Env): Promise<Result<LocalBeacon, SignerFailure>> {
  const secret = env.BEACON_SECRET_KEY?.trim() ?? '';
  const source = secret !== '' ? `secret:${secret}` : env.SIGNING_KEY !== undefined ? '(production)' : '(dev)';
  if (cached?.source !== source) {
    const signer = loadSigner(env, secret);
    cached = { source, signer };
    // A passing fault (the KeyStore unreachable) is retried on the next call.
    signer.catch(() => {
      if (cached?.signer === signer) cached = null;
    });
  }
  return cached.signer;
}

async function loadSigner(env: Env, secret: string): Promise<Result<LocalBeacon, SignerFailure>> {
  let secretKey: Uint8Array;
  if (secret !== '') {
    const parsed = parseBeaconSecretKey(secret);
    if (!parsed) return misconfigured('BEACON_SECRET_KEY', 'BEACON_SECRET_KEY must be 64 lowercase hex characters: a BLS12-381 secret key (DEPLOY.md)');
    secretKey = parsed;
  } else if (env.SIGNING_KEY !== undefined) {
    return misconfigured(
      'BEACON_URL',
      'no beacon: set BEACON_URL to a drand relay (DEPLOY.md "Public randomness beacon"), or BEACON_SECRET_KEY to serve a local one',
    );
  } else {
    const devJwk = await env.KEYS.getByName(KEYSTORE_NAME).devKey();
    const d = base64urlToBytes(devJwk.d ?? '');
    if (!d || d.length !== 32) throw new Error('the local signing key has no 32-byte private part');
    secretKey = beaconSecretKeyFromSeed(hkdf(sha256, d, undefined, utf8ToBytes(DERIVATION_INFO), 48));
  }
  const beacon = localBeacon(secretKey, LOCAL_BEACON_SCHEDULE);
  return beacon.ok ? beacon : misconfigured('BEACON_SECRET_KEY', beacon.error.message);
}

// ---- the relay's answers ----------------------------------------------------------------------------

export interface BeaconAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Signed rounds, kept per isolate: signing costs a hash to G1 and a scalar multiplication. */
const signed = new Map<string, BeaconRound>();

function signedRound(beacon: LocalBeacon, round: number): BeaconRound {
  const key = `${beacon.chain.hash}:${round}`;
  let served = signed.get(key);
  if (!served) {
    served = signRound(beacon, round);
    if (signed.size >= 256) signed.delete(signed.keys().next().value!);
    signed.set(key, served);
  }
  return served;
}

const ROUND = /^[1-9][0-9]{0,14}$/;

function refusal(status: number, code: string, message: string, headers?: Record<string, string>): BeaconAnswer {
  return { status, body: { error: { code, message } }, ...(headers ? { headers } : {}) };
}

/**
 * What the local relay answers for `<chain hash>/public/<round | "latest">` at `nowMs`: a round is
 * served from its publication time on; before, 425 Too Early with Retry-After (whole seconds).
 */
export function publicRoundAnswer(beacon: LocalBeacon, hash: string, which: string, nowMs: number): BeaconAnswer {
  if (hash !== beacon.chain.hash) return refusal(404, 'not_found', `this beacon serves only chain ${beacon.chain.hash}`);
  const latest = roundAt(beacon.chain, nowMs);
  if (which === 'latest') {
    return latest === 0 ? refusal(425, 'too_early', 'no round is published yet') : { status: 200, body: signedRound(beacon, latest) };
  }
  if (!ROUND.test(which)) return refusal(404, 'not_found', `there is no round "${which}": rounds are 1, 2, …`);
  const round = Number(which);
  if (round > latest) {
    const wait = Math.max(1, Math.ceil((timeOfRound(beacon.chain, round) - nowMs) / 1000));
    return refusal(425, 'too_early', `round ${round} is not published yet: it is due at ${new Date(timeOfRound(beacon.chain, round)).toISOString()}`, {
      'Retry-After': String(wait),
    });
  }
  return { status: 200, body: signedRound(beacon, round) };
}

function respond(a: BeaconAnswer): Response {
  return Response.json(a.body, { status: a.status, headers: a.headers });
}

/** The local relay's routes, mounted at LOCAL_BEACON_PATH; off (404) while BEACON_URL names a relay. */
export const localBeaconRoutes = new Hono<{ Bindings: Env; Variables: { beacon: LocalBeacon } }>();

localBeaconRoutes.use('*', async (c, next) => {
  if ((c.env.BEACON_URL?.trim() ?? '') !== '') {
    return respond(refusal(404, 'not_found', "this Worker's own beacon is off: it uses the relay named by BEACON_URL"));
  }
  const signer = await localBeaconSigner(c.env);
  if (!signer.ok) return respond(refusal(404, 'not_found', signer.error.message));
  c.set('beacon', signer.value);
  await next();
});

localBeaconRoutes.get('/chains', (c) => respond({ status: 200, body: [c.get('beacon').chain.hash] }));

localBeaconRoutes.get('/:hash/info', (c) => {
  const { chain } = c.get('beacon');
  if (c.req.param('hash') !== chain.hash) return respond(refusal(404, 'not_found', `this beacon serves only chain ${chain.hash}`));
  return respond({ status: 200, body: chainInfo(chain) });
});

localBeaconRoutes.get('/:hash/public/:which', (c) => respond(publicRoundAnswer(c.get('beacon'), c.req.param('hash'), c.req.param('which'), Date.now())));
