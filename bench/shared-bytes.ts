/**
 * Bytes a player receives per round at a shared table, pb-shared-1 against pb-shared-2, at 10, 100,
 * 1,000 and 10,000 bettors (PB_SHARED_SIZES): the messages exactly as the table serialises them
 * (`serverMessageText`), built with the same builders and signatures the table uses. What a player
 * receives in a round where everyone bets: `open`, its `bet-ack`, the `close`, (pb-shared-2) its
 * `proof`, the `deal`, its `settlement`, and its `balance`; at tables of up to 50 connections also
 * one `bet` per other bettor (the same under both versions). Then the shoe's start, counted apart
 * (it comes once a shoe, with the shoe's first close: every round where a shoe lasts one round):
 * the start record as pb-shared-1 lists it — one signed start request per seated player, as
 * pb-shared-2's start did before FAIRNESS.md §D3a — against pb-shared-2's start without its
 * requests plus the player's `start-proof`. Every seated player sends a start request with a
 * seed as the widget makes one (`newClientSeed`). Figures only: nothing here passes or fails.
 *
 *   npx node bench/shared-bytes.ts
 */
import { generateSigningKey, type SigningKey } from '../shared/index.ts';
import {
  buildClose,
  buildSharedCommitment,
  buildSharedStart,
  type SharedParams,
  sharedBetRequest,
  sharedStartRequest,
  signSharedRecord,
  signSharedRequest,
} from '../shared/fairness/pb-shared-1/index.ts';
import { playerKeyOf } from '../shared/fairness/pb-fair-2/records.ts';
import { buildMerkleClose, buildMerkleStart, signMerkleClose, signMerkleStart } from '../shared/fairness/pb-shared-2/operator.ts';
import { closeRecordOf, recordOf, signShared2Record } from '../shared/fairness/pb-shared-2/records.ts';
import { startProofs } from '../shared/fairness/pb-shared-2/start.ts';
import { betProofs } from '../shared/fairness/pb-shared-2/tree.ts';
import { newClientSeed } from '../shared/random.ts';
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

/**
 * The start's bytes to one player of `n` seated: the `start` member of the shoe's first `close`
 * message, listed (the requests in the record, as pb-shared-1) against committed (pb-shared-2,
 * §D3a: the record alone) plus the player's `start-proof` (the longest audit path).
 */
async function startBytes(n: number, closeMessage: Extract<ServerMessage, { type: 'close' }>) {
  const params: SharedParams = { algorithm: 'pb-shared-2', mode: 'reshuffle', decks: 8, roundLimit: 1, beaconDeadlineSeconds: 10 };
  const body = buildSharedCommitment({
    table: TABLE,
    shoe: 1,
    keyId: operator.keyId,
    params,
    beacon: chain,
    serverSeed: hexOf('bench start'),
    prev: null,
    issuedAt: '2025-01-01T12:00:00.000Z',
  });
  const commitment = await signShared2Record(body, operator);
  const random = (k: number) => crypto.getRandomValues(new Uint8Array(k));
  const requests = await Promise.all(
    keys.slice(0, n).map((k, i) => signSharedRequest(sharedStartRequest(commitment, playerKeyOf(k), newClientSeed(random), 1 + ((i * 37) % 415)), k)),
  );
  const issuedAt = '2025-01-01T12:00:01.000Z';
  const listed = buildSharedStart(commitment, requests, operator.keyId, issuedAt);
  const merkle = buildMerkleStart(commitment, requests, operator.keyId, issuedAt);
  if (!listed.ok || !merkle.ok) throw new Error('the start cannot be built');
  const entry = await signMerkleStart(merkle.value, operator);
  const proofs = startProofs(entry.requests);
  const longest = proofs.reduce((a, p) => (p.path.length > a.path.length ? p : a));
  const alone = bytes(closeMessage);
  const before = bytes({ ...closeMessage, start: await signSharedRecord(listed.value, operator) }) - alone;
  const after =
    bytes({ ...closeMessage, start: recordOf(entry) }) -
    alone +
    bytes({ type: 'start-proof', shoe: 1, player: entry.requests[longest.leaf]!.body.player, proof: longest });
  return { before, after, hashes: longest.path.length };
}

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
  const start = await startBytes(n, { type: 'close', shoe: 1, round: 1, close: closeRecordOf(entry), connections: n });
  console.log(
    `shared-table start-bytes players=${n} listed bytes/player/shoe=${start.before} committed bytes/player/shoe=${start.after} (start and start-proof: ${start.hashes} hashes); ` +
      `a shoe of one round (reshuffle, roundLimit 1): bytes/player/round ${b2 + start.before} → ${b2 + start.after}, ` +
      `table egress/round ${(((b2 + start.before) * n) / 1e6).toFixed(2)} MB → ${(((b2 + start.after) * n) / 1e6).toFixed(2)} MB`,
  );
}
