/**
 * The pb-shared-2 cases of the conformance suite (FAIRNESS.md §D8), numbered 300–349: shared
 * tables whose closes commit to a Merkle root of their bets and whose starts to a Merkle root of
 * their start requests (325 on: the start's), played with the fixed seat keys and
 * the vectors' local beacon, each tampered to give one first failure code of §D5 — every code
 * pb-shared-2 adds, and the rules of pb-shared-1 that its new members touch.
 */
import type { SharedParams } from '../../../shared/fairness/pb-shared-1/index.ts';
import { signSharedRequest } from '../../../shared/fairness/pb-shared-1/index.ts';
import { type CloseEntry, signShared2Record, type StartEntry } from '../../../shared/fairness/pb-shared-2/index.ts';
import { type Bet, playerKeyOf, type SigningKey } from '../../../shared/index.ts';
import { playSharedTable, type PlaySharedOptions, type SharedShoeScript } from '../../players/pb-shared-1.ts';
import { hexOf, seatKey, vectorBeacon, vectorBeaconRound } from '../../shared/shared-table-fixtures.ts';
import type { SharedCase } from './shared-cases.ts';

/** The first number of the pb-shared-2 cases. */
export const MERKLE_CASES_FROM = 300;

const SHOE_1: SharedParams = { algorithm: 'pb-shared-2', mode: 'shoe', decks: 1, burn: true, cutCardFromEnd: 14, beaconDeadlineSeconds: 60 };
const RESHUFFLE_8: SharedParams = { algorithm: 'pb-shared-2', mode: 'reshuffle', decks: 8, roundLimit: 2, beaconDeadlineSeconds: 60 };
const HALL_1 = { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] };
const BOXES = ['player', 'banker', 'tie'] as const;

/** Round i's bets: seats 0–4, one sitting out of every odd round, so closes alternate 4 leaves (even) and 5 (odd: a node carried up). */
const betsOf = (i: number): Record<number, Bet[]> => {
  const out: Record<number, Bet[]> = {};
  for (let seat = 0; seat < 5; seat++)
    if (i % 2 === 1 || (i + seat) % 5 !== 4) out[seat] = [{ sector: seat % 5, box: BOXES[(i + seat) % 3]!, amount: 100 * (1 + ((i * 3 + seat) % 10)) }];
  return out;
};

type AnyFile = { version: string; records: any[] };

export async function merkleCases(operator: SigningKey): Promise<SharedCase[]> {
  const players = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
  const shoeA = (): SharedShoeScript => ({
    params: SHOE_1,
    limits: HALL_1,
    serverSeed: hexOf('conformance merkle seed A'),
    seats: [0, 1, 2].map((seat) => ({ seat, clientSeed: `seat ${seat} 🌳`, cut: 9 + 13 * seat })),
    rounds: Array.from({ length: 30 }, (_, i) => ({ bets: betsOf(i), ...(i === 2 ? { fate: 'void' as const } : {}) })),
  });
  const shoeB = (): SharedShoeScript => ({
    params: RESHUFFLE_8,
    serverSeed: hexOf('conformance merkle seed B'),
    seats: [{ seat: 4, clientSeed: 'seat 4', cut: 300 }],
    rounds: [{ bets: betsOf(0) }, { bets: betsOf(1) }],
  });
  const table = async (shoes: SharedShoeScript[], extra: Partial<PlaySharedOptions> = {}): Promise<AnyFile> => {
    const f = await playSharedTable({
      table: 'conformance-merkle',
      operatorKey: operator,
      players,
      balances: players.map(() => 100_000),
      chain: vectorBeacon().chain,
      beacon: vectorBeaconRound,
      version: 'pb-shared-2',
      shoes,
      ...extra,
    });
    return { version: f.version, records: f.records };
  };
  const base = () => table([shoeA(), shoeB()]);
  const indexOf = (f: AnyFile, type: string, nth = 1) => {
    let seen = 0;
    return f.records.findIndex((r) => r.body.type === type && ++seen === nth);
  };
  /** Round 2's close (5 leaves: an odd tree), its deal, and its first and last settlements. */
  const round2 = (f: AnyFile) => {
    const close = indexOf(f, 'close', 2);
    return { close, deal: close + 1, settlement: close + 2, last: close + 1 + (f.records[close] as CloseEntry).bets.length };
  };
  const seatOf = (player: string) => players.find((k) => playerKeyOf(k) === player)!;
  /** One record changed and re-signed (a close keeps the bets beside it, a start its requests, changed or not by `change`). */
  const forge = async (f: AnyFile, index: number, change: (r: any) => unknown): Promise<AnyFile> => {
    const records = structuredClone(f.records);
    const r = records[index];
    await change(r);
    const signed = await signShared2Record(r.body, operator);
    records[index] = r.bets ? { ...signed, bets: r.bets } : r.requests ? { ...signed, requests: r.requests } : signed;
    return { version: f.version, records };
  };
  /** Shoe A's start (3 requests: an odd tree) changed and re-signed, the file cut after it (what follows chains to the old hash). */
  const forgeStart = async (change: (r: StartEntry) => unknown): Promise<AnyFile> => {
    const f = await forge(await base(), 1, change);
    return { ...f, records: f.records.slice(0, 2) };
  };
  /** The requests beside shoe A's start changed, the signed start left as it was. */
  const besideStart = async (change: (requests: any[]) => unknown): Promise<AnyFile> => {
    const f = structuredClone(await base());
    await change(f.records[1].requests);
    return f;
  };
  /** The bets beside a close changed, the signed close left as it was. */
  const beside = async (change: (bets: any[], f: AnyFile) => unknown): Promise<AnyFile> => {
    const f = structuredClone(await base());
    await change(f.records[round2(f).close].bets, f);
    return f;
  };
  const text = (f: AnyFile) => JSON.stringify(f);

  const cases: SharedCase[] = [];
  const c = (name: string, expect: string, about: string, build: () => Promise<AnyFile | string>) =>
    cases.push({
      name: `merkle-${name}`,
      expect,
      about: `pb-shared-2: ${about}`,
      build: async () => {
        const b = await build();
        return typeof b === 'string' ? b : text(b);
      },
    });

  // Files that verify.
  c('ok-two-shoes', 'ok', '1 deck to the cut card with a voided round, 8-deck reshuffle to its limit; closes of 4 and 5 leaves', base);
  c('ok-pending', 'ok', 'an unrevealed shoe: roots, totals, leaves, beacons and settlements checked, cards for consistency', () =>
    table([{ ...shoeA(), rounds: shoeA().rounds.slice(0, 5), end: 'open' }]),
  );
  c('ok-one-bettor', 'ok', 'a close of one leaf: its root is its leaf hash and its proof is empty', () =>
    table([{ ...shoeB(), rounds: [{ bets: { 4: [{ sector: 0, box: 'tie', amount: 100 }] } }, { bets: { 1: [{ sector: 2, box: 'banker', amount: 500 }] } }] }]),
  );

  // What pb-shared-2 adds.
  c('count-one-more', 'bet_count_mismatch', 'a close counting 6 bets with 5 beside it', async () => {
    const f = await base();
    return forge(f, round2(f).close, (r) => (r.body.betCount += 1));
  });
  c('bet-dropped', 'bet_count_mismatch', 'one bet request dropped from the list beside a close', () => beside((bets) => bets.pop()));
  c('count-zero', 'no_bets', 'a close counting 0 bets, none beside it', async () => {
    const f = await base();
    return forge(f, round2(f).close, (r) => ((r.body.betCount = 0), (r.bets = [])));
  });
  c(
    'bet-swapped',
    'bets_root_mismatch',
    "a bet beside the close swapped for the same player's other signed request: every signature holds, the root does not",
    () =>
      beside(
        async (bets) => (bets[2] = await signSharedRequest({ ...bets[2].body, bets: [{ sector: 0, box: 'tie', amount: 100 }] }, seatOf(bets[2].body.player))),
      ),
  );
  c('bets-reordered', 'player_order', 'the bets beside a close in another order than by player', () => beside((bets) => bets.reverse()));
  c('root-of-other-round', 'bets_root_mismatch', "a close signing round 1's root over round 2's bets", async () => {
    const f = await base();
    return forge(f, round2(f).close, (r) => (r.body.betsRoot = f.records[indexOf(f, 'close')].body.betsRoot));
  });
  c('root-uppercase', 'bad_record', 'a root in upper-case hex', async () => {
    const f = await base();
    return forge(f, round2(f).close, (r) => (r.body.betsRoot = r.body.betsRoot.toUpperCase()));
  });
  c('totals-tie', 'totals_mismatch', 'a close whose Tie total is 100 more than its bets', async () => {
    const f = await base();
    return forge(f, round2(f).close, (r) => (r.body.totals.tie += 100));
  });
  c('totals-moved', 'totals_mismatch', "a close moving 100 from Player's total to Banker's", async () => {
    const f = await base();
    return forge(f, round2(f).close, (r) => ((r.body.totals.player -= 100), (r.body.totals.banker += 100)));
  });
  c('totals-negative', 'bad_record', 'a close with a negative total', async () => {
    const f = await base();
    return forge(f, round2(f).close, (r) => (r.body.totals.tie = -1));
  });
  c('leaf-swapped', 'leaf_mismatch', "round 2's first settlement naming leaf 1", async () => {
    const f = await base();
    const r = round2(f);
    const g = await forge(f, r.settlement, (x) => (x.body.leaf = 1));
    return { ...g, records: g.records.slice(0, r.settlement + 1) };
  });
  c('leaf-last', 'leaf_mismatch', "round 2's last settlement naming the leaf count (past the tree)", async () => {
    const f = await base();
    const r = round2(f);
    const g = await forge(f, r.last, (x) => (x.body.leaf = (f.records[r.close] as CloseEntry).bets.length));
    return { ...g, records: g.records.slice(0, r.last + 1) };
  });
  c('leaf-missing', 'bad_record', 'a settlement without its leaf', async () => {
    const f = await base();
    const r = round2(f);
    const g = await forge(f, r.settlement, (x) => delete x.body.leaf);
    return { ...g, records: g.records.slice(0, r.settlement + 1) };
  });

  // pb-shared-1's rules where pb-shared-2's members meet them.
  c('bets-missing', 'bad_record', 'a close with no list of bets beside it', async () => {
    const f = structuredClone(await base());
    delete f.records[round2(f).close].bets;
    return f;
  });
  c('bets-in-body', 'bad_record', "a close listing its bets in its signed body, as pb-shared-1's does", async () => {
    const f = await base();
    return forge(f, round2(f).close, (r) => (r.body.bets = r.bets));
  });
  c('bet-changed', 'bad_player_signature', 'a bet beside the close raised by the operator', () => beside((bets) => (bets[1].body.bets[0].amount += 100)));
  c('bet-other-round', 'request_mismatch', 'a genuinely signed bet of another round beside the close', () =>
    beside(async (bets) => (bets[0] = await signSharedRequest({ ...bets[0].body, round: 9 }, seatOf(bets[0].body.player)))),
  );
  c('bet-off-step', 'bets_invalid', 'a signed bet off the committed step beside the close: the limits are checked before the root', () =>
    beside(
      async (bets) => (bets[0] = await signSharedRequest({ ...bets[0].body, bets: [{ ...bets[0].body.bets[0], amount: 150 }] }, seatOf(bets[0].body.player))),
    ),
  );
  c('close-changed', 'hash_mismatch', "a close's count changed after signing", async () => {
    const f = structuredClone(await base());
    f.records[round2(f).close].body.betCount -= 1;
    return f;
  });
  c('params-pb-shared-1', 'bad_params', 'a pb-shared-2 file whose shoe commits pb-shared-1 params', async () => {
    const f = await base();
    return forge(f, 0, (r) => (r.body.params.algorithm = 'pb-shared-1'));
  });
  c('signed-as-pb-shared-1', 'hash_mismatch', "records hashed under pb-shared-1's record tag", async () => {
    const f = structuredClone(await base());
    const { signSharedRecord } = await import('../../../shared/fairness/pb-shared-1/records.ts');
    f.records[0] = await signSharedRecord(f.records[0].body, operator);
    return f;
  });
  c('settlement-payout', 'payout_mismatch', 'a payout that does not follow from the bet at its leaf', async () => {
    const f = await base();
    const r = round2(f);
    const g = await forge(f, r.settlement, (x) => (x.body.payouts[0].returned += 100));
    return { ...g, records: g.records.slice(0, r.settlement + 1) };
  });

  // The start (§D3a): it signs the root, count and cut of the start requests beside it.
  c('start-count-one-more', 'start_count_mismatch', 'a start counting 4 start requests with 3 beside it', () => forgeStart((r) => (r.body.startCount += 1)));
  c('start-request-dropped', 'start_count_mismatch', 'one start request dropped from the list beside the start', () =>
    besideStart((requests) => requests.pop()),
  );
  c('start-count-zero', 'no_players', 'a start counting 0 players, none beside it', () => forgeStart((r) => ((r.body.startCount = 0), (r.requests = []))));
  c(
    'start-seed-swapped',
    'start_root_mismatch',
    "a start request beside the start swapped for the same player's other signed seed: every signature holds, the root does not",
    () =>
      besideStart(
        async (requests) => (requests[1] = await signSharedRequest({ ...requests[1].body, clientSeed: 'a ground seed' }, seatOf(requests[1].body.player))),
      ),
  );
  c('start-root-of-shoe-b', 'start_root_mismatch', "shoe A's start signing shoe B's root", async () => {
    const f = await base();
    return forgeStart((r) => (r.body.startsRoot = f.records[indexOf(f, 'start', 2)].body.startsRoot));
  });
  c('start-cut-off-by-one', 'start_cut_mismatch', 'a start whose cut is one more than the combination of its requests', () =>
    forgeStart((r) => (r.body.cut = (r.body.cut % 51) + 1)),
  );
  c('start-requests-missing', 'bad_record', 'a start with no list of start requests beside it', async () => {
    const f = structuredClone(await base());
    delete f.records[1].requests;
    return f;
  });
  c('start-requests-in-body', 'bad_record', "a start listing its requests in its signed body, as pb-shared-1's does", () =>
    forgeStart((r) => Object.assign(r.body, { requests: r.requests })),
  );
  c('start-request-changed', 'bad_player_signature', 'a start request beside the start with its cut changed by the operator', () =>
    besideStart((requests) => (requests[0].body.cut += 1)),
  );
  c('start-requests-reordered', 'player_order', 'the start requests beside the start in another order than by player', () =>
    besideStart((requests) => requests.reverse()),
  );
  return cases;
}
