/**
 * Writes the conformance suite (FAIRNESS.md §B12): test/vectors/conformance/manifest.json and the
 * case files beside it, from fixed keys (../test-key.jwk.json operator, ../player-key.jwk.json
 * player) and fixed seeds and secrets, so the output never changes. Every case names the first
 * failure code a conformant verifier reports, or "ok". Run from the project root:
 *
 *   npx node test/vectors/conformance/generate.ts
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  type Acceptance,
  betRequest,
  bytesToHex,
  type FairnessFile,
  importSigningKey,
  type PlayerRequest,
  type FileRecord,
  type ShoeParams,
  type SignedRequest,
  type SigningKey,
  signFair1Record,
  signRecord,
  signRequest,
  sharedTransactionId,
  sharedTransferId,
  type Fair1Transcript,
  type Receipt,
  type Reveal,
  type Signed,
  type TransferAsk,
  type Transfer,
  utf8Bytes,
  walletTransactionIds,
} from '../../../shared/index.ts';
import { playPrivateTable, type PlayPrivateTableOptions, type RoundScript, type ShoeScript, type TransferScript } from '../../players/pb-fair-2.ts';
import { sharedCases } from './shared-cases.ts';
import { MERKLE_CASES_FROM, merkleCases } from './merkle-cases.ts';

const dir = new URL('.', import.meta.url);
const jwk = (name: string) => JSON.parse(readFileSync(new URL(`../${name}`, dir), 'utf8')) as JsonWebKey;
const operator = await importSigningKey(jwk('test-key.jwk.json'));
const player = await importSigningKey(jwk('player-key.jwk.json'));
/** The same operator key under another kid: records it signs name a key the JWKS does not hold. */
const renamed: SigningKey = { ...operator, keyId: 'not-in-the-jwks' };
/** Another player key (RFC 8032 TEST 3). */
const stranger = await importSigningKey({
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'xaqN9D-fg3vtt0QvMdy3sWbThTUHbwlLhc46LgtEWPc',
  x: '_FHNjmIYoaONpH7QAjDwWAgW7RO6MwOsXeuRFUiQgCU',
});

const hex = (text: string) => bytesToHex(sha256(utf8Bytes(text)));
const SEED = [0, 1, 2, 3, 4, 5].map((i) => hex(`conformance server seed ${i}`));
const secret = (shoe: number, round: number) => hex(`conformance secret ${shoe}/${round}`);

const SHOE_1: ShoeParams = { algorithm: 'pb-fair-2', mode: 'shoe', decks: 1, burn: true, cutCardFromEnd: 14, voidAfterSeconds: 600 };
const SHOE_6: ShoeParams = { algorithm: 'pb-fair-2', mode: 'shoe', decks: 6, burn: true, cutCardFromEnd: 16, voidAfterSeconds: 300 };
const SHOE_8: ShoeParams = { algorithm: 'pb-fair-2', mode: 'shoe', decks: 8, burn: false, cutCardFromEnd: 16, voidAfterSeconds: 60 };
const RESHUFFLE_8: ShoeParams = { algorithm: 'pb-fair-2', mode: 'reshuffle', decks: 8, roundLimit: 3, voidAfterSeconds: 120 };
const RESHUFFLE_1: ShoeParams = { algorithm: 'pb-fair-2', mode: 'reshuffle', decks: 1, roundLimit: 1, voidAfterSeconds: 120 };
const HALL_1 = { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] };
const BOXES = ['player', 'banker', 'tie'] as const;

const rounds = (shoe: number, n: number, fates: Record<number, RoundScript['fate']> = {}): RoundScript[] =>
  Array.from({ length: n }, (_, i) => ({
    bets: [
      { sector: i % 5, box: BOXES[i % 3]!, amount: 100 * (1 + ((7 * (i + 1)) % 20)) },
      ...(i % 2 ? [{ sector: (i + 1) % 5, box: 'tie' as const, amount: 100 }] : []),
    ],
    secret: secret(shoe, i + 1),
    ...(fates[i + 1] ? { fate: fates[i + 1] } : {}),
  }));

const shoeA = (end?: ShoeScript['end'], n = 40): ShoeScript => ({
  params: SHOE_1,
  limits: HALL_1,
  serverSeed: SEED[0]!,
  clientSeed: 'Ünïcödé 🎲',
  cut: 26,
  rounds: rounds(1, n),
  ...(end ? { end } : {}),
});
const shoeB = (end?: ShoeScript['end']): ShoeScript => ({
  params: RESHUFFLE_8,
  serverSeed: SEED[1]!,
  clientSeed: '牌靴 seed',
  cut: 211,
  rounds: rounds(2, 3),
  ...(end ? { end } : {}),
});
const shoeC = (): ShoeScript => ({
  params: SHOE_6,
  limits: HALL_1,
  serverSeed: SEED[2]!,
  clientSeed: 'Ελληνικά',
  cut: 157,
  affiliate: 'aff-7',
  rounds: rounds(3, 5),
  end: 'player',
});

type Mutate = PlayPrivateTableOptions['mutate'];
const table = async (shoes: ShoeScript[], mutate?: Mutate, extra: Partial<PlayPrivateTableOptions> = {}): Promise<FairnessFile> => {
  const f = await playPrivateTable({
    table: 'conformance',
    operatorKey: operator,
    playerKey: player,
    openingBalance: 500_000,
    shoes,
    ...(mutate ? { mutate } : {}),
    ...extra,
  });
  return { version: 'pb-fair-2', records: f.records };
};
const text = (file: object) => JSON.stringify(file);
/** The standard three-shoe table: 1 deck to the cut card, 8-deck reshuffle to its limit, 6 decks ended by the player. */
const base = () => table([shoeA(), shoeB(), shoeC()]);

/** Changes one record's body (the operator re-signs it); the records after it stay as they were. */
async function forge(file: FairnessFile, index: number, change: (body: any) => unknown, key: SigningKey = operator): Promise<FairnessFile> {
  const records = structuredClone(file.records);
  const body = records[index]!.body;
  await change(body);
  records[index] = await signRecord(body, key);
  return { version: 'pb-fair-2', records };
}
/** A request changed and re-signed by `key` (the player unless said). */
async function resigned<T extends PlayerRequest>(
  request: SignedRequest<T>,
  change: (body: any) => unknown,
  key: SigningKey = player,
): Promise<SignedRequest<T>> {
  const body = structuredClone(request.body);
  change(body);
  return signRequest(body, key);
}
const indexOf = (file: FairnessFile, type: string, nth = 1, shoe?: number) => {
  let seen = 0;
  return file.records.findIndex((r) => r.body.type === type && (shoe === undefined || r.body.shoe === shoe) && ++seen === nth);
};
/** Appends an acceptance of `bets` after the record at `index` (dropping what followed). */
async function appendAcceptance(
  file: FairnessFile,
  index: number,
  round: number,
  bets: { sector: number; box: 'player' | 'banker' | 'tie'; amount: number }[],
  balanceBefore?: number,
): Promise<FairnessFile> {
  const records = file.records.slice(0, index + 1);
  const last = records[index]!;
  const request = await signRequest(betRequest(last, round, bets, secret(9, round)), player);
  const balance = balanceBefore ?? (last.body as { balanceAfter?: number }).balanceAfter ?? 500_000;
  const issuedAt = new Date(Date.parse(last.body.issuedAt) + 1000).toISOString();
  const body: Acceptance = {
    type: 'acceptance',
    table: last.body.table,
    shoe: last.body.shoe,
    keyId: operator.keyId,
    round,
    affiliate: null,
    request,
    balanceBefore: balance,
    prev: last.hash,
    issuedAt,
  };
  return { version: 'pb-fair-2', records: [...records, await signRecord(body, operator)] };
}
/** Mutates, before signing, the n-th body of a type (records or requests) while a table is played. */
const at = (kind: 'record' | 'request', type: string, change: (body: any) => unknown, nth = 1, shoe = 1): Mutate =>
  (() => {
    let seen = 0;
    return (m) => {
      if (m.kind === kind && m.body.type === type && m.body.shoe === shoe && ++seen === nth) change(m.body);
    };
  })();

interface Case {
  name: string;
  about: string;
  expect: string;
  version: 'pb-fair-1' | 'pb-fair-2' | 'pb-shared-1' | 'pb-shared-2';
  jwks?: string;
  /** The case's number when it is not its place in the list (pb-shared-2's cases start at MERKLE_CASES_FROM). */
  number?: number;
  build: () => Promise<string>;
}
const cases: Case[] = [];
const v2 = (name: string, expect: string, about: string, build: () => Promise<string | FairnessFile>, jwks?: string) =>
  cases.push({
    name,
    expect,
    about,
    version: 'pb-fair-2',
    ...(jwks ? { jwks } : {}),
    build: async () => {
      const b = await build();
      return typeof b === 'string' ? b : text(b);
    },
  });

// ── pb-fair-2: files that verify ────────────────────────────────────────────────────────────
v2('ok-three-shoes', 'ok', '1 deck to the cut card (burn), 8-deck reshuffle to its round limit, 6 decks ended by the player; non-ASCII seeds', base);
v2('ok-pretty-printed', 'ok', 'whitespace between tokens is allowed: the file is not hashed', async () => JSON.stringify(await base(), null, 2));
v2('ok-8-decks-no-burn-void-timeout', 'ok', '8 decks, no burn, cut 1; a voided round; the shoe ends by void-timeout', async () =>
  table([{ params: SHOE_8, serverSeed: SEED[3]!, clientSeed: 'x', cut: 1, rounds: rounds(1, 6, { 3: 'void' }), end: 'void-timeout' }]),
);
v2('ok-pending-shoe', 'ok', 'an unrevealed shoe: its rounds are pending, checked for consistency only', async () => table([shoeA('open', 8)]));
v2('ok-pending-after-revealed', 'ok', 'shoe 1 revealed, shoe 2 still open', async () => table([shoeA(), { ...shoeC(), end: 'open' }]));
v2('ok-excerpt-from-shoe-4', 'ok', 'a file may start at any shoe: shoe 4, prev a hash the file does not hold', async () =>
  table([shoeC()], undefined, { firstShoe: 4, prev: hex('an earlier reveal') }),
);
v2('ok-no-rounds-player-end', 'ok', 'a shoe with no rounds, ended by the player', async () => table([{ ...shoeA('player'), rounds: [] }]));
v2('ok-no-start-void-timeout', 'ok', 'a shoe never started: commitment, then a reveal after the timeout', async () => {
  const f = await table([{ ...shoeA('void-timeout'), rounds: [] }]);
  const [commitment, , reveal] = f.records;
  const body = { ...reveal!.body, prev: commitment!.hash } as FileRecord;
  return { version: 'pb-fair-2', records: [commitment!, await signRecord(body, operator)] };
});
v2('ok-reshuffle-1-deck-limit-1', 'ok', 'reshuffle mode, 1 deck, roundLimit 1', async () =>
  table([{ params: RESHUFFLE_1, serverSeed: SEED[4]!, clientSeed: '🎲🎲', cut: 51, rounds: rounds(1, 1) }]),
);
v2('ok-void-then-rounds', 'ok', 'a voided round returns the stake; the next round re-cuts the same remaining cards', async () =>
  table([{ ...shoeA(), rounds: rounds(1, 40, { 2: 'void', 5: 'void' }) }]),
);
v2('ok-nfc-combining', 'ok', 'a client seed in NFC with a precomposed letter and a combining mark that has no precomposed form', async () =>
  table([{ ...shoeA('player', 2), clientSeed: 'Å q̇ 한국어' }]),
);
v2('ok-128-code-points', 'ok', 'a client seed of exactly 128 code points (emoji count one each)', async () =>
  table([{ ...shoeA('player', 1), clientSeed: '🎲'.repeat(128) }]),
);
v2('ok-6-decks-affiliate', 'ok', '6 decks with burn, Hall 1 limits, an affiliate, ended by the player', async () => table([shoeC()]));

// ── bad_json ─────────────────────────────────────────────────────────────────────────────────
const replaceOnce = async (from: string, to: string) => {
  const t = text(await base());
  if (!t.includes(from)) throw new Error(`no ${from}`);
  return t.replace(from, to);
};
v2('json-fraction', 'bad_json', '`1.0` is not an integer: integers are written without fraction', () =>
  replaceOnce('"openingBalance":500000', '"openingBalance":500000.0'),
);
v2('json-exponent', 'bad_json', '`5e5` is not an integer: integers are written without exponent', () =>
  replaceOnce('"openingBalance":500000', '"openingBalance":5e5'),
);
v2('json-minus-zero', 'bad_json', '`-0` is refused', () => replaceOnce('"sector":0', '"sector":-0'));
v2('json-duplicate-member', 'bad_json', 'a duplicate member name', () =>
  replaceOnce('"openingBalance":500000', '"openingBalance":500000,"openingBalance":500000'),
);
v2('json-bom', 'bad_json', 'a byte-order mark', async () => '\uFEFF' + text(await base()));
v2('json-lone-surrogate', 'bad_json', 'a \\u escape leaving an unpaired surrogate', () => replaceOnce('"table":"conformance"', '"table":"conformance\\ud800"'));
v2('json-too-large', 'bad_json', 'an integer beyond 2^53 − 1', () => replaceOnce('"openingBalance":500000', '"openingBalance":9007199254740993'));

// ── bad_record ───────────────────────────────────────────────────────────────────────────────
v2('file-unknown-member', 'bad_record', 'an unknown member of the file', async () => ({ ...(await base()), note: 'x' }));
v2('envelope-keyid-outside', 'bad_record', 'pb-fair-1 style keyId in the envelope: the envelope is exactly body, hash, signature', async () => {
  const f = await base();
  (f.records[0] as unknown as Record<string, unknown>).keyId = operator.keyId;
  return f;
});
v2('body-unknown-member', 'bad_record', 'an unknown member of a signed body', async () =>
  table(
    [shoeA()],
    at('record', 'acceptance', (b) => (b.note = 'x'), 2),
  ),
);
v2('nested-unknown-member', 'bad_record', 'an unknown member inside a nested object (a limits object)', async () =>
  table(
    [shoeA()],
    at('record', 'commitment', (b) => (b.limits = { ...b.limits, max2: 1 })),
  ),
);
v2('request-unknown-member', 'bad_record', 'an unknown member of an embedded player request body', async () =>
  table(
    [shoeA()],
    at('request', 'bet', (b) => (b.note = 'x'), 3),
  ),
);
v2('optional-null', 'bad_record', 'an optional member present as null (limits: null)', async () =>
  table(
    [shoeA()],
    at('record', 'commitment', (b) => (b.limits = null)),
  ),
);
v2('time-no-millis', 'bad_record', 'a timestamp without the three fraction digits', async () =>
  table(
    [shoeA()],
    at('record', 'start', (b) => (b.issuedAt = b.issuedAt.replace('.000Z', 'Z'))),
  ),
);
v2('time-six-digits', 'bad_record', 'a timestamp with six fraction digits', async () =>
  table(
    [shoeA()],
    at('record', 'start', (b) => (b.issuedAt = b.issuedAt.replace('.000Z', '.000000Z'))),
  ),
);
v2('time-feb-30', 'bad_record', 'a timestamp that is no real day (30 February)', async () =>
  table(
    [shoeA()],
    at('record', 'start', (b) => (b.issuedAt = '2025-02-30T12:00:00.000Z')),
  ),
);
v2('time-leap-second', 'bad_record', 'second 60 is not allowed', async () =>
  table(
    [shoeA()],
    at('record', 'start', (b) => (b.issuedAt = '2025-01-01T12:00:60.000Z')),
  ),
);
v2('time-offset', 'bad_record', 'a time zone offset instead of Z', async () =>
  table(
    [shoeA()],
    at('record', 'start', (b) => (b.issuedAt = '2025-01-01T12:00:01.000+00:00')),
  ),
);
v2('time-before-2000', 'bad_record', 'a year before 2000', async () =>
  table(
    [shoeA()],
    at('record', 'commitment', (b) => (b.issuedAt = '1999-12-31T23:59:59.000Z')),
  ),
);
v2('hash-uppercase', 'bad_record', 'a hash in upper-case hex', async () => {
  const f = await base();
  f.records[0]!.hash = f.records[0]!.hash.toUpperCase();
  return f;
});
v2('unknown-type', 'bad_record', 'a record type that does not exist', async () =>
  table(
    [shoeA()],
    at('record', 'acceptance', (b) => (b.type = 'bet')),
  ),
);
v2('negative-balance', 'bad_record', 'a negative opening balance', async () =>
  table(
    [{ ...shoeA('player'), rounds: [] }],
    at('record', 'commitment', (b) => (b.openingBalance = -1)),
  ),
);
v2('shoe-zero', 'bad_record', 'shoe numbers start at 1', async () =>
  table(
    [shoeA()],
    at('record', 'commitment', (b) => ((b.shoe = 0), (b.prev = hex('x')))),
  ),
);

// ── hashes, keys, signatures ─────────────────────────────────────────────────────────────────
v2('hash-mismatch', 'hash_mismatch', 'a body changed after signing', async () => {
  const f = await base();
  (f.records[3]!.body as { balanceAfter: number }).balanceAfter += 1000;
  return f;
});
v2('unknown-key', 'unknown_key', 'records signed under a kid the JWKS does not hold', async () =>
  playPrivateTable({ table: 'conformance', operatorKey: renamed, playerKey: player, openingBalance: 500_000, shoes: [shoeA()] }).then((f) => ({
    version: 'pb-fair-2' as const,
    records: f.records,
  })),
);
v2('key-by-thumbprint', 'unknown_key', 'a JWKS entry without kid names no key: keyId is never resolved by thumbprint', base, 'jwks-no-kid.json');
v2('duplicate-kid-first-wins', 'bad_signature', 'two JWKS entries share the kid: the first (another key) is the one used', base, 'jwks-duplicate-kid.json');
v2('bad-signature', 'bad_signature', 'a signature of another body', async () => {
  const f = await base();
  f.records[2]!.signature = f.records[4]!.signature;
  return f;
});
v2('signature-trailing-bits', 'bad_signature', 'a signature spelled with non-zero trailing bits (decodes to the same bytes leniently)', async () => {
  const f = await base();
  const s = f.records[0]!.signature;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  f.records[0]!.signature = s.slice(0, -1) + alphabet[alphabet.indexOf(s.at(-1)!) | 1];
  return f;
});
v2('signature-padded', 'bad_signature', 'a signature with base64 padding', async () => {
  const f = await base();
  f.records[0]!.signature += '==';
  return f;
});

// ── succession, table, shoes, chain, time ────────────────────────────────────────────────────
v2('starts-with-start', 'out_of_sequence', 'a file starts with a commitment', async () => {
  const f = await base();
  return { ...f, records: f.records.slice(1) };
});
v2('receipt-without-acceptance', 'out_of_sequence', 'a receipt right after the start', async () => {
  const f = await base();
  const records = f.records.slice();
  records.splice(2, 1);
  return { ...f, records };
});
v2('two-starts', 'out_of_sequence', 'a second start record in a shoe', async () => {
  const f = await base();
  return forge({ ...f, records: [...f.records.slice(0, 3), structuredClone(f.records[1]!)] }, 3, (b) => (b.prev = f.records[2]!.hash));
});
v2('table-mismatch', 'table_mismatch', 'a record for another table', async () =>
  table(
    [shoeA()],
    at('record', 'acceptance', (b) => (b.table = 'elsewhere'), 2),
  ),
);
v2('shoe-gap', 'shoe_gap', 'shoe 2 missing: shoe 3 follows shoe 1', async () => {
  const f = await base();
  const s2 = indexOf(f, 'commitment', 2);
  const s3 = indexOf(f, 'commitment', 3);
  return { ...f, records: [...f.records.slice(0, s2), ...f.records.slice(s3)] };
});
v2('shoe-out-of-order', 'shoe_out_of_order', 'shoe 1 after shoe 2', async () => {
  const f = await base();
  const s2 = indexOf(f, 'commitment', 2);
  const s3 = indexOf(f, 'commitment', 3);
  return { ...f, records: [...f.records.slice(s2, s3), ...f.records.slice(0, s2)] };
});
v2('shoe-repeated', 'shoe_out_of_order', 'shoe 2 twice', async () => {
  const f = await base();
  const s2 = indexOf(f, 'commitment', 2);
  const s3 = indexOf(f, 'commitment', 3);
  return { ...f, records: [...f.records.slice(0, s3), ...f.records.slice(s2, s3)] };
});
v2('shoe-mismatch', 'shoe_mismatch', 'an acceptance naming another shoe', async () =>
  table(
    [shoeA()],
    at('record', 'acceptance', (b) => (b.shoe = 2), 2),
  ),
);
v2('chain-broken', 'chain_broken', 'a receipt whose prev is not its acceptance (re-signed)', async () => {
  const f = await base();
  return forge(f, 3, (b) => (b.prev = f.records[1]!.hash));
});
v2('chain-shoe-1-prev', 'chain_broken', 'shoe 1 naming a previous shoe', async () => table([shoeA()], undefined, { prev: hex('nothing') }));
v2('chain-shoe-2-null', 'chain_broken', 'shoe 2 at the start of a file with prev null', async () => table([shoeA()], undefined, { firstShoe: 2 }));
v2('time-went-back', 'time_went_back', 'a receipt issued before its acceptance', async () =>
  table(
    [shoeA()],
    at('record', 'receipt', (b) => (b.issuedAt = '2025-01-01T11:00:00.000Z'), 2),
  ),
);

// ── commitment ───────────────────────────────────────────────────────────────────────────────
const params = (name: string, about: string, change: (p: any) => unknown, mode: 'shoe' | 'reshuffle' = 'shoe') =>
  v2(name, 'bad_params', about, async () =>
    table(
      [mode === 'shoe' ? shoeA() : shoeB()],
      at('record', 'commitment', (b) => change(b.params)),
    ),
  );
params('params-reshuffle-burn', 'reshuffle mode with a burn member: burn does nothing there, so it may not be committed', (p) => (p.burn = true), 'reshuffle');
params('params-reshuffle-cut-card', 'reshuffle mode with cutCardFromEnd: dead there, not committed', (p) => (p.cutCardFromEnd = 16), 'reshuffle');
params('params-shoe-round-limit', 'shoe mode with roundLimit', (p) => (p.roundLimit = 100));
params('params-cut-card-too-near', 'cutCardFromEnd 5 (below 6)', (p) => (p.cutCardFromEnd = 5));
params('params-void-zero', 'voidAfterSeconds 0', (p) => (p.voidAfterSeconds = 0));
params('params-nine-decks', '9 decks', (p) => (p.decks = 9));
params('params-v1-algorithm', 'algorithm pb-fair-1 in a pb-fair-2 file', (p) => (p.algorithm = 'pb-fair-1'));
params('params-round-limit-zero', 'roundLimit 0', (p) => (p.roundLimit = 0), 'reshuffle');
const limits = (name: string, about: string, l: object) =>
  v2(name, 'bad_params', about, async () =>
    table(
      [shoeA()],
      at('record', 'commitment', (b) => (b.limits = l)),
    ),
  );
limits('limits-step-zero', 'limits with step 0', { min: 100, max: 10_000, step: 0, chips: [] });
limits('limits-min-above-max', 'limits with min above max', { min: 20_000, max: 10_000, step: 100, chips: [] });
limits('limits-step-not-20', 'a step that keeps 5% commission fractional (50)', { min: 100, max: 10_000, step: 50, chips: [] });
limits('limits-chips-descending', 'chips not strictly ascending', { min: 100, max: 10_000, step: 100, chips: [500, 100] });
v2('player-key-padded', 'bad_player_key', 'a player key with base64 padding', async () =>
  table(
    [shoeA()],
    at('record', 'commitment', (b) => (b.playerKey += '=')),
  ),
);
v2('player-key-short', 'bad_player_key', 'a player key of 31 bytes', async () =>
  table(
    [shoeA()],
    at('record', 'commitment', (b) => (b.playerKey = b.playerKey.slice(0, 42))),
  ),
);
v2('player-key-changed', 'player_key_mismatch', "shoe 2 names another player's key", async () => {
  const a = await table([shoeA()]);
  const last = a.records.at(-1)!;
  const b = await playPrivateTable({
    table: 'conformance',
    operatorKey: operator,
    playerKey: stranger,
    openingBalance: (last.body as { closingBalance: number }).closingBalance,
    firstShoe: 2,
    prev: last.hash,
    startTime: Date.UTC(2025, 0, 2),
    shoes: [shoeB()],
  });
  return { version: 'pb-fair-2', records: [...a.records, ...b.records] };
});
v2('opening-balance', 'opening_balance_mismatch', 'shoe 2 opens with more than shoe 1 closed with', async () =>
  table(
    [shoeA(), shoeB()],
    at('record', 'commitment', (b) => (b.openingBalance += 100), 1, 2),
  ),
);

// ── start ────────────────────────────────────────────────────────────────────────────────────
const startCase = (name: string, expect: string, about: string, change: (b: any) => unknown) =>
  v2(name, expect, about, async () => table([{ ...shoeA('player', 2) }], at('request', 'start', change)));
startCase('seed-not-nfc', 'bad_client_seed', 'a client seed not in NFC (e + combining acute)', (b) => (b.clientSeed = 'cafe\u0301'));
startCase('seed-control', 'bad_client_seed', 'a control character in the client seed', (b) => (b.clientSeed = 'a\u0007b'));
startCase('seed-unassigned', 'bad_client_seed', 'a code point unassigned in Unicode 17.0 (U+0378)', (b) => (b.clientSeed = 'a\u0378'));
startCase('seed-noncharacter', 'bad_client_seed', 'a noncharacter (U+FDD0) is unassigned', (b) => (b.clientSeed = '\uFDD0'));
startCase('seed-too-long', 'bad_client_seed', '129 code points', (b) => (b.clientSeed = 'x'.repeat(129)));
startCase('seed-line-separator', 'bad_client_seed', 'U+2028 in the client seed', (b) => (b.clientSeed = 'a\u2028b'));
startCase('cut-zero', 'bad_cut', 'cut 0', (b) => (b.cut = 0));
startCase('cut-n', 'bad_cut', 'cut 52 in a 52-card stack', (b) => (b.cut = 52));
v2('start-request-other-commitment', 'request_mismatch', 'the start request answers another commitment', async () =>
  table(
    [shoeA()],
    at('request', 'start', (b) => (b.commitment = hex('other'))),
  ),
);
v2('start-request-forged', 'bad_player_signature', 'the start request signed by another key', async () => {
  const f = await base();
  return forge(f, 1, async (b) => (b.request = await resigned(b.request, (r) => (r.clientSeed = 'operator chose this'), stranger)));
});

// ── acceptance ───────────────────────────────────────────────────────────────────────────────
v2('acceptance-round-skip', 'round_mismatch', 'the first acceptance of a shoe numbered 2 (its request too)', async () =>
  appendAcceptance(await base(), 1, 2, [{ sector: 0, box: 'player', amount: 100 }], 500_000),
);
v2('after-cut-card', 'round_after_cut_card', 'an acceptance after the receipt that brought out the cut card', async () => {
  const f = await base();
  const last = indexOf(f, 'reveal') - 1;
  return appendAcceptance(f, last, (f.records[last]!.body as { round: number }).round + 1, [{ sector: 0, box: 'player', amount: 100 }]);
});
v2('over-round-limit', 'round_over_limit', 'a fourth round in a reshuffle shoe with roundLimit 3', async () => {
  const f = await base();
  return appendAcceptance(f, indexOf(f, 'reveal', 2) - 1, 4, [{ sector: 0, box: 'player', amount: 100 }]);
});
v2('bet-rewritten-by-operator', 'bad_player_signature', 'a bet rewritten and re-signed by the operator key: the player signature fails', async () => {
  const f = await base();
  return forge(f, 4, async (b) => {
    b.request.body.bets[0].amount = 200;
  });
});
v2('bet-request-another-round', 'request_mismatch', "the bet request's prev is not the acceptance's prev", async () => {
  const f = await base();
  return forge(f, 4, async (b) => (b.request = await resigned(b.request, (r) => (r.prev = f.records[1]!.hash))));
});
v2('acceptance-balance', 'balance_mismatch', "an acceptance's balanceBefore is not the balance carried", async () =>
  table(
    [shoeA()],
    at('record', 'acceptance', (b) => (b.balanceBefore += 1000), 2),
  ),
);
v2('first-acceptance-balance', 'balance_mismatch', "the first acceptance's balanceBefore is not the opening balance", async () =>
  table(
    [shoeA()],
    at('record', 'acceptance', (b) => (b.balanceBefore -= 100)),
  ),
);
const badBet = (name: string, about: string, bets: { sector: number; box: 'player' | 'banker' | 'tie'; amount: number }[]) =>
  v2(name, 'bets_invalid', about, async () => {
    const f = await base();
    return appendAcceptance(f, 3, 2, bets);
  });
badBet('bets-off-step', 'an amount off the committed step', [{ sector: 0, box: 'player', amount: 150 }]);
badBet(
  'bets-fourth-sector',
  'four sectors',
  [0, 1, 2, 3].map((s) => ({ sector: s, box: 'player' as const, amount: 100 })),
);
v2('bets-over-balance', 'bets_invalid', 'a stake above the balance', async () => {
  const f = await table([{ ...shoeA('open'), rounds: [] }], undefined, { openingBalance: 5_000 });
  return appendAcceptance(f, 1, 1, [{ sector: 0, box: 'player', amount: 10_000 }], 5_000);
});
badBet('bets-empty', 'no bet', []);

// ── receipt ──────────────────────────────────────────────────────────────────────────────────
const receipt = (name: string, expect: string, about: string, change: (b: any) => unknown, nth = 2) =>
  v2(name, expect, about, async () => {
    const f = await base();
    return forge(f, indexOf(f, 'receipt', nth), change);
  });
receipt(
  'secret-forged',
  'bad_player_signature',
  'the secret request re-signed by another key',
  async (b) => (b.request = await resigned(b.request, () => {}, stranger)),
);
receipt(
  'secret-other-acceptance',
  'request_mismatch',
  'the secret request names another acceptance',
  async (b) => (b.request = await resigned(b.request, (r) => (r.acceptance = hex('other')))),
);
receipt(
  'secret-uppercase',
  'bad_secret',
  'a secret in upper-case hex',
  async (b) => (b.request = await resigned(b.request, (r) => (r.secret = r.secret.toUpperCase()))),
);
receipt(
  'secret-wrong',
  'lock_mismatch',
  'a secret that does not open the lock',
  async (b) => (b.request = await resigned(b.request, (r) => (r.secret = hex('another secret')))),
);
receipt('cards-swapped', 'card_mismatch', 'two cards swapped', (b) => ([b.cards[0].code, b.cards[1].code] = [b.cards[1].code, b.cards[0].code]));
receipt('card-position', 'card_mismatch', 'a card at the wrong position', (b) => (b.cards[0].position += 1));
receipt('player-total', 'total_mismatch', 'a wrong player total', (b) => (b.playerTotal = (b.playerTotal + 1) % 10));
receipt('outcome', 'outcome_mismatch', 'a wrong outcome', (b) => (b.outcome = b.outcome === 'banker' ? 'player' : 'banker'));
receipt('natural', 'natural_mismatch', 'natural flipped', (b) => (b.natural = !b.natural));
receipt('pair', 'pair_mismatch', 'a pair flag flipped', (b) => (b.bankerPair = !b.bankerPair));
receipt('payout', 'payout_mismatch', 'a payout changed', (b) => (b.payouts[0].returned += 100));
receipt('staked', 'stake_mismatch', 'the amount staked changed', (b) => (b.staked += 100));
receipt('balance-after', 'balance_mismatch', 'balanceAfter changed', (b) => (b.balanceAfter += 100));
receipt('cut-card-flag', 'cut_card_mismatch', 'cutCardOut true on an early round', (b) => (b.cutCardOut = true));
v2('pending-duplicate-card', 'card_mismatch', 'unrevealed: a card listed more often than one deck holds', async () => {
  const f = await table([shoeA('open', 8)]);
  const first = (f.records[3]!.body as { cards: { code: string }[] }).cards[0]!.code;
  return forge(f, indexOf(f, 'receipt', 2), (b) => (b.cards[0].code = first));
});
v2('pending-gap', 'card_mismatch', 'unrevealed: a round that does not start where the last ended', async () => {
  const f = await table([shoeA('open', 8)]);
  return forge(f, indexOf(f, 'receipt', 2), (b) => {
    for (const c of b.cards) c.position += 1;
  });
});
v2('unrevealed-outcome', 'outcome_mismatch', 'unrevealed: an outcome the listed cards do not give', async () => {
  const f = await table([shoeA('open', 8)]);
  return forge(f, indexOf(f, 'receipt', 2), (b) => (b.outcome = b.outcome === 'tie' ? 'player' : 'tie'));
});

// ── void ─────────────────────────────────────────────────────────────────────────────────────
const voided = () => table([{ ...shoeA(), rounds: rounds(1, 40, { 2: 'void' }) }]);
v2('void-too-early', 'void_too_early', 'a round voided before voidAfterSeconds', async () => {
  const f = await voided();
  const i = indexOf(f, 'void');
  return forge(f, i, (b) => (b.issuedAt = new Date(Date.parse(f.records[i - 1]!.body.issuedAt) + 1000).toISOString()));
});
v2('void-keeps-stake', 'balance_mismatch', 'a void that keeps the stake', async () => {
  const f = await voided();
  return forge(f, indexOf(f, 'void'), (b) => (b.balanceAfter -= 100));
});

// ── unsettled ────────────────────────────────────────────────────────────────────────────────
v2('unsettled-at-end', 'unsettled_acceptance', 'the file ends with an acceptance nobody answered', async () =>
  table([{ ...shoeA(), rounds: rounds(1, 3, { 3: 'pending' }) }]),
);
v2('unsettled-then-revealed', 'unsettled_acceptance', 'the operator revealed the shoe instead of settling an accepted round', async () =>
  table([{ ...shoeA('player'), rounds: rounds(1, 3, { 3: 'unsettled' }) }]),
);

// ── reveal ───────────────────────────────────────────────────────────────────────────────────
const reveal = (name: string, expect: string, about: string, change: (b: any) => unknown, nth = 1, make = base) =>
  v2(name, expect, about, async () => {
    const f = await make();
    return forge(f, indexOf(f, 'reveal', nth), change);
  });
reveal('seed-uppercase', 'bad_server_seed', 'a revealed seed in upper-case hex', (b) => (b.serverSeed = b.serverSeed.toUpperCase()));
reveal('seed-wrong', 'commitment_mismatch', 'a revealed seed that does not match the commitment', (b) => (b.serverSeed = SEED[5]));
reveal('round-count', 'round_count_mismatch', 'the reveal counts one round more', (b) => (b.rounds += 1));
reveal('closing-balance', 'closing_balance_mismatch', 'the reveal closes with another balance', (b) => (b.closingBalance += 100));
reveal('reason-player-at-cut-card', 'reveal_reason_mismatch', '"player" when the cut card came out', async (b) => {
  b.reason = 'player';
});
reveal('reason-v1-ended-early', 'reveal_reason_mismatch', 'pb-fair-1\'s "ended-early" is not a pb-fair-2 reason', (b) => (b.reason = 'ended-early'));
reveal('reason-limit-in-shoe-mode', 'reveal_reason_mismatch', '"reshuffle-limit" in shoe mode', (b) => (b.reason = 'reshuffle-limit'), 3);
reveal(
  'reason-cut-card-early',
  'reveal_reason_mismatch',
  '"cut-card" when no round reached it',
  (b) => {
    b.reason = 'cut-card';
    delete b.request;
  },
  3,
);
reveal('reason-player-after-limit', 'reveal_reason_mismatch', '"player" when the reshuffle limit was reached', (b) => (b.reason = 'void-timeout'), 2);
reveal('timeout-with-request', 'reveal_reason_mismatch', 'a void-timeout reveal carrying an end request', (b) => (b.reason = 'void-timeout'), 3);
reveal(
  'end-request-forged',
  'bad_player_signature',
  'the end request signed by another key',
  async (b) => (b.request = await resigned(b.request, () => {}, stranger)),
  3,
);
reveal(
  'end-request-other-prev',
  'request_mismatch',
  "the end request's prev is not the reveal's",
  async (b) => (b.request = await resigned(b.request, (r) => (r.prev = hex('x')))),
  3,
);
reveal(
  'timeout-too-early',
  'reveal_too_early',
  'a void-timeout reveal one second after the last record',
  (b) => {
    b.reason = 'void-timeout';
    delete b.request;
  },
  3,
);

// ── pb-fair-1 (part I), verified unchanged ───────────────────────────────────────────────────
const v1vectors = JSON.parse(readFileSync(new URL('../fairness.json', dir), 'utf8')) as { transcripts: { transcript: Fair1Transcript }[] };
const v1 = (name: string, expect: string, about: string, change?: (ts: Fair1Transcript[]) => void | Promise<void>, jwks?: string) =>
  cases.push({
    name,
    expect,
    about,
    version: 'pb-fair-1',
    ...(jwks ? { jwks } : {}),
    build: async () => {
      const ts = structuredClone(v1vectors.transcripts.map((t) => t.transcript));
      await change?.(ts);
      return text({ transcripts: ts });
    },
  });
/** Re-signs a pb-fair-1 record after a change (so the change reaches the checks past the hash). */
const v1sign = async (record: { body: any; hash: string; signature: string; keyId: string }, change: (b: any) => unknown) => {
  change(record.body);
  Object.assign(record, await signFair1Record(record.body, operator));
};
v1('v1-ok', 'ok', 'the two pb-fair-1 vector shoes: 1 deck to the cut card, 6-deck reshuffle ended early');
v1('v1-ok-thumbprint', 'ok', 'pb-fair-1 (part I) still finds a kid-less JWKS key by its thumbprint', undefined, 'jwks-no-kid.json');
v1('v1-ok-unrevealed', 'ok', 'pb-fair-1, a shoe not yet revealed', (ts) => {
  delete ts[1]!.reveal;
});
v1('v1-hash', 'hash_mismatch', 'pb-fair-1, a changed body', (ts) => {
  ts[0]!.receipts[0]!.body.balanceAfter += 1;
});
v1('v1-unknown-key', 'unknown_key', 'pb-fair-1, an unknown key id', (ts) => {
  ts[0]!.receipts[0]!.keyId = 'nobody';
});
v1('v1-signature', 'bad_signature', 'pb-fair-1, a swapped signature', (ts) => {
  ts[0]!.receipts[0]!.signature = ts[0]!.receipts[1]!.signature;
});
v1('v1-bad-record', 'bad_record', 'pb-fair-1, an unknown member', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.extra = 1)));
v1('v1-chain', 'chain_broken', 'pb-fair-1, a round removed', (ts) => {
  ts[0]!.receipts.splice(2, 1);
});
v1('v1-table', 'table_mismatch', 'pb-fair-1, a start for another table', (ts) => v1sign(ts[0]!.start!, (b) => (b.table = 'x')));
v1('v1-shoe', 'shoe_mismatch', 'pb-fair-1, a start for another shoe', (ts) => v1sign(ts[0]!.start!, (b) => (b.shoe = 9)));
v1('v1-params', 'bad_params', 'pb-fair-1, 9 decks', (ts) => v1sign(ts[0]!.commitment, (b) => (b.params.decks = 9)));
v1('v1-client-seed', 'bad_client_seed', 'pb-fair-1, a control character in the seed', (ts) => v1sign(ts[0]!.start!, (b) => (b.clientSeed = 'a\u0001')));
v1('v1-cut', 'bad_cut', 'pb-fair-1, cut 0', (ts) => v1sign(ts[0]!.start!, (b) => (b.cut = 0)));
v1('v1-missing-start', 'missing_start', 'pb-fair-1, rounds without a start', (ts) => {
  delete ts[0]!.start;
});
v1('v1-commitment', 'commitment_mismatch', 'pb-fair-1, a wrong revealed seed', (ts) => v1sign(ts[0]!.reveal!, (b) => (b.serverSeed = SEED[5])));
v1('v1-round-count', 'round_count_mismatch', 'pb-fair-1, the reveal counts another number of rounds', (ts) => v1sign(ts[0]!.reveal!, (b) => (b.rounds += 1)));
v1('v1-reason', 'reveal_reason_mismatch', 'pb-fair-1, ended-early at the cut card', (ts) => v1sign(ts[0]!.reveal!, (b) => (b.reason = 'ended-early')));
v1('v1-round-number', 'round_mismatch', 'pb-fair-1, a receipt with another round number', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.round = 2)));
v1('v1-bets', 'bets_invalid', 'pb-fair-1, a bet off the step', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.bets[0].amount = 150)));
v1('v1-cards', 'card_mismatch', 'pb-fair-1, a card changed', (ts) =>
  v1sign(ts[0]!.receipts[0]!, (b) => (b.cards[0].code = b.cards[0].code === 'AS' ? '2S' : 'AS')),
);
v1('v1-total', 'total_mismatch', 'pb-fair-1, a total changed', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.playerTotal = (b.playerTotal + 1) % 10)));
v1('v1-outcome', 'outcome_mismatch', 'pb-fair-1, the outcome changed', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.outcome = 'tie')));
v1('v1-natural', 'natural_mismatch', 'pb-fair-1, natural flipped', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.natural = !b.natural)));
v1('v1-pair', 'pair_mismatch', 'pb-fair-1, a pair flipped', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.playerPair = !b.playerPair)));
v1('v1-payout', 'payout_mismatch', 'pb-fair-1, a payout changed', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.payouts[0].returned += 100)));
v1('v1-stake', 'stake_mismatch', 'pb-fair-1, staked changed', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.staked += 100)));
v1('v1-balance', 'balance_mismatch', 'pb-fair-1, balanceAfter changed', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.balanceAfter += 100)));
v1('v1-cut-card', 'cut_card_mismatch', 'pb-fair-1, cutCardOut on round 1', (ts) => v1sign(ts[0]!.receipts[0]!, (b) => (b.cutCardOut = true)));
v1('v1-after-cut-card', 'round_after_cut_card', 'pb-fair-1, a round after the cut card', async (ts) => {
  const t = ts[0]!;
  const last = t.receipts.at(-1)!;
  const extra = structuredClone(last);
  await v1sign(extra, (b) => ((b.round += 1), (b.prev = last.hash)));
  t.receipts.push(extra);
});

// ── pb-shared-1 (part III): shared tables ─────────────────────────────────────────────────────
for (const c of await sharedCases(operator, renamed)) cases.push({ ...c, version: 'pb-shared-1' });

// ── pb-fair-2: transfer records (§B14), after every other case so that their files keep their numbers ─
const transferAsk = (round: number, kind: TransferAsk['kind'], amount: number, shoe = 1): TransferAsk => ({
  id: sharedTransferId('hall-1/shared', shoe, round, 'shared-seat', kind),
  table: 'hall-1/shared',
  shoe,
  round,
  kind,
  amount,
});
/** Shoe A with transfers before its start, between rounds 2 and 3 (a debit and its credit) and before the player's end; shoe C opens after a refund. */
const transferShoes = (): ShoeScript[] => {
  const a = shoeA('player', 6);
  a.transfersBeforeStart = [transferAsk(1, 'credit', 2_500)];
  a.rounds[2]!.transfersBefore = [transferAsk(2, 'debit', 3_000), transferAsk(2, 'credit', 5_850)];
  a.transfersBeforeEnd = [transferAsk(3, 'debit', 1_000)];
  const c = shoeC();
  c.transfersBeforeStart = [transferAsk(3, 'refund', 1_000)];
  c.rounds[1]!.transfersBefore = [transferAsk(1, 'debit', 400, 2)];
  return [a, shoeB(), c];
};
const withTransfers = (mutate?: Mutate) => table(transferShoes(), mutate);
v2('ok-transfers', 'ok', 'shared-table transfers before a start, between rounds, before an end and across shoes: the balance runs through them', () =>
  withTransfers(),
);
v2('ok-transfer-requests-follow-seen', 'ok', 'bet and end requests naming the newest record before the transfers (the player had not seen them)', () =>
  table([
    {
      ...shoeA('player', 3),
      rounds: rounds(1, 3).map((r, i) => (i === 1 ? { ...r, transfersBefore: [transferAsk(1, 'credit', 700)], betFollows: 'seen' as const } : r)),
      transfersBeforeEnd: [transferAsk(2, 'refund', 300)],
      endFollows: 'seen',
    },
  ]),
);
v2('ok-transfer-last', 'ok', 'an open shoe whose newest record is a transfer', () =>
  table([{ ...shoeA('open', 2), transfersBeforeEnd: [transferAsk(1, 'debit', 900)] }]),
);
v2('ok-transfer-void-timeout', 'ok', 'a void, then a transfer, then a void-timeout reveal voidAfterSeconds after the transfer', () =>
  table([
    {
      params: SHOE_8,
      serverSeed: SEED[3]!,
      clientSeed: 'x',
      cut: 1,
      rounds: rounds(1, 2, { 2: 'void' }),
      transfersBeforeEnd: [transferAsk(1, 'credit', 100)],
      end: 'void-timeout',
    },
  ]),
);
v2('transfer-in-round', 'transfer_in_round', 'a transfer between an acceptance and its receipt', async () => {
  const f = await withTransfers();
  const i = indexOf(f, 'acceptance', 2);
  const t = f.records[indexOf(f, 'transfer', 2)]!.body as Transfer;
  const acc = f.records[i]!;
  return { version: 'pb-fair-2', records: [...f.records.slice(0, i + 1), await signRecord({ ...t, prev: acc.hash, issuedAt: acc.body.issuedAt }, operator)] };
});
v2('transfer-after-reveal', 'out_of_sequence', 'a transfer between a reveal and the next commitment', async () => {
  const f = await withTransfers();
  const i = indexOf(f, 'reveal');
  const t = f.records[indexOf(f, 'transfer')]!.body as Transfer;
  const r = f.records[i]!;
  return {
    version: 'pb-fair-2',
    records: [...f.records.slice(0, i + 1), await signRecord({ ...t, transfer: hex('after reveal'), prev: r.hash, issuedAt: r.body.issuedAt }, operator)],
  };
});
v2('transfer-bad-kind', 'bad_transfer', 'a transfer of a kind other than debit, credit and refund', () =>
  withTransfers(at('record', 'transfer', (b) => (b.kind = 'bonus'))),
);
v2('transfer-zero-amount', 'bad_transfer', 'a transfer of 0', () => withTransfers(at('record', 'transfer', (b) => (b.amount = 0))));
v2('transfer-bad-id', 'bad_transfer', 'a transfer id in upper-case hex', () =>
  withTransfers(at('record', 'transfer', (b) => (b.transfer = b.transfer.toUpperCase()))),
);
v2('transfer-duplicate', 'duplicate_transfer', 'the same transfer id recorded twice (a movement applied twice)', () =>
  withTransfers(at('record', 'transfer', (b) => (b.transfer = transferAsk(2, 'debit', 3_000).id), 3)),
);
v2('transfer-overdrawn', 'transfer_overdrawn', 'a debit larger than the balance (a refused debit is no record)', () =>
  withTransfers(at('record', 'transfer', (b) => ((b.amount = b.balanceBefore + 100), (b.balanceAfter = 0)), 2)),
);
v2('transfer-balance-before', 'balance_mismatch', "a transfer's balanceBefore is not the balance carried", () =>
  withTransfers(at('record', 'transfer', (b) => ((b.balanceBefore += 100), (b.balanceAfter += 100)), 2)),
);
v2('transfer-balance-after', 'balance_mismatch', "a transfer's balanceAfter is not balanceBefore minus the debit", () =>
  withTransfers(at('record', 'transfer', (b) => (b.balanceAfter += 100), 2)),
);
v2('transfer-negative-balance', 'bad_record', 'a transfer leaving a negative balance', () =>
  withTransfers(at('record', 'transfer', (b) => ((b.amount = b.balanceBefore + 100), (b.balanceAfter = -100)), 2)),
);
v2('transfer-unknown-member', 'bad_record', 'a transfer with an unknown member', () => withTransfers(at('record', 'transfer', (b) => (b.player = 'x'))));
v2('transfer-closing-balance', 'closing_balance_mismatch', 'a reveal closing with the balance before the last transfer', () =>
  withTransfers(at('record', 'reveal', (b) => (b.closingBalance += 1_000))),
);
v2('transfer-acceptance-balance', 'balance_mismatch', 'an acceptance after a transfer with the balance from before it', () =>
  withTransfers(at('record', 'acceptance', (b) => (b.balanceBefore += 3_000 - 5_850), 3)),
);
v2('transfer-other-shoe', 'shoe_mismatch', 'a transfer naming another private shoe', () => withTransfers(at('record', 'transfer', (b) => (b.shoe = 2), 2)));
v2('transfer-dropped', 'chain_broken', 'a transfer removed from the chain', async () => {
  const f = await withTransfers();
  const i = indexOf(f, 'transfer', 2);
  return { version: 'pb-fair-2', records: f.records.filter((_, j) => j !== i) };
});
v2('transfer-void-timeout-early', 'reveal_too_early', 'a void-timeout reveal less than voidAfterSeconds after the transfer before it', () =>
  table(
    [
      {
        params: SHOE_8,
        serverSeed: SEED[3]!,
        clientSeed: 'x',
        cut: 1,
        rounds: rounds(1, 2, { 2: 'void' }),
        transfersBeforeEnd: [transferAsk(1, 'credit', 100)],
        end: 'void-timeout',
      },
    ],
    at('record', 'reveal', (b) => (b.issuedAt = new Date(Date.parse(b.issuedAt) - 1000).toISOString())),
  ),
);

// ── pb-fair-2 in wallet mode (§B15), after every other case so that their files keep their numbers ─
const WALLET_EUR = { operator: 'demo', player: 'alice', currency: 'EUR' };
/** Euro cents: a step of 5 cents, which only a wallet shoe (round-down commission) may commit. */
const EUR_ROOM = { min: 100, max: 10_000, step: 5, chips: [100, 500, 1_000, 5_000] };
const JPY_ROOM = { min: 100, max: 100_000, step: 1, chips: [100, 500, 1_000, 5_000] };
const BHD_ROOM = { min: 250, max: 250_000, step: 5, chips: [250, 1_000, 5_000] };
/** Rounds whose Banker stakes are not multiples of 20 minor units, so that a Banker win rounds its commission. */
const walletRounds = (shoe: number, n: number, unit: number, extra: Record<number, Partial<RoundScript>> = {}): RoundScript[] =>
  Array.from({ length: n }, (_, i) => ({
    bets: [
      { sector: i % 5, box: 'banker' as const, amount: unit * (20 + 3 * ((i % 7) + 1)) },
      ...(i % 3 === 2 ? [{ sector: (i + 2) % 5, box: 'player' as const, amount: unit * 20 }] : []),
      ...(i % 4 === 1 ? [{ sector: (i + 1) % 5, box: 'tie' as const, amount: unit * 20 }] : []),
    ],
    secret: secret(10 + shoe, i + 1),
    ...extra[i + 1],
  }));
/** A wallet table of 'conformance' (the session id the wallet sees) in `wallet`'s currency. */
const walletTable = (shoes: ShoeScript[], mutate?: Mutate, wallet: typeof WALLET_EUR = WALLET_EUR, openingBalance = 50_000) =>
  table(shoes, mutate, { wallet, openingBalance });
/** Two EUR shoes: a debit refused before round 3 (its attempt is used up), deposits and withdrawals between rounds, a void with its rollback. */
const eurShoes = (): ShoeScript[] => [
  {
    params: SHOE_6,
    limits: EUR_ROOM,
    serverSeed: SEED[0]!,
    clientSeed: 'wallet EUR',
    cut: 26,
    rounds: walletRounds(1, 12, 5, {
      3: { failedDebitsBefore: 1 },
      5: { walletMoved: 2_500 },
      6: { fate: 'void' },
      8: { walletMoved: -1_000, failedDebitsBefore: 2 },
    }),
    end: 'player',
  },
  {
    params: RESHUFFLE_8,
    limits: EUR_ROOM,
    serverSeed: SEED[1]!,
    clientSeed: 'wallet EUR 2',
    cut: 100,
    rounds: walletRounds(2, 3, 5, { 2: { walletMoved: 700 } }),
  },
];
const eur = (mutate?: Mutate) => walletTable(eurShoes(), mutate);
/** The n-th wallet-shoe record of a type gets `change` before it is signed. */
const inEur = (type: string, change: (body: any) => unknown, nth = 1, shoe = 1) => eur(at('record', type, change, nth, shoe));
/** A file's n-th record of a type, parsed. */
const nth = <T>(file: FairnessFile, type: string, n = 1) => file.records[indexOf(file, type, n)]!.body as T;

v2(
  'wallet-ok-eur',
  'ok',
  'a wallet table in EUR cents, step 5: a refused debit before round 3, deposits and withdrawals between rounds, a void with its rollback, two shoes',
  () => eur(),
);
/** One shoe of `player`'s in `currency`, opening with `opening` minor units. */
const oneShoeIn = (player: string, currency: string, opening: number, shoe: ShoeScript) =>
  walletTable([shoe], undefined, { operator: 'demo', player, currency }, opening);
v2('wallet-ok-jpy', 'ok', 'a wallet table in JPY (0 decimals), step 1: odd Banker stakes whose commission rounds down', () =>
  oneShoeIn('taro', 'JPY', 1_000_000, {
    params: SHOE_6,
    limits: JPY_ROOM,
    serverSeed: SEED[2]!,
    clientSeed: '円',
    cut: 157,
    rounds: walletRounds(1, 8, 7),
    end: 'player',
  }),
);
v2('wallet-ok-bhd', 'ok', 'a wallet table in BHD (3 decimals, fils), step 5', () =>
  oneShoeIn('layla', 'BHD', 2_000_000, {
    params: RESHUFFLE_8,
    limits: BHD_ROOM,
    serverSeed: SEED[3]!,
    clientSeed: 'دينار',
    cut: 50,
    rounds: walletRounds(1, 3, 15),
    end: 'reshuffle-limit',
  }),
);
v2('wallet-ok-void-rollback', 'ok', 'a wallet round voided (its rollback gives the stake back), then the shoe ends by void-timeout', () =>
  walletTable([
    {
      params: SHOE_8,
      limits: EUR_ROOM,
      serverSeed: SEED[3]!,
      clientSeed: 'x',
      cut: 1,
      rounds: walletRounds(1, 2, 5, { 2: { fate: 'void' } }),
      end: 'void-timeout',
    },
  ]),
);
v2('wallet-ok-zero-credit', 'ok', 'a lost round closed by a zero credit', async () => {
  // The first round secret (in a fixed order) that loses a Tie bet.
  for (let k = 1; k < 20; k++) {
    const f = await walletTable([
      {
        params: RESHUFFLE_1,
        limits: EUR_ROOM,
        serverSeed: SEED[4]!,
        clientSeed: 'zero',
        cut: 5,
        rounds: [{ bets: [{ sector: 0, box: 'tie', amount: 100 }], secret: secret(20, k) }],
      },
    ]);
    if (nth<Receipt>(f, 'receipt').credit?.amount === 0) return f;
  }
  throw new RangeError('wallet-ok-zero-credit: no lost round');
});
v2('wallet-ok-pending', 'ok', 'an open wallet shoe: its transactions are checked before its seed is revealed', () =>
  walletTable([{ ...eurShoes()[0]!, end: 'open' }]),
);
v2('wallet-bad-player', 'bad_wallet', "a wallet whose player id has a space: it cannot name the wallet's transactions", () =>
  inEur('commitment', (b) => (b.wallet.player = 'al ice')),
);
v2('wallet-unknown-currency', 'unknown_currency', 'a wallet in "EURO", not an ISO 4217 code', () => inEur('commitment', (b) => (b.wallet.currency = 'EURO')));
v2('wallet-currency-without-minor-unit', 'unknown_currency', 'a wallet in XAU (gold), an ISO 4217 code without minor units', () =>
  inEur('commitment', (b) => (b.wallet.currency = 'XAU')),
);
v2('wallet-other-currency', 'wallet_mismatch', "shoe 2's wallet in another currency than shoe 1's", () =>
  inEur('commitment', (b) => (b.wallet.currency = 'USD'), 1, 2),
);
v2('wallet-dropped', 'wallet_mismatch', 'a shoe without a wallet after a wallet shoe', () => inEur('commitment', (b) => delete b.wallet, 1, 2));
v2('wallet-after-play', 'wallet_mismatch', 'a wallet shoe after a play-money shoe', async () => {
  const f = await table([shoeB()]);
  const reveal = f.records.at(-1)! as Signed<Reveal>;
  const w = await table([eurShoes()[1]!], undefined, {
    wallet: WALLET_EUR,
    openingBalance: reveal.body.closingBalance,
    firstShoe: 2,
    prev: reveal.hash,
    startTime: Date.parse(reveal.body.issuedAt) + 1000,
  });
  return { version: 'pb-fair-2', records: [...f.records, ...w.records] };
});
v2('wallet-missing-debit', 'missing_transaction', 'an acceptance of a wallet shoe without its debit', async () => {
  const f = await eur();
  return forge(f, indexOf(f, 'acceptance', 2), (b) => delete b.debit);
});
v2('wallet-missing-credit', 'missing_transaction', 'a receipt of a wallet shoe without its credit', () => inEur('receipt', (b) => delete b.credit, 2));
v2('wallet-missing-rollback', 'missing_transaction', 'a void of a wallet shoe without its rollback', () => inEur('void', (b) => delete b.rollback));
v2('wallet-debit-in-play', 'unexpected_transaction', 'an acceptance of a play-money shoe carrying a debit', () =>
  table([shoeA('player', 3)]).then((f) =>
    forge(
      f,
      indexOf(f, 'acceptance', 2),
      (b) => (b.debit = { transaction: 'pbw1-00000000000000000000000000000000', attempt: 2, amount: 0, balanceAfter: b.balanceBefore }),
    ),
  ),
);
v2('wallet-attempt-reused', 'attempt_mismatch', "round 3's debit reuses round 2's attempt", () => inEur('acceptance', (b) => (b.debit.attempt = 2), 3));
v2('wallet-attempt-zero', 'attempt_mismatch', "round 1's debit numbered attempt 0", () => inEur('acceptance', (b) => (b.debit.attempt = 0)));
v2(
  'wallet-debit-id-of-round',
  'transaction_id_mismatch',
  "after a refused debit, round 3's debit carries the id of attempt 3 (the round), not of its attempt 4",
  async () => {
    const ids = await walletTransactionIds(WALLET_EUR, 'conformance', 1, 3);
    if (!ids.ok) throw new RangeError(ids.error.message);
    return inEur('acceptance', (b) => (b.debit.transaction = ids.value.debit), 3);
  },
);
v2('wallet-credit-id', 'transaction_id_mismatch', "a receipt's credit carrying its debit's id", async () => {
  const ids = await walletTransactionIds(WALLET_EUR, 'conformance', 1, 1);
  if (!ids.ok) throw new RangeError(ids.error.message);
  return inEur('receipt', (b) => (b.credit.transaction = ids.value.debit));
});
v2('wallet-rollback-id', 'transaction_id_mismatch', "a void's rollback carrying the credit id", async () => {
  const f = await eur();
  const attempt = nth<Acceptance>(f, 'acceptance', 6).debit!.attempt;
  const ids = await walletTransactionIds(WALLET_EUR, 'conformance', 1, attempt);
  if (!ids.ok) throw new RangeError(ids.error.message);
  return inEur('void', (b) => (b.rollback.transaction = ids.value.credit));
});
v2('wallet-debit-amount', 'debit_amount_mismatch', 'a debit of 5 cents more than the stake (and its balance after 5 less)', () =>
  inEur('acceptance', (b) => ((b.debit.amount += 5), (b.debit.balanceAfter -= 5)), 2),
);
v2('wallet-debit-balance', 'debit_balance_mismatch', "an acceptance's balanceBefore that is not the debit's balanceAfter plus its amount", () =>
  inEur('acceptance', (b) => (b.balanceBefore += 100), 2),
);
v2('wallet-credit-amount', 'credit_amount_mismatch', 'a credit of one cent more than the round returns', () =>
  inEur('receipt', (b) => (b.credit.amount += 1), 2),
);
v2('wallet-rollback-amount', 'rollback_amount_mismatch', 'a rollback of 5 cents less than the debit it undoes', () =>
  inEur('void', (b) => (b.rollback.amount -= 5)),
);
v2(
  'wallet-commission-rounded-up',
  'payout_mismatch',
  "a Banker win in a wallet shoe paid with its commission rounded down (the player's favour): the rule rounds the winnings down",
  async () => {
    const f = await eur();
    const n = f.records
      .filter((r) => r.body.type === 'receipt')
      .findIndex((r) => {
        const b = r.body as Receipt;
        return b.payouts.some((p) => p.box === 'banker' && p.result === 'win' && (p.amount * 19) % 20 !== 0);
      });
    if (n < 0) throw new RangeError('wallet-commission-rounded-up: no Banker win with a fractional commission');
    return inEur(
      'receipt',
      (b) => {
        const p = b.payouts.find((x: any) => x.box === 'banker' && x.result === 'win');
        p.returned += 1;
        p.net += 1;
        b.returned += 1;
        b.balanceAfter += 1;
        b.credit.amount += 1;
      },
      n + 1,
    );
  },
);
v2('wallet-play-step-in-wallet-limits', 'bad_params', 'a wallet shoe whose limits are not multiples of their step (step 5, minimum 102)', () =>
  inEur('commitment', (b) => (b.limits.min = 102)),
);
v2('wallet-closing-balance', 'closing_balance_mismatch', "a wallet shoe's reveal closing with one cent less than its last receipt's balanceAfter", () =>
  inEur('reveal', (b) => (b.closingBalance -= 1)),
);

// ── pb-fair-2: a wallet shoe's transfers (§B15 "Shared tables"), after every other case so that their files keep their numbers ─
const walletAsk = (round: number, kind: TransferAsk['kind'], amount: number, walletMoved = 0, shoe = 1): TransferScript => ({
  ...transferAsk(round, kind, amount, shoe),
  ...(walletMoved ? { walletMoved } : {}),
});
/**
 * The two EUR shoes with a shared table's movements: a won bet (debit, credit) before the start, a
 * lost one after a deposit (its debit, its zero credit), a refunded one, a debit before the
 * player's end whose credit comes in shoe 2.
 */
const walletTransferShoes = (): ShoeScript[] => {
  const [a, b] = eurShoes();
  a!.transfersBeforeStart = [walletAsk(1, 'debit', 1_000), walletAsk(1, 'credit', 1_950)];
  a!.rounds[2]!.transfersBefore = [walletAsk(2, 'debit', 500, 300), walletAsk(2, 'credit', 0)];
  a!.rounds[5]!.transfersBefore = [walletAsk(3, 'debit', 700), walletAsk(3, 'refund', 700)];
  a!.transfersBeforeEnd = [walletAsk(4, 'debit', 200)];
  b!.transfersBeforeStart = [walletAsk(4, 'credit', 400)];
  return [a!, b!];
};
const eurTransfers = (mutate?: Mutate) => walletTable(walletTransferShoes(), mutate);
/** The n-th transfer record (of shoe `shoe`) of the EUR table gets `change` before it is signed. */
const inEurTransfer = (change: (body: any) => unknown, nth = 1, shoe = 1) => eurTransfers(at('record', 'transfer', change, nth, shoe));
const sharedTxn = (transfer: string, kind: 'debit' | 'credit' | 'rollback', table = 'conformance') => sharedTransactionId('demo', table, transfer, 1, kind);

v2(
  'wallet-transfers-ok',
  'ok',
  "a wallet table's shared-table transfers: each carries its wallet debit, credit (0 for a lost bet) or rollback; a debit after a deposit starts from the wallet's answer",
  () => eurTransfers(),
);
v2('wallet-transfers-ok-jpy', 'ok', 'a JPY wallet table with a debit and its credit between rounds', () =>
  oneShoeIn('ken', 'JPY', 100_000, {
    params: SHOE_6,
    limits: JPY_ROOM,
    serverSeed: SEED[5]!,
    clientSeed: 'wallet JPY transfers',
    cut: 100,
    rounds: walletRounds(1, 3, 7).map((r, i) => (i === 1 ? { ...r, transfersBefore: [walletAsk(1, 'debit', 1_300), walletAsk(1, 'credit', 2_535)] } : r)),
  }),
);
v2('wallet-transfer-ok-last', 'ok', "an open wallet shoe whose newest record is a transfer's debit", () =>
  walletTable([{ ...eurShoes()[0]!, rounds: eurShoes()[0]!.rounds.slice(0, 2), end: 'open', transfersBeforeEnd: [walletAsk(1, 'debit', 900, -50)] }]),
);
v2('wallet-transfer-debit-missing', 'missing_transaction', "a wallet shoe's debit transfer without its debit", () => inEurTransfer((b) => delete b.debit));
v2('wallet-transfer-credit-missing', 'missing_transaction', "a wallet shoe's credit transfer without its credit (the zero credit)", () =>
  inEurTransfer((b) => delete b.credit, 4),
);
v2('wallet-transfer-rollback-missing', 'missing_transaction', "a wallet shoe's refund without its rollback", () => inEurTransfer((b) => delete b.rollback, 6));
v2('wallet-transfer-two-members', 'unexpected_transaction', 'a debit transfer that also carries a credit', () =>
  inEurTransfer((b) => (b.credit = { transaction: b.debit.transaction, amount: 0 })),
);
v2('wallet-transfer-refund-as-credit', 'unexpected_transaction', 'a refund carrying a credit instead of its rollback', () =>
  inEurTransfer((b) => ((b.credit = b.rollback), delete b.rollback), 6),
);
v2('wallet-transfer-in-play-shoe', 'unexpected_transaction', "a play-money shoe's transfer carrying a wallet debit", () =>
  withTransfers(
    at('record', 'transfer', (b) => (b.debit = { transaction: sharedTxn(b.transfer, 'debit'), attempt: 1, amount: b.amount, balanceAfter: b.balanceAfter }), 2),
  ),
);
v2('wallet-transfer-debit-unknown-member', 'bad_record', "a transfer's debit with an unknown member", () => inEurTransfer((b) => (b.debit.round = 1)));
v2('wallet-transfer-credit-negative', 'bad_record', "a transfer's credit of −1", () => inEurTransfer((b) => (b.credit.amount = -1), 2));
v2('wallet-transfer-zero-debit', 'bad_transfer', 'a debit transfer of 0 in a wallet shoe: only a credit may be 0', () =>
  inEurTransfer((b) => ((b.amount = 0), (b.debit.amount = 0), (b.balanceBefore = b.debit.balanceAfter), (b.balanceAfter = b.balanceBefore))),
);
v2('wallet-transfer-zero-refund', 'bad_transfer', 'a refund of 0 in a wallet shoe', () =>
  inEurTransfer((b) => ((b.amount = 0), (b.rollback.amount = 0), (b.balanceAfter = b.balanceBefore)), 6),
);
v2('wallet-transfer-attempt-2', 'attempt_mismatch', "a transfer's debit numbered attempt 2: a transfer is answered once, its debit is attempt 1", () =>
  inEurTransfer((b) => ((b.debit.attempt = 2), (b.debit.transaction = sharedTransactionId('demo', 'conformance', b.transfer, 2, 'debit'))), 3),
);
v2('wallet-transfer-private-id', 'transaction_id_mismatch', "a transfer's debit carrying a private round's id (attempt 1 of shoe 1)", async () => {
  const ids = await walletTransactionIds(WALLET_EUR, 'conformance', 1, 1);
  if (!ids.ok) throw new RangeError(ids.error.message);
  return inEurTransfer((b) => (b.debit.transaction = ids.value.debit));
});
v2('wallet-transfer-credit-of-debit', 'transaction_id_mismatch', "a credit carrying the id derived from its debit's transfer, not its own", () =>
  inEurTransfer((b) => (b.credit.transaction = sharedTxn(transferAsk(1, 'debit', 1_000).id, 'credit')), 2),
);
v2('wallet-transfer-rollback-as-credit-id', 'transaction_id_mismatch', "a refund's rollback carrying the id of kind credit", () =>
  inEurTransfer((b) => (b.rollback.transaction = sharedTxn(b.transfer, 'credit')), 6),
);
v2('wallet-transfer-other-session', 'transaction_id_mismatch', "a transfer's debit id derived for another session", () =>
  inEurTransfer((b) => (b.debit.transaction = sharedTxn(b.transfer, 'debit', 'other-session'))),
);
v2('wallet-transfer-debit-amount', 'debit_amount_mismatch', "a transfer's debit of 5 cents more than the transfer", () =>
  inEurTransfer((b) => ((b.debit.amount += 5), (b.debit.balanceAfter -= 5)), 3),
);
v2('wallet-transfer-credit-amount', 'credit_amount_mismatch', "a transfer's credit of one cent more than the transfer", () =>
  inEurTransfer((b) => (b.credit.amount += 1), 2),
);
v2('wallet-transfer-rollback-amount', 'rollback_amount_mismatch', "a refund's rollback of 5 cents less than the refund", () =>
  inEurTransfer((b) => (b.rollback.amount -= 5), 6),
);
v2('wallet-transfer-debit-balance', 'debit_balance_mismatch', "a debit transfer's balanceBefore that is not its debit's balanceAfter plus its amount", () =>
  inEurTransfer((b) => ((b.balanceBefore += 100), (b.balanceAfter += 100)), 3),
);
v2('wallet-transfer-credit-balance', 'balance_mismatch', "a credit transfer's balanceBefore that is not the balance carried", () =>
  inEurTransfer((b) => ((b.balanceBefore += 100), (b.balanceAfter += 100)), 2),
);
v2('wallet-transfer-debit-after', 'balance_mismatch', "a debit transfer's balanceAfter that is not balanceBefore minus the debit", () =>
  inEurTransfer((b) => (b.balanceAfter += 5), 3),
);
v2('wallet-transfer-duplicate', 'duplicate_transfer', "a wallet shoe's transfer id recorded twice", () =>
  inEurTransfer((b) => {
    b.transfer = transferAsk(1, 'debit', 1_000).id;
    b.debit.transaction = sharedTxn(b.transfer, 'debit');
  }, 3),
);
v2('wallet-transfer-closing-balance', 'closing_balance_mismatch', "a wallet shoe's reveal closing with the balance before its last transfer", () =>
  eurTransfers(at('record', 'reveal', (b) => (b.closingBalance += 200))),
);

// ── write ────────────────────────────────────────────────────────────────────────────────────
const publicJwk = { ...operator.publicJwk };
const { kid: _kid, ...noKid } = publicJwk as JsonWebKey & { kid?: string };
for (const f of readdirSync(dir)) if (f.endsWith('.json')) rmSync(new URL(f, dir));
writeFileSync(new URL('jwks.json', dir), JSON.stringify({ keys: [publicJwk] }, null, 2) + '\n');
writeFileSync(new URL('jwks-no-kid.json', dir), JSON.stringify({ keys: [noKid] }, null, 2) + '\n');
writeFileSync(new URL('jwks-duplicate-kid.json', dir), JSON.stringify({ keys: [{ ...stranger.publicJwk, kid: operator.keyId }, publicJwk] }, null, 2) + '\n');
// ── pb-shared-2 (part IV): closes that commit to a Merkle root, numbered from 300 ─────────────
for (const [i, c] of (await merkleCases(operator)).entries()) cases.push({ ...c, version: 'pb-shared-2', number: MERKLE_CASES_FROM + i });

const manifest = [];
for (const [i, c] of cases.entries()) {
  const file = `${String(c.number ?? i + 1).padStart(3, '0')}-${c.name}.json`;
  writeFileSync(new URL(file, dir), await c.build());
  manifest.push({ file, jwks: c.jwks ?? 'jwks.json', expect: c.expect, version: c.version, about: c.about });
}
writeFileSync(
  new URL('manifest.json', dir),
  JSON.stringify(
    {
      about: 'FAIRNESS.md §B12: a verifier is conformant when it reports each case\'s expected first code ("ok" when nothing fails). Written by generate.ts.',
      cases: manifest,
    },
    null,
    2,
  ) + '\n',
);
console.log(`wrote ${manifest.length} cases to test/vectors/conformance/`);
