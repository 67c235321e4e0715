import { describe, expect, test } from 'vitest';
import {
  type Card,
  cardCode,
  CARDS_PER_DECK,
  cutRange,
  cutStack,
  FAIR1_DEFAULT_SHOE_PARAMS,
  dealRound,
  deriveFair1RoundShoe,
  deriveFair1Shoe,
  deriveFair1Stack,
  newServerSeed,
  prepareShoe,
  fair1SeedCommitment,
  type Fair1ShoeParams,
  fair1ShuffledDecks,
  fair1ShuffleStream,
  uniformBelow,
  validateClientSeed,
  validateFair1ShoeParams,
  type WordStream,
} from '../../shared/index.ts';

const SEED = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const params = (over: Partial<Fair1ShoeParams> = {}): Fair1ShoeParams => ({ ...FAIR1_DEFAULT_SHOE_PARAMS, ...over });
const words = (list: number[]): WordStream & { read: number } => {
  let i = 0;
  return {
    nextWord: () => list[i++]!,
    get blocks() {
      return 0;
    },
    get read() {
      return i;
    },
  };
};

describe('seeds and commitment', () => {
  test('a server seed is 32 bytes of the CSPRNG, in lowercase hex', () => {
    const seed = newServerSeed((n) => Uint8Array.from({ length: n }, (_, i) => 255 - i));
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(seed.startsWith('fffefd')).toBe(true);
    expect(() => newServerSeed(() => new Uint8Array(16))).toThrow(RangeError);
    expect(newServerSeed((n) => crypto.getRandomValues(new Uint8Array(n)))).not.toBe(newServerSeed((n) => crypto.getRandomValues(new Uint8Array(n))));
  });

  test('the commitment is domain-separated: not the plain SHA-256 of the seed', async () => {
    const plain = Buffer.from(await crypto.subtle.digest('SHA-256', Buffer.from(SEED, 'hex'))).toString('hex');
    const tagged = Buffer.from(await crypto.subtle.digest('SHA-256', Buffer.concat([Buffer.from('pb-fair-1/commit\n'), Buffer.from(SEED, 'hex')]))).toString(
      'hex',
    );
    expect(fair1SeedCommitment(SEED)).toBe(tagged);
    expect(fair1SeedCommitment(SEED)).not.toBe(plain);
    expect(() => fair1SeedCommitment(SEED.toUpperCase())).toThrow(RangeError);
    expect(() => fair1SeedCommitment(SEED.slice(2))).toThrow(RangeError);
  });

  test('client seeds: 1–128 printable characters, returned in NFC', () => {
    expect(validateClientSeed('e\u0301')).toEqual({ ok: true, value: 'é' });
    expect(validateClientSeed('🎲'.repeat(128)).ok).toBe(true);
    expect(validateClientSeed('  spaces are fine  ').ok).toBe(true);
    for (const bad of ['', 'x'.repeat(129), 'tab\there', 'nul\u0000', 'del\u007f', 'line\u2028sep', 'lone\ud800']) {
      const r = validateClientSeed(bad);
      expect(r.ok, JSON.stringify(bad)).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('bad_client_seed');
    }
  });

  test('parameters: the engine rules plus the algorithm version', () => {
    expect(validateFair1ShoeParams(params()).ok).toBe(true);
    expect(validateFair1ShoeParams({ ...params(), algorithm: 'pb-fair-0' as 'pb-fair-1' })).toMatchObject({ ok: false, error: { code: 'bad_algorithm' } });
    expect(validateFair1ShoeParams(params({ decks: 0 }))).toMatchObject({ ok: false, error: { code: 'bad_decks' } });
    expect(cutRange(params({ decks: 6 }))).toEqual({ min: 1, max: 311 });
    expect(cutRange(params({ decks: 1 }))).toEqual({ min: 1, max: 51 });
  });
});

describe('the stream and rejection sampling', () => {
  test('uniformBelow accepts w < 2^32 − (2^32 mod n) and returns w mod n, else reads on', () => {
    const n = 3_000_000_000; // limit 3e9: about 30% of words are rejected
    const s = words([3_000_000_000, 4_294_967_295, 2_999_999_999]);
    expect(uniformBelow(s, n)).toBe(2_999_999_999);
    expect(s.read).toBe(3);
    const limit = 2 ** 32 - (2 ** 32 % 52); // a multiple of 52
    const t = words([limit, limit - 1]); // the limit itself is rejected, the word below it is the last accepted
    expect(uniformBelow(t, 52)).toBe(51);
    expect(t.read).toBe(2);
    expect(uniformBelow(words([4_294_967_295]), 2 ** 32)).toBe(4_294_967_295);
    expect(uniformBelow(words([7]), 1)).toBe(0);
    expect(() => uniformBelow(words([]), 0)).toThrow(RangeError);
  });

  test('the stream is keyed by the server seed and separated by client seed and nonce', () => {
    const first = (seed: string, client: string, nonce: number) => fair1ShuffleStream(Buffer.from(seed, 'hex'), client, nonce).nextWord();
    const base = first(SEED, 'a', 0);
    expect(first(SEED, 'a', 0)).toBe(base);
    expect(first(SEED.replace(/^00/, '01'), 'a', 0)).not.toBe(base);
    expect(first(SEED, 'b', 0)).not.toBe(base);
    expect(first(SEED, 'a', 1)).not.toBe(base);
  });

  test('the stream matches an independent HMAC-SHA256 (WebCrypto) block by block', async () => {
    const key = await crypto.subtle.importKey('raw', Buffer.from(SEED, 'hex'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const s = fair1ShuffleStream(Buffer.from(SEED, 'hex'), 'Ünïcödé', 7);
    for (const counter of [0, 1, 2]) {
      const msg = Buffer.concat([Buffer.from('pb-fair-1/shuffle\n'), u32(Buffer.byteLength('Ünïcödé')), Buffer.from('Ünïcödé'), u32(7), u32(counter)]);
      const block = Buffer.from(await crypto.subtle.sign('HMAC', key, msg));
      for (let w = 0; w < 8; w++) expect(s.nextWord()).toBe(block.readUInt32BE(4 * w));
    }
    expect(s.blocks).toBe(3);
  });
});

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

describe('the derivation', () => {
  const sorted = (cards: readonly Card[]) => [...cards].sort((a, b) => a - b);

  test('every card of every deck, exactly once per deck', () => {
    for (const decks of [1, 6, 8]) {
      const stack = deriveFair1Stack(params({ decks }), SEED, 'x', 1);
      expect(stack.length).toBe(decks * CARDS_PER_DECK);
      expect(sorted(stack)).toEqual(sorted(Array.from({ length: decks * 52 }, (_, i) => i % 52)));
    }
  });

  test('the cut is a real cut of the shuffled stack, as cutStack does', () => {
    const p = params();
    const shuffled = fair1ShuffledDecks(p, SEED, 'x');
    for (const cut of [1, 100, 311]) expect(deriveFair1Stack(p, SEED, 'x', cut)).toEqual(cutStack(shuffled, cut));
    expect(deriveFair1Stack(p, SEED, 'x', 100).slice(0, 3)).toEqual(shuffled.slice(100, 103));
  });

  test("the shoe is the engine's prepareShoe: burn and cut card per the committed rules", () => {
    const p = params();
    const shoe = deriveFair1Shoe(p, SEED, 'x', 100);
    expect(shoe).toEqual(prepareShoe(deriveFair1Stack(p, SEED, 'x', 100), p));
    expect(shoe.cutCardAt).toBe(312 - 16);
    expect(deriveFair1Shoe(params({ burn: false }), SEED, 'x', 100).burned).toBe(0);
  });

  test('the client seed, the cut and the server seed each change the order', () => {
    const p = params();
    const base = deriveFair1Stack(p, SEED, 'x', 100).map(cardCode).join();
    expect(deriveFair1Stack(p, SEED, 'y', 100).map(cardCode).join()).not.toBe(base);
    expect(deriveFair1Stack(p, SEED, 'x', 101).map(cardCode).join()).not.toBe(base);
    expect(deriveFair1Stack(p, 'ff'.repeat(32), 'x', 100).map(cardCode).join()).not.toBe(base);
  });

  test('reshuffle mode: each round its own stack from the round nonce, one round per stack', () => {
    const p = params({ mode: 'reshuffle' });
    const r1 = deriveFair1RoundShoe(p, SEED, 'x', 5, 1);
    const r2 = deriveFair1RoundShoe(p, SEED, 'x', 5, 2);
    expect(r1.cards).toEqual(deriveFair1Stack(p, SEED, 'x', 5, 1));
    expect(r1.cards).not.toEqual(r2.cards);
    expect(r1.burned).toBe(0);
    const dealt = dealRound(r1);
    expect(dealt.ok && dealt.value.cutCardOut).toBe(true);
    expect(() => deriveFair1Shoe(p, SEED, 'x', 5)).toThrow(/reshuffle/);
    expect(() => deriveFair1Stack(p, SEED, 'x', 5, 0)).toThrow(RangeError);
    expect(() => deriveFair1Stack(params(), SEED, 'x', 5, 1)).toThrow(RangeError);
  });

  test('invalid inputs are refused, never silently used', () => {
    const p = params();
    expect(() => deriveFair1Stack(p, SEED, 'x', 0)).toThrow(RangeError);
    expect(() => deriveFair1Stack(p, SEED, 'x', 312)).toThrow(RangeError);
    expect(() => deriveFair1Stack(p, SEED, 'e\u0301', 1)).toThrow(/NFC/);
    expect(() => deriveFair1Stack(p, SEED, '', 1)).toThrow(RangeError);
    expect(() => deriveFair1Stack(p, 'zz', 'x', 1)).toThrow(RangeError);
    expect(() => deriveFair1Stack(params({ decks: 9 }), SEED, 'x', 1)).toThrow(RangeError);
  });
});
