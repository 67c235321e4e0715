/**
 * Bytes a player receives per round at a shared table, pb-shared-1 against pb-shared-2, at 10, 100,
 * 1,000 and 10,000 bettors (PB_SHARED_SIZES): the messages exactly as the table serialises them
 * (`serverMessageText`), built with the same builders and signatures the table uses. What a player
 * receives in a round where everyone bets: `open`, its `bet-ack`, the `close`, (pb-shared-2) its
 * `proof`, the `deal`, its `settlement`, and its `balance`; at tables of up to 50 connections also
 * one `bet` per other bettor (the same under both versions). The start record (once a shoe) is left
 * out of both. Figures only: nothing here passes or fails.
 *
 *   npx node bench/shared-bytes.ts
 */
import { generateSigningKey, type SigningKey } from '../shared/index.ts';
import { buildClose, type SharedParams, sharedBetRequest, signSharedRecord, signSharedRequest } from '../shared/fairness/pb-shared-1/index.ts';
import { playerKeyOf } from '../shared/fairness/pb-fair-2/records.ts';
import { betProofs, buildMerkleClose, closeRecordOf, signMerkleClose } from '../shared/fairness/pb-shared-2/index.ts';
import { type ServerMessage, serverMessageText } from '../shared/wire/shared-table-socket.ts';
import { playSharedTable } from '../test/players/pb-shared-1.ts';
import { hexOf, operatorKey, vectorBeacon, vectorBeaconRound } from '../test/shared/shared-table-fixtures.ts';

const SIZES = (process.env.PB_SHARED_SIZES ?? '10,100,1000,10000').split(',').map(Number);
const LIVE_BETS_MAX_SOCKETS = 50;
const BOXES = ['player', 'banker', 'tie'] as const;
const bytes = (m: ServerMessage) => new TextEncoder().encode(serverMessageText(m)).length;
const TABLE = 'hall-1/bench-bytes';

const operator = await operatorKey();
const chain = vectorBeacon().chain;
const keys: SigningKey[] = [];
for (let i = 0; i < Math.max(...SIZES); i++) keys.push((await generateSigningKey()).key);

/** A deal and a settlement of each version, as the table signs them (their size does not depend on the table's). */
async function dealt(version: 'pb-shared-1' | 'pb-shared-2') {
  const params: SharedParams = { algorithm: version, mode: 'shoe', decks: 6, burn: true, cutCardFromEnd: 156, beaconDeadlineSeconds: 10 };
  const f = await playSharedTable({
    table: TABLE,
    operatorKey: operator,
    players: keys.slice(0, 2),
    balances: [1_000_000, 1_000_000],
    chain,
    beacon: vectorBeaconRound,
    version,
    shoes: [
      {
        params,
        serverSeed: hexOf('bench bytes'),
        seats: [{ seat: 0, clientSeed: 'seat 0', cut: 100 }],
        rounds: [{ bets: { 0: [{ sector: 1, box: 'banker', amount: 5_000 }], 1: [{ sector: 2, box: 'player', amount: 2_500 }] } }],
        end: 'open',
      },
    ],
  });
  const deal = f.records.find((r) => r.body.type === 'deal')!;
  const settlement = f.records.find((r) => r.body.type === 'settlement')!;
  return { deal, settlement };
}
const deals = { 'pb-shared-1': await dealt('pb-shared-1'), 'pb-shared-2': await dealt('pb-shared-2') };

for (const n of SIZES) {
  const requests = await Promise.all(
    keys
      .slice(0, n)
      .map((k, i) =>
        signSharedRequest(sharedBetRequest(TABLE, 1, 1, playerKeyOf(k), [{ sector: i % 5, box: BOXES[i % 3]!, amount: 100 * (1 + (i % 50)) }]), k),
      ),
  );
  const args = {
    last: { body: { table: TABLE, shoe: 1 }, hash: hexOf('last') },
    round: 1,
    bets: requests,
    beacon: chain,
    keyId: operator.keyId,
    issuedAt: '2025-01-01T12:00:00.000Z',
  };
  const listed = buildClose(args);
  const merkle = buildMerkleClose(args);
  if (!listed.ok || !merkle.ok) throw new Error('the close cannot be built');
  const close1 = await signSharedRecord(listed.value, operator);
  const entry = await signMerkleClose(merkle.value, operator);
  const proofs = betProofs(entry.bets);
  const longest = proofs.reduce((a, p) => (p.path.length > a.path.length ? p : a));
  const me = longest.leaf; // the bettor with the longest audit path
  const common = (version: 'pb-shared-1' | 'pb-shared-2') => {
    const d = deals[version];
    const live =
      n <= LIVE_BETS_MAX_SOCKETS
        ? (n - 1) * bytes({ type: 'bet', shoe: 1, round: 1, player: playerKeyOf(keys[0]!), stake: 100, bets: requests[0]!.body.bets })
        : 0;
    return (
      bytes({ type: 'open', shoe: 1, round: 1, closesAt: '2025-01-01T12:00:00.000Z', connections: n }) +
      bytes({ type: 'bet-ack', shoe: 1, round: 1, player: playerKeyOf(keys[0]!), stake: 100, balance: 1_000_000 }) +
      live +
      bytes({ type: 'deal', shoe: 1, round: 1, deal: d.deal as never }) +
      bytes({ type: 'settlement', shoe: 1, round: 1, settlement: d.settlement as never }) +
      bytes({ type: 'balance', balance: 1_000_000, transfer: 'pbt1-0000000000000000000000000000000000000000000', kind: 'credit', shoe: 1, round: 1 })
    );
  };
  const before = bytes({ type: 'close', shoe: 1, round: 1, close: close1, connections: n });
  const closeAfter = bytes({ type: 'close', shoe: 1, round: 1, close: closeRecordOf(entry), connections: n });
  const proofAfter = bytes({ type: 'proof', shoe: 1, round: 1, player: entry.bets[me]!.body.player, proof: proofs[me]! });
  const b1 = before + common('pb-shared-1');
  const b2 = closeAfter + proofAfter + common('pb-shared-2');
  console.log(
    `shared-table bytes players=${n} pb-shared-1 bytes/player/round=${b1} (close ${before}) pb-shared-2 bytes/player/round=${b2} (close ${closeAfter}, proof ${proofAfter}: ${longest.path.length} hashes) ` +
      `table egress/round ${((b1 * n) / 1e6).toFixed(2)} MB → ${((b2 * n) / 1e6).toFixed(2)} MB`,
  );
}
