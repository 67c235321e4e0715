import { expect, test } from 'vitest';
import {
  buildFair1CommitmentBody,
  buildFair1RevealBody,
  buildFair1StartBody,
  FAIR1_DEFAULT_SHOE_PARAMS,
  ROOMS,
  fair1SeedCommitment,
} from '../../shared/index.ts';

const seed = 'ab'.repeat(32);

test('the commitment carries the seed commitment, never the seed, and the limits only when given', () => {
  const body = buildFair1CommitmentBody({ table: 't', shoe: 2, params: FAIR1_DEFAULT_SHOE_PARAMS, serverSeed: seed, prev: 'p', issuedAt: 'now' });
  expect(body).toEqual({
    type: 'commitment',
    table: 't',
    shoe: 2,
    params: FAIR1_DEFAULT_SHOE_PARAMS,
    serverSeedHash: fair1SeedCommitment(seed),
    prev: 'p',
    issuedAt: 'now',
  });
  expect('limits' in body).toBe(false);
  expect(JSON.stringify(body)).not.toContain(seed);
  const limited = buildFair1CommitmentBody({
    table: 't',
    shoe: 1,
    params: FAIR1_DEFAULT_SHOE_PARAMS,
    serverSeed: seed,
    prev: null,
    issuedAt: 'now',
    limits: ROOMS.vip.limits,
  });
  expect(limited.limits).toEqual(ROOMS.vip.limits);
});

test('start and reveal bodies hold exactly their record fields, whatever else the arguments carry', () => {
  const start = { table: 't', shoe: 1, clientSeed: 'hi', cut: 40, prev: 'c', issuedAt: 'now' };
  expect(buildFair1StartBody({ ...start, serverSeed: seed } as typeof start)).toEqual({ type: 'start', ...start });
  const reveal = { table: 't', shoe: 1, serverSeed: seed, rounds: 3, reason: 'ended-early' as const, prev: 'r', issuedAt: 'now' };
  expect(buildFair1RevealBody({ ...reveal, extra: 1 } as typeof reveal)).toEqual({ type: 'reveal', ...reveal });
});
