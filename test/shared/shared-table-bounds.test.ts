/**
 * The bounds of a shared table's records and messages (API.md "Shared tables", bounds): with one
 * key, one start request and one bet request per seated session, and MAX_SEATS seats, every record
 * and message stays under Cloudflare's limits whatever the players send. Built here at the
 * maximum: MAX_SEATS seats, each with the longest legal start request and the largest legal bet
 * request, at the longest table id, in the VIP room.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  buildClose,
  buildSharedCommitment,
  buildSharedStart,
  type SharedCommitment,
  type SharedParams,
  sharedBetRequest,
  sharedStartRequest,
  type SignedShared,
  type SignedSharedRequest,
  signSharedRecord,
  signSharedRequest,
  type SharedBetRequest,
  type SharedStartRequest,
} from '../../shared/fairness/pb-shared-1/index.ts';
import { type Bet, generateSigningKey, playerKeyOf, ROOMS, type SigningKey, validateBets } from '../../shared/index.ts';
import { MAX_BET_REQUEST_BYTES, MAX_SEATS, MAX_START_REQUEST_BYTES, serverMessageText } from '../../shared/wire/shared-table-socket.ts';
import { parseTableId } from '../../worker/shared-table/settings.ts';
import { hexOf, operatorKey, vectorBeacon } from './shared-table-fixtures.ts';

/** Cloudflare: a WebSocket message is at most 1 MiB; a SQLite row (a record, the state) at most 2 MB. */
const WEBSOCKET_MESSAGE = 1_048_576;
const SQLITE_ROW = 2_000_000;
const bytes = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v)).length;

const TABLE = `vip/${'z'.repeat(32)}.reshuffle.fast`;
const PARAMS: SharedParams = { algorithm: 'pb-shared-1', mode: 'shoe', decks: 8, burn: true, cutCardFromEnd: 14, beaconDeadlineSeconds: 60 };
/** The longest seed in bytes: 128 code points of four UTF-8 bytes each. */
const LONGEST_SEED = '🎲'.repeat(128);
/** Nine boxes (three sectors, three boxes), each type's sum at the VIP maximum, the amounts with the most digits. */
const LARGEST_BETS: Bet[] = [0, 1, 2].flatMap((sector) =>
  (['player', 'banker', 'tie'] as const).map((box) => ({ sector, box, amount: sector === 0 ? 950_000 : 25_000 })),
);

let operator: SigningKey;
let commitment: SignedShared<SharedCommitment>;
let starts: SignedSharedRequest<SharedStartRequest>[];
let bets: SignedSharedRequest<SharedBetRequest>[];

beforeAll(async () => {
  operator = await operatorKey();
  expect(parseTableId('vip', TABLE.slice(4))).not.toBeNull();
  expect(validateBets(LARGEST_BETS, ROOMS.vip.limits).ok).toBe(true);
  commitment = await signSharedRecord(
    buildSharedCommitment({
      table: TABLE,
      shoe: 999_999_999,
      keyId: operator.keyId,
      params: PARAMS,
      limits: ROOMS.vip.limits,
      beacon: vectorBeacon().chain,
      serverSeed: hexOf('bounds'),
      prev: hexOf('the previous reveal'),
      issuedAt: '2025-01-01T12:00:00.000Z',
    }),
    operator,
  );
  // One seat's key signs every request (the sizes do not depend on whose key it is); the player names differ as keys do.
  const seats = await Promise.all(Array.from({ length: 8 }, async () => (await generateSigningKey()).key));
  starts = [];
  bets = [];
  for (let i = 0; i < MAX_SEATS; i++) {
    const key = seats[i % seats.length]!;
    const start = await signSharedRequest(sharedStartRequest(commitment, playerKeyOf(key), LONGEST_SEED, 415), key);
    const bet = await signSharedRequest(sharedBetRequest(TABLE, 999_999_999, 99_999, playerKeyOf(key), LARGEST_BETS), key);
    // Distinct players, as distinct sessions sit with distinct keys (the order check of the builders needs them).
    starts.push({ ...start, body: { ...start.body, player: `${start.body.player.slice(0, 38)}${String(i).padStart(5, '0')}` } });
    bets.push({ ...bet, body: { ...bet.body, player: `${bet.body.player.slice(0, 38)}${String(i).padStart(5, '0')}` } });
  }
});

describe('every record and message of a table is bounded by its seats, not by what players send', () => {
  test('the longest legal start request and the largest legal bet request fit the stated bounds', () => {
    expect(bytes(starts[0])).toBeLessThanOrEqual(MAX_START_REQUEST_BYTES);
    expect(bytes(bets[0])).toBeLessThanOrEqual(MAX_BET_REQUEST_BYTES);
  });

  test(`${MAX_SEATS} seats at the maximum: the start, the close, the close message and the public state stay under 1 MiB`, async () => {
    const start = buildSharedStart(commitment, starts, operator.keyId, '2025-01-01T12:00:01.000Z');
    if (!start.ok) throw new Error(start.error.message);
    const startRecord = await signSharedRecord(start.value, operator);
    const close = buildClose({
      last: startRecord,
      round: 99_999,
      bets,
      beacon: vectorBeacon().chain,
      keyId: operator.keyId,
      issuedAt: '2025-01-01T12:00:02.000Z',
    });
    if (!close.ok) throw new Error(close.error.message);
    const closeRecord = await signSharedRecord(close.value, operator);
    const closeMessage = serverMessageText({ type: 'close', shoe: 999_999_999, round: 99_999, close: closeRecord, connections: 2_000, start: startRecord });
    // The public state's parts that grow with the seats (everything else is one record or a number).
    const betsNow = bets.map((b) => ({ player: b.body.player, stake: 1_000_000, bets: b.body.bets }));
    const stateGrowing = bytes(startRecord) + bytes(closeRecord) + bytes(betsNow);
    const stateFixed = 3 * bytes(commitment) + 100 * 4; // the commitment, the last deal (smaller than a commitment), and 100 outcomes
    const figures = { start: bytes(startRecord), close: bytes(closeRecord), closeMessage: bytes(closeMessage), state: stateGrowing + stateFixed };
    console.log(`shared-table bounds at ${MAX_SEATS} seats (bytes): ${JSON.stringify(figures)}`);
    expect(figures.start).toBeLessThan(SQLITE_ROW);
    expect(figures.close).toBeLessThan(SQLITE_ROW);
    expect(figures.closeMessage).toBeLessThan(WEBSOCKET_MESSAGE);
    expect(figures.state).toBeLessThan(WEBSOCKET_MESSAGE);
    expect(figures.start).toBeLessThanOrEqual(MAX_SEATS * MAX_START_REQUEST_BYTES + 1_000);
    expect(figures.close).toBeLessThanOrEqual(MAX_SEATS * MAX_BET_REQUEST_BYTES + 1_000);
  });
});
