/**
 * pb-shared-2 (FAIRNESS.md part IV): the close's Merkle tree of the bets byte for byte (pinned
 * vectors quoted in FAIRNESS.md §D7), a whole table verified, every new code of the verifier and
 * of a player's check of its own bet, and pb-shared-1 files judged as before.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { bytesToHex } from '../../shared/fairness/common/encoding.ts';
import { playerKeyOf } from '../../shared/fairness/pb-fair-2/records.ts';
import { type SharedParams, sharedBetRequest, signSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';
import {
  betLeafBytes,
  betLeafHash,
  betProofs,
  betsRoot,
  checkMyBet,
  closeRecordOf,
  type CloseEntry,
  MERKLE_CODES,
  MY_BET_CODES,
  signShared2Record,
} from '../../shared/fairness/pb-shared-2/index.ts';
import { verifyFileText } from '../../shared/index.ts';
import type { Bet, SigningKey } from '../../shared/index.ts';
import { hexOf, operatorKey, playMerkleShoe, seatKey } from './shared-table-fixtures.ts';

const spec = readFileSync(new URL('../../FAIRNESS.md', import.meta.url), 'utf8');
const SHOE_1: SharedParams = { algorithm: 'pb-shared-2', mode: 'shoe', decks: 1, burn: true, cutCardFromEnd: 14, beaconDeadlineSeconds: 60 };
const HALL_1 = { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] };
const BOXES = ['player', 'banker', 'tie'] as const;

/** The vector round: seats 0–4 of the vector table each bet on one box of their own sector. */
const VECTOR_BETS = (seat: number): Bet[] => [{ sector: seat, box: BOXES[seat % 3]!, amount: 100 * (seat + 1) }];

async function vectorRequests() {
  const keys = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
  const requests = await Promise.all(keys.map((k, seat) => signSharedRequest(sharedBetRequest('vector-shared', 1, 1, playerKeyOf(k), VECTOR_BETS(seat)), k)));
  return requests.sort((a, b) => (a.body.player < b.body.player ? -1 : 1));
}

const table = (players: SigningKey[], rounds = 4, params: SharedParams = SHOE_1) =>
  playMerkleShoe('merkle-shared', players, {
    params,
    limits: HALL_1,
    serverSeed: hexOf('merkle shared seed'),
    seats: players.map((_, seat) => ({ seat, clientSeed: `seat ${seat}`, cut: 7 + seat })),
    rounds: Array.from({ length: rounds }, (_, i) => ({
      bets: Object.fromEntries(players.map((_, seat) => [seat, [{ sector: seat % 5, box: BOXES[(i + seat) % 3]!, amount: 100 * (1 + ((i + seat) % 4)) }]])),
    })),
  });

const jwks = async () => ({ keys: [(await operatorKey()).publicJwk] });
const codeOf = async (file: object) => (await verifyFileText(JSON.stringify(file), await jwks())).code;
const closeAt = (f: { records: any[] }, nth = 1) => f.records.filter((r) => r.body.type === 'close')[nth - 1] as CloseEntry;

/** The close re-signed by the operator after `change` (its bets beside it as they were, or as `bets` says). */
async function forgeClose(f: { records: any[] }, change: (e: CloseEntry) => void) {
  const g = structuredClone(f);
  const at = g.records.indexOf(closeAt(g));
  const entry = g.records[at] as CloseEntry;
  change(entry);
  g.records[at] = { ...(await signShared2Record(entry.body, await operatorKey())), bets: entry.bets };
  return g;
}

describe('pb-shared-2: the tree of a close', () => {
  test('a leaf is the canonical JSON of the signed bet request; the vector root and proof are pinned', async () => {
    const requests = await vectorRequests();
    const first = requests[0]!;
    // Canonical JSON: members sorted, no spaces; the request's own body first ("body" < "signature").
    expect(new TextDecoder().decode(betLeafBytes(first)).startsWith('{"body":{"bets":[{"amount":')).toBe(true);
    const root = betsRoot(requests);
    const proofs = betProofs(requests);
    const vector = {
      leaf0: bytesToHex(betLeafHash(first)),
      root,
      proof4: proofs[4],
      proof2: proofs[2],
    };
    expect(vector).toEqual(PINNED);
    // Each quoted in FAIRNESS.md part IV.
    const part4 = spec.slice(spec.indexOf('# Part IV'));
    for (const v of [PINNED.leaf0, PINNED.root, ...PINNED.proof4.path, ...PINNED.proof2.path]) expect(part4, v).toContain(v);
  });

  test('the empty tree is SHA-256 of nothing; one leaf is its own root', async () => {
    expect(betsRoot([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    const [one] = await vectorRequests();
    expect(betsRoot([one!])).toBe(bytesToHex(betLeafHash(one!)));
    expect(betProofs([one!])).toEqual([{ leaf: 0, path: [] }]);
  });
});

describe('pb-shared-2: a whole table', () => {
  test('verifies: every root, count and total recomputed from the bets beside each close, every settlement on its leaf', async () => {
    const players = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
    const f = await table(players);
    const r = await verifyFileText(JSON.stringify(f), await jwks());
    expect(r.version).toBe('pb-shared-2');
    expect(r.code).toBe('ok');
    const close = closeAt(f);
    expect(close.body.betCount).toBe(5);
    expect(close.body).not.toHaveProperty('bets');
    const settlements = f.records.filter((x) => x.body.type === 'settlement' && x.body.round === 1);
    expect(settlements.map((s) => s.body.leaf)).toEqual([0, 1, 2, 3, 4]);
    expect(settlements.map((s) => s.body.player)).toEqual(close.bets.map((b) => b.body.player));
  });

  test('each new code, and a tie among the outcomes', async () => {
    const players = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
    const f = await table(players, 12, { ...SHOE_1, decks: 6, burn: false, cutCardFromEnd: 16 });
    const outcomes = f.records.filter((x) => x.body.type === 'deal').map((d) => d.body.outcome);
    expect(outcomes).toContain('tie');
    expect(await codeOf(await forgeClose(f, (e) => e.bets.pop()))).toBe('bet_count_mismatch');
    expect(await codeOf(await forgeClose(f, (e) => (e.body.betCount = 0)))).toBe('no_bets');
    // A bet swapped for the same player's signed request with another stake: every signature holds, the root does not.
    const other = closeAt(f);
    const seat = players.findIndex((k) => playerKeyOf(k) === other.bets[1]!.body.player);
    const swapped = await signSharedRequest({ ...other.bets[1]!.body, bets: [{ sector: 0, box: 'tie', amount: 100 }] }, players[seat]!);
    const g = structuredClone(f);
    closeAt(g).bets[1] = swapped;
    expect(await codeOf(g)).toBe('bets_root_mismatch');
    expect(await codeOf(await forgeClose(f, (e) => (e.body.totals.tie += 100)))).toBe('totals_mismatch');
    // A settlement naming another leaf, re-signed (everything after it re-linked would fail on the chain first: it is the last of its round).
    const h = structuredClone(f);
    const last = h.records.map((x) => x.body.type === 'settlement' && x.body.round === 1).lastIndexOf(true);
    h.records[last] = await signShared2Record({ ...h.records[last].body, leaf: 0 }, await operatorKey());
    expect(await codeOf({ ...h, records: h.records.slice(0, last + 1) })).toBe('leaf_mismatch');
    expect(MERKLE_CODES.filter((code) => !code.startsWith('start_'))).toEqual(['bet_count_mismatch', 'bets_root_mismatch', 'totals_mismatch', 'leaf_mismatch']);
  });

  test('a close without its bets beside it is bad_record; a pb-shared-1 shoe in a pb-shared-2 file is bad_params', async () => {
    const players = await Promise.all([0, 1].map(seatKey));
    const f = await table(players, 1);
    const g = structuredClone(f);
    delete (closeAt(g) as Partial<CloseEntry>).bets;
    expect(await codeOf(g)).toBe('bad_record');
    const h = structuredClone(f);
    h.records[0] = await signShared2Record({ ...h.records[0].body, params: { ...SHOE_1, algorithm: 'pb-shared-1' } }, await operatorKey());
    expect(await codeOf({ ...h, records: [h.records[0]] })).toBe('bad_params');
  });
});

describe("pb-shared-2: a player's check of its own bet", () => {
  test('ok for every bettor with its proof; each code for what it guards', async () => {
    const players = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
    const f = await table(players, 1);
    const entry = closeAt(f);
    const close = closeRecordOf(entry);
    const proofs = betProofs(entry.bets);
    const keys = await jwks();
    for (const [i, bet] of entry.bets.entries()) {
      const r = await checkMyBet({ close, bet, proof: proofs[i]!, player: bet.body.player, keys });
      expect(r).toEqual({ ok: true, value: { leaf: i } });
    }
    const bet = entry.bets[2]!;
    const proof = proofs[2]!;
    const code = async (a: Partial<Parameters<typeof checkMyBet>[0]>) => {
      const r = await checkMyBet({ close, bet, proof, player: bet.body.player, keys, ...a });
      return r.ok ? 'ok' : r.error.code;
    };
    const seen = new Set<string>();
    const expectCode = async (want: string, a: Partial<Parameters<typeof checkMyBet>[0]>) => {
      expect(await code(a)).toBe(want);
      seen.add(want);
    };
    await expectCode('hash_mismatch', { close: { ...close, body: { ...close.body, betCount: 4 } } });
    await expectCode('unknown_key', { keys: { keys: [] } });
    const stranger = await seatKey('stranger');
    await expectCode('bad_signature', {
      close: { ...close, signature: (await signShared2Record(close.body, { ...stranger, keyId: close.body.keyId })).signature },
    });
    await expectCode('not_my_bet', { player: entry.bets[1]!.body.player });
    await expectCode('request_mismatch', {
      bet: await signSharedRequest(
        { ...bet.body, round: 2 },
        players.find((k) => playerKeyOf(k) === bet.body.player)!,
      ),
    });
    await expectCode('bad_proof', { proof: { leaf: 5, path: proof.path } });
    await expectCode('bad_proof', { proof: { leaf: 2, path: ['zz'] } });
    await expectCode('bet_not_included', { proof: { leaf: 1, path: proof.path } });
    await expectCode('bet_not_included', { proof: { leaf: 2, path: proof.path.slice(1) } });
    // My bet altered after the close (a stake changed and re-signed by me): not what the root holds.
    await expectCode('bet_not_included', {
      bet: await signSharedRequest(
        { ...bet.body, bets: [{ sector: 1, box: 'tie', amount: 100 }] },
        players.find((k) => playerKeyOf(k) === bet.body.player)!,
      ),
    });
    // A root the operator built to include my bet but totals that leave it out: signed, consistent, and still caught.
    const lying = await signShared2Record({ ...close.body, totals: { player: 0, banker: 0, tie: 0 } }, await operatorKey());
    await expectCode('totals_mismatch', { close: lying });
    expect(seen).toEqual(new Set(MY_BET_CODES));
  });
});

const PINNED = {
  leaf0: '12406ef19ce51a26fdd6fa1cc756b1b44f83baec715656ddd33d1d9254f0ed5a',
  root: '2404d4c8a12aa825eea1a6562734ea6be3e812860ec588c987b4c47ad8ea80ad',
  // Leaf 4 of 5 is carried up alone past two levels: its path is one hash, the root of leaves 0–3.
  proof4: { leaf: 4, path: ['c6eb0c2bbd2518f5f910c0c53c337e798ab39a1cc6d9e2115d21d9fd7cfd89b8'] },
  proof2: {
    leaf: 2,
    path: [
      '54074df57ed6595fac209778210de0cf45c2939949905510c8b45f1366c66001',
      '204ce385a16658b5317205120439146bd82992319c6ff63ec5d94e81e6a3ef3c',
      'e003c5fda5e497a4185e150cd0eb3662832b64cd5b311d290887e136c7b302ab',
    ],
  },
};
