/**
 * The public randomness beacon inside workerd: the Worker's own local beacon (served while
 * BEACON_URL is empty, as in wrangler.toml) and the client that fetches rounds over HTTP and never
 * trusts the relay. Quicknet's real rounds 1000 and 657413 play a relay's honest answers.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { describe, expect, test } from 'vitest';
import { BEACON_DST, type BeaconChain, type BeaconRound, beaconMessage, chainInfo, QUICKNET, roundAt, verifyBeacon } from '../../shared/beacon.ts';
import { localChainHash } from '../../shared/beacon-local.ts';
import { type BeaconSource, beaconSource, configuredChain, type Fetcher, fetchBeacon, VerifiedRounds } from '../../worker/beacon/beacon.ts';
import { LOCAL_BEACON_SCHEDULE } from '../../worker/beacon/local.ts';
import worker from '../../worker/index.ts';
import { R1000, R657413 } from './beacon-vectors.ts';
import { api, BASE, CLIENT_IP } from './helpers.ts';

/** The Worker's own handler as the HTTP client: requests to BASE reach the local beacon route. */
const selfFetch: Fetcher = (request) => {
  const headers = new Headers(request.headers);
  headers.set('CF-Connecting-IP', CLIENT_IP);
  return exports.default.fetch(new Request(request, { headers }));
};

async function localSource(): Promise<BeaconSource> {
  const source = await beaconSource(env, BASE);
  if (!source.ok) throw new Error(source.error.message);
  return source.value;
}

/** A relay that answers every request with `reply`, and records the URLs asked. */
function relay(reply: (url: string) => Response | Promise<Response>): { fetch: Fetcher; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: async (request) => {
      urls.push(request.url);
      return reply(request.url);
    },
  };
}

const QUICKNET_RELAY: BeaconSource = { baseUrl: 'https://relay.test', chain: QUICKNET };

describe("the Worker's local beacon", () => {
  test('serves its chain like a drand relay, and its rounds verify under that chain', async () => {
    const chains = await api<string[]>('GET', '/api/beacon/chains');
    expect(chains.status).toBe(200);
    const [hash] = chains.body;
    const info = await api('GET', `/api/beacon/${hash}/info`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ hash, schemeID: 'bls-unchained-g1-rfc9380', period: 3, genesis_time: QUICKNET.genesisTime });
    const chain: BeaconChain = { hash: hash!, scheme: 'bls-unchained-g1-rfc9380', publicKey: info.body.public_key, ...LOCAL_BEACON_SCHEDULE };
    expect(chain.hash).toBe(localChainHash(chain.publicKey, LOCAL_BEACON_SCHEDULE));
    expect(chain.publicKey).not.toBe(QUICKNET.publicKey);

    const latest = await api<BeaconRound>('GET', `/api/beacon/${hash}/public/latest`);
    expect(latest.status).toBe(200);
    expect(latest.body.round).toBeGreaterThan(1);
    expect(verifyBeacon(chain, latest.body)).toEqual({ ok: true, value: latest.body });
    const earlier = await api<BeaconRound>('GET', `/api/beacon/${hash}/public/${latest.body.round - 1}`);
    expect(earlier.status).toBe(200);
    expect(verifyBeacon(chain, earlier.body)).toEqual({ ok: true, value: earlier.body });
    // Another round of the same chain is another signature; quicknet's key refuses it.
    expect(earlier.body.signature).not.toBe(latest.body.signature);
    expect(verifyBeacon(QUICKNET, latest.body)).toMatchObject({ ok: false, error: { code: 'bad_beacon_signature' } });
    // The same round twice is the same answer (signing is deterministic).
    expect((await api('GET', `/api/beacon/${hash}/public/1000`)).body).toEqual((await api('GET', `/api/beacon/${hash}/public/1000`)).body);
  });

  test('a round not yet due is refused as too early, with a Retry-After', async () => {
    const { chain } = await localSource();
    const future = roundAt(chain, Date.now()) + 100;
    const r = await api('GET', `/api/beacon/${chain.hash}/public/${future}`);
    expect(r.status).toBe(425);
    expect(r.body.error.code).toBe('too_early');
    expect(Number(r.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(r.text).not.toMatch(/"signature"/);
  });

  test('another chain, a malformed round or another method is refused', async () => {
    const { chain } = await localSource();
    expect((await api('GET', `/api/beacon/${QUICKNET.hash}/public/1000`)).status).toBe(404);
    expect((await api('GET', `/api/beacon/${QUICKNET.hash}/info`)).status).toBe(404);
    for (const round of ['0', '-1', '1.5', '01', 'abc', '9'.repeat(20)]) {
      const r = await api('GET', `/api/beacon/${chain.hash}/public/${round}`);
      expect(r.status, round).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    const post = await api('POST', `/api/beacon/${chain.hash}/public/1000`, { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('Allow')).toBe('GET');
  });

  test('is off while BEACON_URL names a relay', async () => {
    const { chain } = await localSource();
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${BASE}/api/beacon/${chain.hash}/public/1000`, { headers: { 'CF-Connecting-IP': CLIENT_IP } }),
      { ...env, BEACON_URL: 'https://relay.test' },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(404);
    expect((await res.json<{ error: { message: string } }>()).error.message).toMatch(/BEACON_URL/);
  });
});

describe('the beacon client', () => {
  test("fetches a round of the local beacon through the Worker's own handler and verifies it", async () => {
    const source = await localSource();
    expect(source.baseUrl).toBe(`${BASE}/api/beacon`);
    const round = roundAt(source.chain, Date.now()) - 2;
    // The configured way (the loopback), then the same requests watched on their way.
    const direct = await fetchBeacon(source, round, { cache: new VerifiedRounds() });
    expect(direct.ok || direct.error.message).toBe(true);
    const counted = relay((url) => selfFetch(new Request(url)));
    const cache = new VerifiedRounds();
    const r = await fetchBeacon(source, round, { fetch: counted.fetch, cache });
    expect(r).toEqual(direct);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.round).toBe(round);
    expect(verifyBeacon(source.chain, r.value).ok).toBe(true);
    expect(counted.urls).toEqual([`${BASE}/api/beacon/${source.chain.hash}/public/${round}`]);
    // Verified once: the next call is answered from memory.
    expect(await fetchBeacon(source, round, { fetch: counted.fetch, cache })).toEqual(r);
    expect(counted.urls).toHaveLength(1);
  });

  test('a round not yet published is unavailable, not invalid, and is asked again later', async () => {
    const source = await localSource();
    const cache = new VerifiedRounds();
    const future = roundAt(source.chain, Date.now()) + 100;
    const r = await fetchBeacon(source, future, { cache });
    expect(r).toMatchObject({ ok: false, error: { code: 'beacon_unavailable', status: 425, notYetPublished: true } });
    expect(cache.size).toBe(0);
  });

  test("accepts a relay's honest quicknet rounds, at <relay>/<chain hash>/public/<round>", async () => {
    const honest = relay((url) => Response.json(url.endsWith('/1000') ? R1000 : R657413));
    const cache = new VerifiedRounds();
    expect(await fetchBeacon(QUICKNET_RELAY, 1000, { fetch: honest.fetch, cache })).toEqual({ ok: true, value: R1000 });
    expect(await fetchBeacon(QUICKNET_RELAY, 657413, { fetch: honest.fetch, cache })).toEqual({ ok: true, value: R657413 });
    expect(honest.urls).toEqual([`https://relay.test/${QUICKNET.hash}/public/1000`, `https://relay.test/${QUICKNET.hash}/public/657413`]);
  });

  test('concurrent calls for one round share one fetch', async () => {
    const honest = relay(() => Response.json(R1000));
    const cache = new VerifiedRounds();
    const all = await Promise.all([1, 2, 3].map(() => fetchBeacon(QUICKNET_RELAY, 1000, { fetch: honest.fetch, cache })));
    for (const r of all) expect(r).toEqual({ ok: true, value: R1000 });
    expect(honest.urls).toHaveLength(1);
  });

  test.each<[string, unknown, string]>([
    ["another round's signature", { ...R1000, signature: R657413.signature, randomness: R657413.randomness }, 'bad_beacon_signature'],
    // Off the curve's subgroup, as nearly every flipped bit of a compressed point is.
    ['a flipped bit in the signature', { ...R1000, signature: `${R1000.signature.slice(0, -1)}8` }, 'bad_beacon_encoding'],
    ['another round, honestly signed', R657413, 'wrong_round'],
    ['the round as a string', { ...R1000, round: '1000' }, 'wrong_round'],
    ['a randomness that is not SHA-256 of the signature', { ...R1000, randomness: R657413.randomness }, 'bad_beacon_randomness'],
    ['an upper-case signature', { ...R1000, signature: R1000.signature.toUpperCase() }, 'bad_beacon_encoding'],
    ['no randomness', { round: 1000, signature: R1000.signature }, 'bad_json'],
    ['not an object', [R1000], 'bad_json'],
  ])('refuses a relay answer with %s', async (_what, body, reason) => {
    const lying = relay(() => Response.json(body));
    const cache = new VerifiedRounds();
    const r = await fetchBeacon(QUICKNET_RELAY, 1000, { fetch: lying.fetch, cache });
    expect(r).toMatchObject({ ok: false, error: { code: 'beacon_invalid', reason } });
    expect(cache.size).toBe(0);
    // The refusal is not remembered: an honest answer later is accepted.
    expect(await fetchBeacon(QUICKNET_RELAY, 1000, { fetch: relay(() => Response.json(R1000)).fetch, cache })).toEqual({ ok: true, value: R1000 });
  });

  test('refuses a relay answer that is not JSON', async () => {
    const r = await fetchBeacon(QUICKNET_RELAY, 1000, { fetch: relay(() => new Response('<html>')).fetch, cache: new VerifiedRounds() });
    expect(r).toMatchObject({ ok: false, error: { code: 'beacon_invalid', reason: 'bad_json' } });
  });

  test('an error status, a network fault or no answer in time is unavailable', async () => {
    const cache = new VerifiedRounds();
    const down = await fetchBeacon(QUICKNET_RELAY, 1000, { fetch: relay(() => new Response('down', { status: 502 })).fetch, cache });
    expect(down).toMatchObject({ ok: false, error: { code: 'beacon_unavailable', status: 502, notYetPublished: false } });
    const fault = await fetchBeacon(QUICKNET_RELAY, 1000, { fetch: () => Promise.reject(new TypeError('connection refused')), cache });
    expect(fault).toMatchObject({ ok: false, error: { code: 'beacon_unavailable' } });
    let aborted = false;
    const silent: Fetcher = (request) =>
      new Promise(() => {
        request.signal.addEventListener('abort', () => (aborted = true));
      });
    const late = await fetchBeacon(QUICKNET_RELAY, 1000, { fetch: silent, cache, timeoutMs: 10 });
    expect(late).toMatchObject({ ok: false, error: { code: 'beacon_unavailable' } });
    expect(late.ok || late.error.message).toMatch(/did not answer within 10 ms/);
    expect(aborted).toBe(true);
    expect(cache.size).toBe(0);
  });

  test('a round that is not a positive integer is refused before any fetch', async () => {
    const asked = relay(() => Response.json(R1000));
    for (const round of [0, -1, 1.5]) {
      expect(await fetchBeacon(QUICKNET_RELAY, round, { fetch: asked.fetch, cache: new VerifiedRounds() })).toMatchObject({
        ok: false,
        error: { code: 'beacon_invalid' },
      });
    }
    expect(asked.urls).toEqual([]);
  });
});

describe('configuration', () => {
  test('BEACON_URL names the relay; BEACON_CHAIN is quicknet by default, or the JSON of a chain', async () => {
    expect(await beaconSource({ ...env, BEACON_URL: 'https://api.drand.sh/' })).toEqual({
      ok: true,
      value: { baseUrl: 'https://api.drand.sh', chain: QUICKNET },
    });
    expect(await beaconSource({ ...env, BEACON_URL: 'https://relay.test/drand', BEACON_CHAIN: '' }, BASE)).toEqual({
      ok: true,
      value: { baseUrl: 'https://relay.test/drand', chain: QUICKNET },
    });
    const other = { ...chainInfo(QUICKNET), period: 30 };
    expect(configuredChain(JSON.stringify(other))).toEqual({ ok: true, value: { ...QUICKNET, periodSeconds: 30 } });
    expect(configuredChain(' QuickNet ')).toEqual({ ok: true, value: QUICKNET });
  });

  test('a malformed setting is a configuration error', async () => {
    for (const change of [
      { BEACON_URL: 'api.drand.sh' },
      { BEACON_URL: 'ftp://relay.test' },
      { BEACON_URL: 'https://relay.test', BEACON_CHAIN: 'mainnet' },
      { BEACON_URL: 'https://relay.test', BEACON_CHAIN: JSON.stringify({ ...chainInfo(QUICKNET), public_key: 'abcd' }) },
      { BEACON_SECRET_KEY: 'not a key' },
      { BEACON_SECRET_KEY: '00'.repeat(32) },
      // A production Worker (its own signing key) has no beacon until it names a relay.
      { SIGNING_KEY: '{}' },
    ]) {
      const r = await beaconSource({ ...env, ...change }, BASE);
      expect(r, JSON.stringify(change)).toMatchObject({ ok: false, error: { code: 'beacon_misconfigured' } });
    }
  });

  test('BEACON_SECRET_KEY gives the local beacon its key, whose chain differs from the development one', async () => {
    const dev = await localSource();
    const keyed = await beaconSource({ ...env, BEACON_SECRET_KEY: '11'.repeat(32) }, `${BASE}/`);
    expect(keyed.ok).toBe(true);
    if (!keyed.ok) return;
    expect(keyed.value.baseUrl).toBe(`${BASE}/api/beacon`);
    expect(keyed.value.chain.hash).not.toBe(dev.chain.hash);
    expect(keyed.value.chain.hash).toBe(localChainHash(keyed.value.chain.publicKey, LOCAL_BEACON_SCHEDULE));
    // The development key is derived from the kept signing key: the same chain again.
    expect((await localSource()).chain).toEqual(dev.chain);
  });
});

describe('the pairing check inside workerd', () => {
  /** The curve library's own `verify` (no precomputed G2 lines): the reference. */
  function libraryVerify(round: number, signature: string): boolean {
    const { shortSignatures } = bls12_381;
    const key = bls12_381.G2.Point.fromHex(QUICKNET.publicKey);
    return shortSignatures.verify(shortSignatures.Signature.fromHex(signature), shortSignatures.hash(beaconMessage(round), BEACON_DST), key);
  }

  test("quicknet's real rounds verify, and a round's signature for another round does not, as the library verify says", () => {
    const cases: Array<[number, string, boolean]> = [
      [R1000.round, R1000.signature, true],
      [R657413.round, R657413.signature, true],
      [R1000.round + 1, R1000.signature, false],
      [R1000.round, R657413.signature, false],
      [R657413.round - 1, R657413.signature, false],
    ];
    for (const [round, signature, expected] of cases) {
      const r = verifyBeacon(QUICKNET, { round, signature });
      expect(r.ok || r.error.code).toBe(expected || 'bad_beacon_signature');
      expect(libraryVerify(round, signature)).toBe(expected);
    }
    expect(verifyBeacon(QUICKNET, R1000)).toEqual({ ok: true, value: R1000 });
  });

  test('a flipped bit in a real signature is refused', () => {
    const bytes = Uint8Array.from(R657413.signature.match(/../g)!, (h) => parseInt(h, 16));
    bytes[47]! ^= 1;
    const signature = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const r = verifyBeacon(QUICKNET, { round: R657413.round, signature });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['bad_beacon_signature', 'bad_beacon_encoding']).toContain(r.error.code);
  });
});
