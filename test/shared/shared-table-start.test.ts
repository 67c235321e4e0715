/**
 * A shared table's start requests: the table and the verifier apply one rule (FAIRNESS.md §C6).
 * For every client seed and cut, `checkSharedStartRequest` (what the table calls before it stores
 * a start request, and what `buildSharedStart` calls before anything is signed) and the verifier
 * reading a start record that holds the same request give the same answer: both accept, or both
 * refuse with the same code.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import {
  buildSharedCommitment,
  buildSharedStart,
  checkSharedStartRequest,
  type SharedCommitment,
  type SharedParams,
  sharedStartRequest,
  type SharedStart,
  type SignedShared,
  signSharedRecord,
  signSharedRequest,
  verifySharedFile,
} from '../../shared/fairness/pb-shared-1/index.ts';
import { type Jwks, playerKeyOf, type SigningKey } from '../../shared/index.ts';
import { hexOf, operatorKey, seatKey, vectorBeacon } from './shared-table-fixtures.ts';

const SHOE_1: SharedParams = { algorithm: 'pb-shared-1', mode: 'shoe', decks: 1, burn: true, cutCardFromEnd: 14, beaconDeadlineSeconds: 60 };

/** Seeds a player may send, each with what both sides must say of it. */
export const START_SEEDS: { about: string; clientSeed: string; cut?: number; expect: 'ok' | 'bad_client_seed' | 'bad_cut' }[] = [
  { about: 'empty', clientSeed: '', expect: 'bad_client_seed' },
  { about: 'a control character', clientSeed: 'a\u0001b', expect: 'bad_client_seed' },
  { about: 'DEL', clientSeed: 'a\u007fb', expect: 'bad_client_seed' },
  { about: 'a C1 control', clientSeed: 'a\u0085b', expect: 'bad_client_seed' },
  { about: 'a line separator', clientSeed: 'a\u2028b', expect: 'bad_client_seed' },
  { about: 'NFD text (e + combining acute)', clientSeed: 'cafe\u0301', expect: 'bad_client_seed' },
  { about: '129 code points', clientSeed: 'x'.repeat(129), expect: 'bad_client_seed' },
  { about: '300 code points', clientSeed: 'x'.repeat(300), expect: 'bad_client_seed' },
  { about: 'an unassigned code point (U+0378)', clientSeed: 'a\u0378', expect: 'bad_client_seed' },
  { about: 'a noncharacter (U+FDD0)', clientSeed: '\ufdd0', expect: 'bad_client_seed' },
  { about: 'the same text in NFC', clientSeed: 'caf\u00e9', expect: 'ok' },
  { about: '128 ASCII code points', clientSeed: 'x'.repeat(128), expect: 'ok' },
  { about: '128 four-byte code points (the longest legal seed in bytes)', clientSeed: '🎲'.repeat(128), expect: 'ok' },
  { about: 'one space', clientSeed: ' ', expect: 'ok' },
  { about: 'a cut of 0', clientSeed: 'seed', cut: 0, expect: 'bad_cut' },
  { about: 'a cut of 52 in a 52-card stack', clientSeed: 'seed', cut: 52, expect: 'bad_cut' },
  { about: 'a cut of 51', clientSeed: 'seed', cut: 51, expect: 'ok' },
];

let operator: SigningKey;
let seat: SigningKey;
let jwks: Jwks;
let commitment: SignedShared<SharedCommitment>;
beforeAll(async () => {
  operator = await operatorKey();
  seat = await seatKey(0);
  jwks = { keys: [operator.publicJwk] };
  const body = buildSharedCommitment({
    table: 'hall-1/start',
    shoe: 1,
    keyId: operator.keyId,
    params: SHOE_1,
    beacon: vectorBeacon().chain,
    serverSeed: hexOf('start rules seed'),
    prev: null,
    issuedAt: '2025-01-01T12:00:00.000Z',
  });
  commitment = await signSharedRecord(body, operator);
});

describe('the table and the verifier agree on every start rule', () => {
  for (const c of START_SEEDS) {
    test(`${c.about}: ${c.expect}`, async () => {
      const request = await signSharedRequest(sharedStartRequest(commitment, playerKeyOf(seat), c.clientSeed, c.cut ?? 17), seat);
      // The table's side: the check it runs before storing the request.
      const table = checkSharedStartRequest(commitment, request.body);
      expect(table.ok ? 'ok' : table.error.code).toBe(c.expect);
      // The operator's builder signs nothing the check refuses.
      const built = buildSharedStart(commitment, [request], operator.keyId, '2025-01-01T12:00:01.000Z');
      expect(built.ok ? 'ok' : built.error.code).toBe(c.expect);
      // The verifier's side: a start record holding this request, made by hand and signed.
      const start: SharedStart = {
        type: 'start',
        table: commitment.body.table,
        shoe: 1,
        keyId: operator.keyId,
        requests: [request],
        prev: commitment.hash,
        issuedAt: '2025-01-01T12:00:01.000Z',
      };
      const report = await verifySharedFile({ version: 'pb-shared-1', records: [commitment, await signSharedRecord(start, operator)] }, jwks);
      expect(report.code).toBe(c.expect);
    });
  }

  test('an unpaired surrogate cannot be signed (no canonical JSON): the check refuses it too', async () => {
    const body = sharedStartRequest(commitment, playerKeyOf(seat), 'a\ud800b', 5);
    await expect(Promise.resolve().then(() => signSharedRequest(body, seat))).rejects.toThrow(RangeError);
    const table = checkSharedStartRequest(commitment, body);
    expect(table.ok ? 'ok' : table.error.code).toBe('bad_client_seed');
  });

  test('a request answering another commitment is refused by both, as request_mismatch', async () => {
    const request = await signSharedRequest({ ...sharedStartRequest(commitment, playerKeyOf(seat), 'seed', 5), commitment: hexOf('another') }, seat);
    const table = checkSharedStartRequest(commitment, request.body);
    expect(table.ok ? 'ok' : table.error.code).toBe('request_mismatch');
    const start: SharedStart = {
      type: 'start',
      table: 'hall-1/start',
      shoe: 1,
      keyId: operator.keyId,
      requests: [request],
      prev: commitment.hash,
      issuedAt: '2025-01-01T12:00:01.000Z',
    };
    expect((await verifySharedFile({ version: 'pb-shared-1', records: [commitment, await signSharedRecord(start, operator)] }, jwks)).code).toBe(
      'request_mismatch',
    );
  });
});
