/**
 * pb-shared-2's start (FAIRNESS.md §D3a): the tree of the start requests byte for byte (pinned
 * vectors quoted in §D7), the shoe's client seed from its root, a whole table whose start lists
 * its requests beside it, the verifier's start codes, and a seated player's check of its own start.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { bytesToHex } from '../../shared/fairness/common/encoding.ts';
import { playerKeyOf } from '../../shared/fairness/pb-fair-2/records.ts';
import { combinedClientSeed, type SharedParams, sharedStartRequest, signSharedRequest } from '../../shared/fairness/pb-shared-1/index.ts';
import {
  betLeafHash,
  betsRoot,
  checkMyStart,
  MY_START_CODES,
  recordOf,
  shoeClientSeed,
  signShared2Record,
  startInputs,
  startLeafBytes,
  startLeafHash,
  startProofs,
  startsRoot,
  type StartEntry,
} from '../../shared/fairness/pb-shared-2/index.ts';
import { verifyFileText } from '../../shared/index.ts';
import type { SigningKey } from '../../shared/index.ts';
import { hexOf, operatorKey, playMerkleShoe, seatKey } from './shared-table-fixtures.ts';

const spec = readFileSync(new URL('../../FAIRNESS.md', import.meta.url), 'utf8');
const SHOE_1: SharedParams = { algorithm: 'pb-shared-2', mode: 'shoe', decks: 1, burn: true, cutCardFromEnd: 14, beaconDeadlineSeconds: 60 };
/** The commitment the vector's start requests answer: §C11's shoe 1 (any 64-hex hash would do; the requests are signed as §C6). */
const VECTOR_COMMITMENT = 'cfd44902dc16921433e43a6d9f67ca4493669a12f0b78b2453523c06a2ddad07';

/** The vector start: seats 0–4 of the vector table, seed `seat k`, cut 10 + 7k, sorted by player. */
async function vectorStarts() {
  const keys = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
  const commitment = { hash: VECTOR_COMMITMENT, body: { table: 'vector-shared', shoe: 1 } } as Parameters<typeof sharedStartRequest>[0];
  const requests = await Promise.all(
    keys.map((k, seat) => signSharedRequest(sharedStartRequest(commitment, playerKeyOf(k), `seat ${seat}`, 10 + 7 * seat), k)),
  );
  return requests.sort((a, b) => (a.body.player < b.body.player ? -1 : 1));
}

const table = (players: SigningKey[], params: SharedParams = SHOE_1) =>
  playMerkleShoe('merkle-start', players, {
    params,
    serverSeed: hexOf('merkle start seed'),
    seats: players.map((_, seat) => ({ seat, clientSeed: `seat ${seat} 🌱`, cut: 5 + 11 * seat })),
    rounds: Array.from({ length: 3 }, (_, i) => ({ bets: { [i % players.length]: [{ sector: 0, box: 'banker' as const, amount: 100 }] } })),
  });

const jwks = async () => ({ keys: [(await operatorKey()).publicJwk] });
const codeOf = async (file: object) => (await verifyFileText(JSON.stringify(file), await jwks())).code;
const startOf = (f: { records: any[] }) => f.records[1] as StartEntry;

/** The start re-signed by the operator after `change` (its requests beside it as `change` leaves them). */
async function forgeStart(f: { records: any[] }, change: (e: StartEntry) => void | Promise<void>) {
  const g = structuredClone(f);
  const entry = startOf(g);
  await change(entry);
  g.records[1] = { ...(await signShared2Record(entry.body, await operatorKey())), requests: entry.requests };
  // Only the start and what precedes it: the records after it chain to the old hash.
  return { ...g, records: g.records.slice(0, 2) };
}

describe('pb-shared-2: the tree of a start', () => {
  test("a leaf is the start-leaf tag and the signed request's canonical JSON; the vector root, proof, seed and cut are pinned", async () => {
    const requests = await vectorStarts();
    expect(new TextDecoder().decode(startLeafBytes(requests[0]!)).startsWith('pb-shared-2/start-leaf\n{"body":{"clientSeed":"seat ')).toBe(true);
    const root = startsRoot(requests);
    const vector = {
      leaf0: bytesToHex(startLeafHash(requests[0]!)),
      root,
      proof2: startProofs(requests)[2],
      clientSeed: shoeClientSeed(root),
      cut: startInputs({ type: 'start', table: 'vector-shared', shoe: 1, keyId: 'k', requests, prev: VECTOR_COMMITMENT, issuedAt: '' }, 1).cut,
    };
    expect(vector).toEqual(PINNED);
    // The tag keeps a start leaf from reading as a bet leaf of the same bytes; the seed is the root's, not pb-shared-1's list hash.
    expect(vector.leaf0).not.toBe(bytesToHex(betLeafHash(requests[0]! as never)));
    expect(root).not.toBe(betsRoot(requests as never));
    expect(vector.clientSeed).not.toBe(combinedClientSeed(requests.map((r) => r.body)));
    const part4 = spec.slice(spec.indexOf('# Part IV'));
    for (const v of [PINNED.leaf0, PINNED.root, PINNED.clientSeed, ...PINNED.proof2.path]) expect(part4, v).toContain(v);
  });
});

describe('pb-shared-2: a whole table from its start', () => {
  test('verifies: the start signs root, count and cut, its requests beside it, and the shoe is dealt from the root seed', async () => {
    const players = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
    const f = await table(players);
    expect(await codeOf(f)).toBe('ok');
    const start = startOf(f);
    expect(start.body).not.toHaveProperty('requests');
    expect(start.body.startCount).toBe(5);
    expect(start.body.startsRoot).toBe(startsRoot(start.requests));
  });

  test('each start code: count, root, cut; a start without its requests, or listing them in its body, is bad_record', async () => {
    const players = await Promise.all([0, 1, 2].map(seatKey));
    const f = await table(players);
    expect(await codeOf(await forgeStart(f, (e) => void e.requests.pop()))).toBe('start_count_mismatch');
    expect(await codeOf(await forgeStart(f, (e) => void ((e.body.startCount = 0), (e.requests = []))))).toBe('no_players');
    // A request swapped for the same player's other signed one: every signature holds, the root does not.
    const swapped = await forgeStart(f, async (e) => {
      const seat = players.findIndex((k) => playerKeyOf(k) === e.requests[1]!.body.player);
      e.requests[1] = await signSharedRequest({ ...e.requests[1]!.body, clientSeed: 'ground seed' }, players[seat]!);
    });
    expect(await codeOf(swapped)).toBe('start_root_mismatch');
    expect(await codeOf(await forgeStart(f, (e) => void (e.body.cut = (e.body.cut % 51) + 1)))).toBe('start_cut_mismatch');
    expect(await codeOf(await forgeStart(f, (e) => void (e.body.startsRoot = e.body.startsRoot.toUpperCase())))).toBe('bad_record');
    const bare = structuredClone(f);
    delete (startOf(bare) as Partial<StartEntry>).requests;
    expect(await codeOf(bare)).toBe('bad_record');
    expect(await codeOf(await forgeStart(f, (e) => void Object.assign(e.body, { requests: e.requests })))).toBe('bad_record');
    const changed = structuredClone(f);
    startOf(changed).requests[0]!.body.cut += 1;
    expect(await codeOf(changed)).toBe('bad_player_signature');
  });
});

describe("pb-shared-2: a seated player's check of its own start", () => {
  test('ok for every seat with its proof, giving the shoe seed; each code for what it guards', async () => {
    const players = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
    const f = await table(players);
    const entry = startOf(f);
    const start = recordOf(entry);
    const proofs = startProofs(entry.requests);
    const keys = await jwks();
    const seed = startInputs(entry.body, 1).clientSeed;
    for (const [i, request] of entry.requests.entries()) {
      const r = await checkMyStart({ start, request, proof: proofs[i]!, player: request.body.player, keys });
      expect(r).toEqual({ ok: true, value: { leaf: i, clientSeed: seed } });
    }
    const request = entry.requests[3]!;
    const proof = proofs[3]!;
    const key = players.find((k) => playerKeyOf(k) === request.body.player)!;
    const seen = new Set<string>();
    const expectCode = async (want: string, a: Partial<Parameters<typeof checkMyStart>[0]>) => {
      const r = await checkMyStart({ start, request, proof, player: request.body.player, keys, ...a });
      expect(r.ok ? 'ok' : r.error.code).toBe(want);
      seen.add(want);
    };
    await expectCode('hash_mismatch', { start: { ...start, body: { ...start.body, cut: start.body.cut + 1 } } });
    await expectCode('unknown_key', { keys: { keys: [] } });
    const stranger = await seatKey('stranger');
    await expectCode('bad_signature', {
      start: { ...start, signature: (await signShared2Record(start.body, { ...stranger, keyId: start.body.keyId })).signature },
    });
    await expectCode('not_my_start', { player: entry.requests[0]!.body.player });
    // The table's copy of my request, with a signature that is not mine: not counted as mine.
    await expectCode('not_my_start', { request: { ...request, signature: entry.requests[0]!.signature } });
    await expectCode('request_mismatch', { request: await signSharedRequest({ ...request.body, commitment: hexOf('another commitment') }, key) });
    await expectCode('bad_proof', { proof: { leaf: 5, path: proof.path } });
    await expectCode('start_not_included', { proof: { leaf: 2, path: proof.path } });
    // My seed replaced after I sent it (signed again by me, say by a second tab): not what the root holds.
    await expectCode('start_not_included', { request: await signSharedRequest({ ...request.body, clientSeed: 'another seed' }, key) });
    expect(seen).toEqual(new Set(MY_START_CODES));
  });
});

const PINNED = {
  leaf0: '9176f59ec04a905caa6be0be5c000b0b5f5e254a71ea7899693216e63b9824ed',
  root: 'ddbe4697ab4e1cd8ecffff250cefdb3465c7f0241f72108c17fc08c6f8082db6',
  proof2: {
    leaf: 2,
    path: [
      '492b1ec29a01da4b32b739036bd21360ecb22f5efb952897cad192bedc8358f1',
      '486d2ef9bb5b02fbf90f7bd2cc0d0232cafbb5561f43a996b1b9c7b70b8333ab',
      '813c4d37f058609b6f39d5335cdc9cac24219f8b690bb2090ff3c8f87806af95',
    ],
  },
  clientSeed: '5df4dbd24a605c50677adfdb8e5e5f2f99eee429b9e1ad39e2f4f8072409b779',
  // 1 + ((9 + 16 + 23 + 30 + 37) mod 51): §C4's cut over one deck.
  cut: 14,
};
