/**
 * The verifier on honest and dishonest transcripts: rounds dropped, swapped, inserted; seeds, cuts,
 * parameters and keys changed; unrevealed shoes; malformed input. Field-by-field tampering of
 * receipts is in fairness-tamper.test.ts.
 */
import { describe, expect, test } from 'vitest';
import {
  buildFair1ReceiptBody,
  FAIR1_DEFAULT_SHOE_PARAMS,
  deriveFair1Shoe,
  generateSigningKey,
  playRound,
  fair1RecordHash,
  settle,
  type Fair1ReceiptBody,
  type Fair1Signed,
  type Fair1Transcript,
  type Fair1VerifyFailureCode,
  verifyFair1Transcript,
  verifyFair1Transcripts,
} from '../../shared/index.ts';
import { playFair1Transcript } from '../players/pb-fair-1.ts';
import { chain, clone, flip, loadVectors, type Path, reseal, rehash, testKey, testVerifyKeys } from './fairness-fixtures.ts';

const vectors = loadVectors();
const oneDeck = vectors.transcripts[0]!.transcript; // 7 rounds to the cut card
const reshuffle = vectors.transcripts[1]!.transcript; // reshuffle mode, 3 rounds, ended early

describe('honest transcripts', () => {
  test('the golden transcripts verify, chained shoe to shoe', async () => {
    const reports = await verifyFair1Transcripts([oneDeck, reshuffle], await testVerifyKeys());
    expect(reports.map((r) => [r.ok, r.pending, r.failure])).toEqual([
      [true, false, undefined],
      [true, false, undefined],
    ]);
    expect(reports[0]!.rounds.map((r) => r.status)).toEqual(Array(7).fill('verified'));
  });

  test('an 8-deck shoe played to the cut card verifies (about 80 rounds)', async () => {
    const { key } = await generateSigningKey();
    const t = await playFair1Transcript({
      table: 'big',
      shoe: 1,
      params: { ...FAIR1_DEFAULT_SHOE_PARAMS, decks: 8 },
      serverSeed: 'ab'.repeat(32),
      clientSeed: 'eight decks',
      cut: 200,
      key,
      balance: 1_000_000,
      bets: (r) => [{ sector: r % 5, box: (['player', 'banker', 'tie'] as const)[r % 3]!, amount: 1_000 }],
      clock: (n) => new Date(Date.UTC(2025, 5, 1, 0, 0, n)).toISOString(),
    });
    expect(t.receipts.length).toBeGreaterThan(70);
    expect(t.reveal!.body.reason).toBe('cut-card');
    const report = await verifyFair1Transcript(t, { keys: [key.publicJwk] });
    expect(report.failure).toBeUndefined();
    expect(report.ok).toBe(true);
  });

  test('an unrevealed shoe: signatures and chain checked, rounds pending, ok', async () => {
    const t = clone(oneDeck);
    delete t.reveal;
    const report = await verifyFair1Transcript(t, await testVerifyKeys());
    expect(report).toMatchObject({ ok: true, pending: true });
    expect(report.rounds.every((r) => r.status === 'pending' && r.ok)).toBe(true);
  });

  test('a shoe committed but not started, and one ended before any round', async () => {
    const t = clone(oneDeck);
    delete t.start;
    t.receipts = [];
    delete t.reveal;
    expect(await verifyFair1Transcript(t, await testVerifyKeys())).toEqual({ ok: true, pending: true, rounds: [] });
    const ended = clone(oneDeck);
    ended.receipts = [];
    Object.assign(ended.reveal!.body, { rounds: 0, reason: 'ended-early', prev: ended.start!.hash });
    await reseal(ended, 2);
    expect(await verifyFair1Transcript(ended, await testVerifyKeys())).toEqual({ ok: true, pending: false, rounds: [] });
  });
});

describe('the envelope and the keys', () => {
  test('the envelope: hash, key id and signature', async () => {
    const jwks = await testVerifyKeys();
    const cases: [string, (r: Fair1Signed<Fair1ReceiptBody>) => void, Fair1VerifyFailureCode][] = [
      ['hash', (r) => (r.hash = r.hash.replace(/^./, (c) => (c === '0' ? '1' : '0'))), 'hash_mismatch'],
      ['keyId', (r) => (r.keyId += '!'), 'unknown_key'],
      ['signature (one character)', (r) => (r.signature = r.signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))), 'bad_signature'],
      ['signature (not base64url)', (r) => (r.signature += '!'), 'bad_signature'],
      ['body changed and hash recomputed without the key', (r) => ((r.body.balanceAfter += 1000), rehash(r)), 'bad_signature'],
    ];
    for (const [what, change, code] of cases) {
      const t = clone(oneDeck);
      change(t.receipts[3]!);
      expect((await verifyFair1Transcript(t, jwks)).failure, what).toMatchObject({ round: 4, record: 'receipt', code });
    }
  });

  test('a record signed by another key, or a JWKS without the key', async () => {
    const { key: other } = await generateSigningKey();
    const t = clone(oneDeck);
    await reseal(t, 4, other);
    expect((await verifyFair1Transcript(t, await testVerifyKeys())).failure).toMatchObject({ round: 3, code: 'unknown_key' });
    expect((await verifyFair1Transcript(oneDeck, { keys: [other.publicJwk] })).failure).toMatchObject({
      round: null,
      record: 'commitment',
      code: 'unknown_key',
    });
    // A retired key still in the JWKS keeps its receipts valid.
    expect((await verifyFair1Transcript(t, { keys: [other.publicJwk, (await testKey()).publicJwk] })).ok).toBe(true);
  });
});

describe('rounds removed, reordered, inserted', () => {
  test('dropping a middle round breaks the chain at its place', async () => {
    for (const k of [0, 3, 5]) {
      const t = clone(oneDeck);
      t.receipts.splice(k, 1);
      expect((await verifyFair1Transcript(t, await testVerifyKeys())).failure, `drop round ${k + 1}`).toMatchObject({
        round: k + 1,
        record: 'receipt',
        code: 'chain_broken',
      });
    }
  });

  test('dropping the last round: the reveal counts it missing', async () => {
    const t = clone(oneDeck);
    t.receipts.pop();
    expect((await verifyFair1Transcript(t, await testVerifyKeys())).failure).toMatchObject({ round: 7, record: 'reveal', code: 'round_count_mismatch' });
  });

  test('swapping two rounds, duplicating one', async () => {
    const swapped = clone(oneDeck);
    [swapped.receipts[2], swapped.receipts[3]] = [swapped.receipts[3]!, swapped.receipts[2]!];
    expect((await verifyFair1Transcript(swapped, await testVerifyKeys())).failure).toMatchObject({ round: 3, code: 'chain_broken' });
    const doubled = clone(oneDeck);
    doubled.receipts.splice(4, 0, clone(doubled.receipts[3]!));
    expect((await verifyFair1Transcript(doubled, await testVerifyKeys())).failure).toMatchObject({ round: 5, code: 'chain_broken' });
  });

  test('a lying operator who drops a round and re-signs the rest still fails: the cards no longer match', async () => {
    const t = clone(oneDeck);
    t.receipts.splice(2, 1);
    t.receipts.forEach((r, i) => (r.body.round = i + 1));
    t.reveal!.body.rounds = t.receipts.length;
    await reseal(t, 2);
    expect((await verifyFair1Transcript(t, await testVerifyKeys())).failure).toMatchObject({ round: 3, code: 'card_mismatch' });
  });

  test('a round after the cut card came out', async () => {
    const t = clone(oneDeck);
    const { start } = t;
    const shoe = deriveFair1Shoe(t.commitment.body.params, t.reveal!.body.serverSeed, start!.body.clientSeed, start!.body.cut);
    const last = t.receipts.at(-1)!.body;
    const next = last.cards.at(-1)!.position + 1;
    const dealt = playRound(shoe.cards, next);
    const bets = [{ sector: 0, box: 'player' as const, amount: 100 }];
    const extra = buildFair1ReceiptBody({
      table: last.table,
      shoe: last.shoe,
      round: 8,
      affiliate: last.affiliate,
      bets,
      dealt,
      settlement: settle(bets, dealt.outcome),
      balanceBefore: last.balanceAfter,
      cutCardOut: true,
      prev: '',
      issuedAt: last.issuedAt,
    });
    extra.prev = t.receipts.at(-1)!.hash;
    t.receipts.push({ body: extra, hash: '', keyId: '', signature: '' });
    t.reveal!.body.rounds = 8;
    await reseal(t, 2 + 7);
    expect((await verifyFair1Transcript(t, await testVerifyKeys())).failure).toMatchObject({ round: 8, code: 'round_after_cut_card' });
  });
});

describe('the seed, the start and the commitment', () => {
  test('changing the revealed seed: without the key a hash mismatch, with it a commitment mismatch', async () => {
    const t = clone(oneDeck);
    t.reveal!.body.serverSeed = 'ff'.repeat(32);
    expect((await verifyFair1Transcript(t, await testVerifyKeys())).failure).toMatchObject({ round: null, record: 'reveal', code: 'hash_mismatch' });
    await reseal(t, chain(t).length - 1);
    const report = await verifyFair1Transcript(t, await testVerifyKeys());
    expect(report.failure).toMatchObject({ round: null, record: 'reveal', code: 'commitment_mismatch' });
    expect(report.rounds.every((r) => r.status === 'failed' && r.code === 'unverifiable')).toBe(true);
  });

  test('a different shoe dealt than the committed one (new seed, new commitment would be needed)', async () => {
    const t = clone(oneDeck);
    // The operator deals from another seed but keeps the original commitment: the reveal must lie.
    const other = await playFair1Transcript({
      table: 'vector-table',
      shoe: 1,
      params: t.commitment.body.params,
      serverSeed: '11'.repeat(32),
      clientSeed: 'player seed',
      cut: 26,
      key: await testKey(),
      balance: 1_000_000,
      bets: () => [{ sector: 0, box: 'banker', amount: 1000 }],
      clock: () => '2025-01-01T12:00:00.000Z',
      maxRounds: 3,
    });
    other.commitment = t.commitment;
    other.start!.body.prev = t.commitment.hash;
    await reseal(other, 1);
    expect((await verifyFair1Transcript(other, await testVerifyKeys())).failure).toMatchObject({ record: 'reveal', code: 'commitment_mismatch' });
  });

  test('the start: another client seed or cut re-signed shows at round 1; bad ones are refused', async () => {
    const cases: [string, (t: Fair1Transcript) => void, object][] = [
      ['client seed', (t) => (t.start!.body.clientSeed = 'player seeD'), { round: 1, code: 'card_mismatch' }],
      ['cut', (t) => (t.start!.body.cut = 27), { round: 1, code: 'card_mismatch' }],
      ['cut 0', (t) => (t.start!.body.cut = 0), { record: 'start', code: 'bad_cut' }],
      ['cut 52', (t) => (t.start!.body.cut = 52), { record: 'start', code: 'bad_cut' }],
      ['seed not NFC', (t) => (t.start!.body.clientSeed = 'e\u0301'), { record: 'start', code: 'bad_client_seed' }],
      ['empty seed', (t) => (t.start!.body.clientSeed = ''), { record: 'start', code: 'bad_client_seed' }],
      ['another table', (t) => (t.start!.body.table = 'x'), { record: 'start', code: 'table_mismatch' }],
    ];
    for (const [what, change, failure] of cases) {
      const t = clone(oneDeck);
      change(t);
      await reseal(t, 1);
      expect((await verifyFair1Transcript(t, await testVerifyKeys())).failure, what).toMatchObject(failure);
    }
  });

  test('the start missing while rounds exist', async () => {
    const t = clone(oneDeck);
    delete t.start;
    expect((await verifyFair1Transcript(t, await testVerifyKeys())).failure).toMatchObject({ record: 'start', code: 'missing_start' });
  });

  test('committed parameters: re-signed changes are refused or show in the cards', async () => {
    const cases: [string, (t: Fair1Transcript) => void, object][] = [
      ['decks 9', (t) => (t.commitment.body.params.decks = 9), { record: 'commitment', code: 'bad_params' }],
      ['algorithm', (t) => ((t.commitment.body.params as { algorithm: string }).algorithm = 'pb-fair-2'), { record: 'commitment', code: 'bad_params' }],
      ['limits', (t) => (t.commitment.body.limits!.step = 30), { record: 'commitment', code: 'bad_params' }],
      ['decks 2', (t) => (t.commitment.body.params.decks = 2), { round: 1, code: 'card_mismatch' }],
      ['burn off', (t) => (t.commitment.body.params.burn = false), { round: 1, code: 'card_mismatch' }],
      ['cut card earlier', (t) => (t.commitment.body.params.cutCardFromEnd = 20), { round: 6, code: 'cut_card_mismatch' }],
      ['tighter limits', (t) => (t.commitment.body.limits!.max = 500), { round: 1, code: 'bets_invalid' }],
      ['seed hash', (t) => (t.commitment.body.serverSeedHash = '00'.repeat(32)), { record: 'reveal', code: 'commitment_mismatch' }],
      ['shoe 1 with a prev', (t) => (t.commitment.body.prev = '00'.repeat(32)), { record: 'commitment', code: 'chain_broken' }],
    ];
    for (const [what, change, failure] of cases) {
      const t = clone(oneDeck);
      change(t);
      await reseal(t, 0);
      expect((await verifyFair1Transcript(t, await testVerifyKeys())).failure, what).toMatchObject(failure);
    }
  });

  test('the reveal: reason and chain', async () => {
    const early = clone(oneDeck);
    early.reveal!.body.reason = 'ended-early';
    await reseal(early, chain(early).length - 1);
    expect((await verifyFair1Transcript(early, await testVerifyKeys())).failure).toMatchObject({ record: 'reveal', code: 'reveal_reason_mismatch' });
    const unlinked = clone(oneDeck);
    unlinked.reveal!.body.prev = unlinked.receipts[5]!.hash;
    await reseal(unlinked, chain(unlinked).length - 1);
    expect((await verifyFair1Transcript(unlinked, await testVerifyKeys())).failure).toMatchObject({ record: 'reveal', code: 'chain_broken' });
  });

  test("shoes of one table chain: shoe 2 must name shoe 1's reveal", async () => {
    const second = clone(reshuffle);
    second.commitment.body.prev = fair1RecordHash({ other: true });
    await reseal(second, 0);
    const reports = await verifyFair1Transcripts([oneDeck, second], await testVerifyKeys());
    expect(reports[0]!.ok).toBe(true);
    expect(reports[1]!.failure).toMatchObject({ record: 'commitment', code: 'chain_broken' });
    // Alone, shoe 2 can only be checked to name some previous reveal.
    expect((await verifyFair1Transcript(second, await testVerifyKeys())).ok).toBe(true);
  });
});

describe('pending (unrevealed) transcripts still check what the listed cards decide', () => {
  const pendingFlip = async (round: number, change: (b: Fair1ReceiptBody) => void) => {
    const t = clone(oneDeck);
    delete t.reveal;
    change(t.receipts[round - 1]!.body);
    await reseal(t, 1 + round);
    return verifyFair1Transcript(t, await testVerifyKeys());
  };

  test('totals, outcome, payouts, balances, positions and the cut card are checked before the reveal', async () => {
    expect((await pendingFlip(2, (b) => (b.playerTotal = (b.playerTotal + 1) % 10))).failure).toMatchObject({ round: 2, code: 'total_mismatch' });
    expect((await pendingFlip(3, (b) => (b.payouts[0]!.returned += 100))).failure).toMatchObject({ round: 3, code: 'payout_mismatch' });
    expect((await pendingFlip(4, (b) => (b.balanceAfter += 1))).failure).toMatchObject({ round: 4, code: 'balance_mismatch' });
    expect((await pendingFlip(5, (b) => (b.cards[0]!.position += 1))).failure).toMatchObject({ round: 5, code: 'card_mismatch' });
    expect((await pendingFlip(7, (b) => (b.cutCardOut = false))).failure).toMatchObject({ round: 7, code: 'cut_card_mismatch' });
    expect((await pendingFlip(1, (b) => (b.cards[0]!.position = 1))).failure).toMatchObject({ round: 1, code: 'card_mismatch' });
  });

  test('a card swapped for one of the same value passes until the reveal, then fails', async () => {
    const t = clone(oneDeck);
    const dealt = new Set(t.receipts.flatMap((r) => r.body.cards.map((c) => c.code)));
    // A card of the same rank that this shoe never dealt: nothing but the shuffle can tell.
    const card = t.receipts[1]!.body.cards[0]!;
    const other = ['S', 'H', 'D', 'C'].map((s) => `${card.code[0]}${s}`).find((c) => !dealt.has(c as typeof card.code));
    expect(other).toBeDefined();
    card.code = other as typeof card.code;
    const revealed = await reseal(clone(t), 3);
    delete t.reveal;
    await reseal(t, 3);
    const pending = await verifyFair1Transcript(t, await testVerifyKeys());
    expect(pending.ok && pending.pending).toBe(true);
    expect((await verifyFair1Transcript(revealed, await testVerifyKeys())).failure).toMatchObject({ round: 2, code: 'card_mismatch' });
  });

  test('a card dealt more often than the decks hold fails before the reveal', async () => {
    const t = clone(oneDeck);
    delete t.reveal;
    // Round 3's first card replaced by round 1's first card (same value, one deck): two copies.
    const value = (code: string) => '123456789'.indexOf(code[0]!) + 1 || (code[0] === 'A' ? 1 : 0);
    const first = t.receipts[0]!.body.cards[0]!.code;
    const target = t.receipts
      .slice(1)
      .flatMap((r, i) => r.body.cards.map((c, j) => ({ round: i + 2, j, c })))
      .find(({ c }) => value(c.code) === value(first) && c.code !== first);
    expect(target).toBeDefined();
    t.receipts[target!.round - 1]!.body.cards[target!.j]!.code = first;
    await reseal(t, 1 + target!.round);
    const report = await verifyFair1Transcript(t, await testVerifyKeys());
    expect(report.failure).toMatchObject({ round: target!.round, code: 'card_mismatch' });
    expect(report.failure!.message).toMatch(/dealt 2 times/);
  });
});

describe('malformed input', () => {
  test('not a transcript, unknown members, wrong types', async () => {
    const jwks = await testVerifyKeys();
    expect((await verifyFair1Transcript(null as never, jwks)).failure).toMatchObject({ code: 'bad_record' });
    expect((await verifyFair1Transcript({ ...clone(oneDeck), extra: 1 } as never, jwks)).failure).toMatchObject({ code: 'bad_record' });
    // Changed after signing: a hash mismatch whatever the change; signed that way: malformed.
    const t = clone(oneDeck);
    (t.receipts[2]!.body as unknown as Record<string, unknown>).bonus = 5;
    expect((await verifyFair1Transcript(t, jwks)).failure).toMatchObject({ round: 3, code: 'hash_mismatch' });
    await reseal(t, 4);
    expect((await verifyFair1Transcript(t, jwks)).failure).toMatchObject({ round: 3, code: 'bad_record' });
    const u = clone(oneDeck);
    (u.receipts[1]!.body as unknown as Record<string, unknown>).cards = 'none';
    expect((await verifyFair1Transcript(u, jwks)).failure).toMatchObject({ round: 2, code: 'hash_mismatch' });
    await reseal(u, 3);
    const report = await verifyFair1Transcript(u, jwks);
    expect(report.failure).toMatchObject({ round: 2, code: 'bad_record' });
    expect(report.failure!.message).toMatch(/cards must be an array/);
    expect(report.rounds[2]!.status).toBe('verified'); // dealing stayed in step past the unreadable round
  });

  test('random structural damage never throws and never passes', async () => {
    const keys = await testVerifyKeys();
    let state = 12345;
    const next = (n: number) => ((state = (state * 1103515245 + 12345) % 2 ** 31), state % n);
    const junk: unknown[] = [null, 0, -1, 1.5, '', 'x', [], {}, true, 'é'.repeat(300), { body: {} }, [null], '\ud800'];
    const nodes = (value: unknown, path: Path = []): Path[] =>
      value !== null && typeof value === 'object'
        ? [path, ...Object.entries(value).flatMap(([k, v]) => nodes(v, [...path, Array.isArray(value) ? Number(k) : k]))]
        : [path];
    const all = nodes(oneDeck).filter((p) => p.length > 0);
    for (let i = 0; i < 300; i++) {
      const t = clone(oneDeck) as unknown as Record<string | number, unknown>;
      const path = all[next(all.length)]!;
      let node = t;
      for (const p of path.slice(0, -1)) node = node[p] as Record<string | number, unknown>;
      const before = JSON.stringify(node[path.at(-1)!]);
      node[path.at(-1)!] = junk[next(junk.length)];
      if (JSON.stringify(node[path.at(-1)!]) === before) continue;
      const report = await verifyFair1Transcript(t as unknown as Fair1Transcript, keys);
      expect(report.ok, `${path.join('.')} = ${JSON.stringify(node[path.at(-1)!])}`).toBe(false);
    }
    for (const receipts of [[null], ['x'], [{}], [{ body: null, hash: 1, keyId: [], signature: {} }]]) {
      const t = { ...clone(oneDeck), receipts } as unknown as Fair1Transcript;
      expect((await verifyFair1Transcript(t, keys)).failure).toMatchObject({ round: 1, code: 'bad_record' });
    }
    const second = { ...clone(oneDeck) };
    (second.receipts as unknown[])[0] = null;
    expect((await verifyFair1Transcript(second, keys)).rounds[1]).toMatchObject({ status: 'failed', code: 'chain_broken' });
  });

  test('a bad round in the middle leaves the others checked', async () => {
    const t = clone(oneDeck);
    flip(t.receipts[2]!.body, ['playerTotal']);
    const report = await verifyFair1Transcript(t, await testVerifyKeys());
    // Round 4 names round 3's recorded hash, so only round 3 fails.
    expect(report.rounds.map((r) => r.status)).toEqual(['verified', 'verified', 'failed', 'verified', 'verified', 'verified', 'verified']);
    expect(report.rounds[2]!.code).toBe('hash_mismatch');
  });
});
