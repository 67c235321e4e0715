/**
 * The pb-shared-1 golden vectors of FAIRNESS.md part III, computed from fixed inputs: the
 * operator's test key, seat keys from fixed labels, the vectors' local beacon, and two REAL
 * quicknet rounds (1000 and 657413) for a table whose closes fall just before their publication.
 */
import { QUICKNET, timeOfRound } from '../../shared/beacon.ts';
import {
  combinedClientSeed,
  combinedCut,
  type SharedFile,
  type SharedParams,
  sharedRequestDigest,
  startSharedShoe,
} from '../../shared/fairness/pb-shared-1/index.ts';
import { type SharedRoundScript, playSharedTable } from '../players/pb-shared-1.ts';
import { type Bet, bytesToHex, cardCode, playerKeyOf } from '../../shared/index.ts';
import { hexOf, operatorKey, QUICKNET_ROUNDS, seatKey, vectorBeacon, vectorBeaconRound } from '../shared/shared-table-fixtures.ts';

export const SHARED_SHOE_1: SharedParams = { algorithm: 'pb-shared-1', mode: 'shoe', decks: 1, burn: true, cutCardFromEnd: 14, beaconDeadlineSeconds: 60 };
export const SHARED_RESHUFFLE_8: SharedParams = { algorithm: 'pb-shared-1', mode: 'reshuffle', decks: 8, roundLimit: 2, beaconDeadlineSeconds: 60 };
const HALL_1 = { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] };

export async function computeSharedVectors() {
  const operator = await operatorKey();
  const seats = await Promise.all([0, 1, 2].map(seatKey));
  const beacon = vectorBeacon();
  const players = seats.map(playerKeyOf);
  const starts = [
    { player: players[0]!, clientSeed: 'seat zero', cut: 10 },
    { player: players[1]!, clientSeed: 'Ünïcödé 🎲', cut: 40 },
    { player: players[2]!, clientSeed: '牌靴', cut: 26 },
  ].sort((a, b) => (a.player < b.player ? -1 : 1));
  const serverSeed = hexOf('pb-shared-1 vector server seed');
  const clientSeed = combinedClientSeed(starts);
  const cut = combinedCut(
    1,
    starts.map((s) => s.cut),
  );
  const start = startSharedShoe(SHARED_SHOE_1, serverSeed, clientSeed, cut);

  // A local-beacon table: 1 deck with burn to the cut card (round 3 voided), then 8-deck reshuffle.
  const rounds: SharedRoundScript[] = Array.from({ length: 20 }, (_, i) => ({
    bets: {
      0: [{ sector: 0, box: 'banker' as const, amount: 1_000 }],
      1: [
        { sector: 1, box: 'player' as const, amount: 500 + 100 * (i % 5) },
        { sector: 1, box: 'tie' as const, amount: 100 },
      ],
      ...(i % 2 ? { 2: [{ sector: 4, box: 'player' as const, amount: 2_000 }] } : {}),
    } as Record<number, Bet[]>,
    ...(i === 2 ? { fate: 'void' as const } : {}),
  }));
  const table = await playSharedTable({
    table: 'vector-shared',
    operatorKey: operator,
    players: seats,
    balances: [100_000, 50_000, 200_000],
    chain: beacon.chain,
    beacon: vectorBeaconRound,
    shoes: [
      {
        params: SHARED_SHOE_1,
        limits: HALL_1,
        serverSeed,
        seats: [
          { seat: 0, clientSeed: 'seat zero', cut: 10 },
          { seat: 1, clientSeed: 'Ünïcödé 🎲', cut: 40 },
          { seat: 2, clientSeed: '牌靴', cut: 26 },
        ],
        rounds,
      },
      {
        params: SHARED_RESHUFFLE_8,
        serverSeed: hexOf('pb-shared-1 vector server seed 2'),
        seats: [{ seat: 2, clientSeed: 'x', cut: 208 }],
        rounds: rounds.slice(0, 2).map((r) => ({ bets: r.bets })),
      },
    ],
  });
  const records = table.records;
  const firstClose = records.find((r) => r.body.type === 'close')!;
  const firstDeal = records.find((r) => r.body.type === 'deal')!;
  const firstSettlement = records.find((r) => r.body.type === 'settlement')!;
  const firstBet = (firstClose.body as { bets: { body: object }[] }).bets[0]!;

  // A table on REAL quicknet rounds: each shoe's one close falls 1.5 s before the round is published.
  const quicknet = await playSharedTable({
    table: 'vector-quicknet',
    operatorKey: operator,
    players: seats,
    balances: [100_000, 50_000, 200_000],
    chain: QUICKNET,
    startTime: timeOfRound(QUICKNET, 1000) - 3_500,
    beacon: (round) => {
      const r = QUICKNET_ROUNDS[round];
      if (!r) throw new RangeError(`no recorded quicknet round ${round}`);
      return r;
    },
    shoes: [1000, 657413].map((round, i) => ({
      params: SHARED_SHOE_1,
      limits: HALL_1,
      serverSeed: hexOf(`pb-shared-1 quicknet server seed ${i}`),
      seats: [
        { seat: 0, clientSeed: 'q', cut: 20 },
        { seat: 1, clientSeed: 'n', cut: 30 },
      ],
      // Commitment at t − 3.5 s, start at t − 2.5 s, close at t − 1.5 s: the first round after the close is `round`.
      startAt: timeOfRound(QUICKNET, round) - 3_500,
      rounds: [{ bets: rounds[1]!.bets }],
      end: 'closed' as const,
    })),
  });
  const quicknetCloses = quicknet.records
    .filter((r) => r.body.type === 'close')
    .map((r) => ({ issuedAt: r.body.issuedAt, beaconRound: (r.body as { beaconRound: number }).beaconRound, hash: r.hash }));
  const quicknetDeals = quicknet.records
    .filter((r) => r.body.type === 'deal')
    .map((r) => ({ hash: r.hash, cards: (r.body as { cards: { code: string }[] }).cards.map((c) => c.code) }));
  const file = (f: SharedFile) => ({ version: f.version, records: f.records });

  return {
    about: 'pb-shared-1 golden vectors (FAIRNESS.md part III). Written by test/vectors/generate-shared.ts.',
    keys: { operator: operator.keyId, players },
    beacon: { secretSeed: 'pb-shared-1 vector beacon', chain: beacon.chain },
    startInputs: { requests: starts, clientSeed, cut, stackFirst8: start.remaining.slice(0, 8).map(cardCode), cutCardAt: start.cutCardAt },
    table: {
      file: file(table),
      commitment: records[0]!.hash,
      start: records[1]!.hash,
      firstBetRequest: { body: firstBet.body, digest: bytesToHex(sharedRequestDigest(firstBet.body)) },
      firstClose: {
        hash: firstClose.hash,
        signature: firstClose.signature,
        issuedAt: firstClose.body.issuedAt,
        beaconRound: (firstClose.body as { beaconRound: number }).beaconRound,
      },
      firstDeal: {
        hash: firstDeal.hash,
        beacon: (firstDeal.body as { beacon: object }).beacon,
        cards: (firstDeal.body as { cards: { code: string; position: number }[] }).cards,
      },
      firstSettlement: { hash: firstSettlement.hash },
      lastHash: records.at(-1)!.hash,
      balances: table.balances,
    },
    quicknet: { file: file(quicknet), closes: quicknetCloses, deals: quicknetDeals, lastHash: quicknet.records.at(-1)!.hash },
  };
}
