/**
 * pb-shared-1 (FAIRNESS.md part III): many players at one shoe, rounds closed by the operator and
 * dealt from the server seed and a beacon round published after the close. Honest tables verify;
 * every tampering gives its code.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { timeOfRound } from '../../shared/beacon.ts';
import {
  buildClose,
  buildSharedDeal,
  combinedClientSeed,
  combinedCut,
  dealSharedRound,
  owedSharedRound,
  type SharedFile,
  type SharedParams,
  type SignedShared,
  signSharedRecord,
  signSharedRequest,
  startSharedShoe,
  validateSharedBet,
  verifyMyRounds,
  verifySharedText,
  verifySharedTranscript,
} from '../../shared/fairness/pb-shared-1/index.ts';
import { playSharedTable, type PlaySharedOptions, type SharedShoeScript } from '../players/pb-shared-1.ts';
import { type Bet, type Jwks, playerKeyOf, type SigningKey, verifyFileText } from '../../shared/index.ts';
import { hexOf, operatorKey, seatKey, vectorBeacon, vectorBeaconRound } from './shared-table-fixtures.ts';

const SHOE_1: SharedParams = { algorithm: 'pb-shared-1', mode: 'shoe', decks: 1, burn: true, cutCardFromEnd: 14, beaconDeadlineSeconds: 60 };
const RESHUFFLE_6: SharedParams = { algorithm: 'pb-shared-1', mode: 'reshuffle', decks: 6, roundLimit: 4, beaconDeadlineSeconds: 30 };
const HALL_1 = { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] };
const BOXES = ['player', 'banker', 'tie'] as const;

let operator: SigningKey;
let players: SigningKey[];
let jwks: Jwks;
beforeAll(async () => {
  operator = await operatorKey();
  players = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
  jwks = { keys: [operator.publicJwk] };
});

/** Round i's bets: seats 0–4 in turn, some sitting out. */
const bets = (i: number): Record<number, Bet[]> => {
  const out: Record<number, Bet[]> = {};
  for (let seat = 0; seat < 5; seat++) {
    if ((i + seat) % 4 === 3) continue;
    out[seat] = [{ sector: seat, box: BOXES[(i + seat) % 3]!, amount: 100 * (1 + ((i * 7 + seat) % 10)) }];
  }
  return out;
};
const shoeA = (n = 30, extra: Partial<SharedShoeScript> = {}): SharedShoeScript => ({
  params: SHOE_1,
  limits: HALL_1,
  serverSeed: hexOf('shared server seed A'),
  seats: [0, 1, 2].map((seat) => ({ seat, clientSeed: `seat ${seat} 🎲`, cut: 7 + 13 * seat })),
  rounds: Array.from({ length: n }, (_, i) => ({ bets: bets(i) })),
  ...extra,
});
const shoeB = (): SharedShoeScript => ({
  params: RESHUFFLE_6,
  serverSeed: hexOf('shared server seed B'),
  seats: [{ seat: 4, clientSeed: 'B', cut: 100 }],
  rounds: Array.from({ length: 4 }, (_, i) => ({ bets: bets(i + 1), ...(i === 1 ? { fate: 'void' as const } : {}) })),
});

const play = (shoes: SharedShoeScript[], mutate?: PlaySharedOptions['mutate']) =>
  playSharedTable({
    table: 'shared',
    operatorKey: operator,
    players,
    balances: [100_000, 100_000, 100_000, 100_000, 100_000],
    chain: vectorBeacon().chain,
    beacon: vectorBeaconRound,
    shoes,
    ...(mutate ? { mutate } : {}),
  });
const text = (f: Pick<SharedFile, 'version' | 'records'>) => JSON.stringify({ version: f.version, records: f.records });
const verify = async (f: Pick<SharedFile, 'version' | 'records'>) => verifySharedText(text(f), jwks);
const indexOf = (f: SharedFile, type: string, nth = 1) => {
  let seen = 0;
  return f.records.findIndex((r) => r.body.type === type && ++seen === nth);
};
/** Changes one record's body; the operator re-signs it. The records after it are left as they were. */
async function forge(f: SharedFile, index: number, change: (b: any) => unknown): Promise<SharedFile> {
  const records = structuredClone(f.records);
  await change(records[index]!.body);
  records[index] = await signSharedRecord(records[index]!.body, operator);
  return { version: 'pb-shared-1', records };
}

describe('an honest shared table', () => {
  let file: SharedFile & { balances: number[] };
  beforeAll(async () => {
    file = await play([shoeA(), shoeB()]);
  });

  test('verifies: every round dealt from a verified beacon round, every player settled', async () => {
    const r = await verify(file);
    expect(r.failure).toBeUndefined();
    expect(r).toMatchObject({ ok: true, code: 'ok', pending: false });
    const statuses = r.rounds.map((x) => x.status);
    expect(statuses.filter((s) => s === 'verified').length).toBeGreaterThan(5);
    expect(statuses).toContain('voided');
    expect(statuses.every((s) => s === 'verified' || s === 'voided')).toBe(true);
    expect(Math.max(...r.rounds.map((x) => x.players))).toBe(4);
    // The shoe ends at the cut card; the reshuffle shoe at its round limit.
    const reveals = file.records.filter((x) => x.body.type === 'reveal').map((x) => (x.body as { reason: string }).reason);
    expect(reveals).toEqual(['cut-card', 'reshuffle-limit']);
  });

  test('one settlement per bettor, in the close order, and the balances follow', () => {
    const closes = file.records.filter((x) => x.body.type === 'close').length;
    const deals = file.records.filter((x) => x.body.type === 'deal').length;
    expect(deals).toBe(closes - 1); // one void
    let settlements = 0;
    for (const [i, r] of file.records.entries()) {
      if (r.body.type !== 'deal') continue;
      const close = file.records[i - 1]!.body as { bets: { body: { player: string } }[] };
      const after = file.records.slice(i + 1, i + 1 + close.bets.length).map((s) => (s.body as { player: string }).player);
      expect(after).toEqual(close.bets.map((b) => b.body.player));
      settlements += after.length;
    }
    expect(file.records.filter((x) => x.body.type === 'settlement').length).toBe(settlements);
  });

  test('verifySharedTranscript takes the text or the parsed file', async () => {
    expect((await verifySharedTranscript(text(file), jwks)).code).toBe('ok');
    expect((await verifySharedTranscript({ version: file.version, records: file.records }, jwks)).code).toBe('ok');
    expect((await verifySharedTranscript(text(file).replace('"round":1,', '"round":1.0,'), jwks)).code).toBe('bad_json');
  });

  test('verifyFileText dispatches the shared-table version', async () => {
    const r = await verifyFileText(text(file), jwks);
    expect(r).toMatchObject({ version: 'pb-shared-1', code: 'ok' });
  });

  test('an unrevealed shoe passes as pending, checked for consistency', async () => {
    const open = await play([shoeA(8, { end: 'open' })]);
    const r = await verify(open);
    expect(r).toMatchObject({ ok: true, pending: true });
    expect(r.rounds.every((x) => x.status === 'pending')).toBe(true);
  });

  test("a player's own rounds: found, settled, and its receipts in the transcript", async () => {
    const me = playerKeyOf(players[1]!);
    const mine = file.records.filter((r) => r.body.type === 'settlement' && (r.body as { player: string }).player === me) as SignedShared<any>[];
    const r = await verifyMyRounds(text(file), jwks, { player: me, settlements: mine });
    expect(r.ok).toBe(true);
    expect(r.rounds.length).toBeGreaterThan(3);
    expect(r.rounds.filter((x) => x.status === 'verified').every((x) => x.settlement !== null)).toBe(true);
    expect(r.rounds.at(-1)?.settlement?.balanceAfter ?? file.balances[1]).toBe(file.balances[1]);
    // A receipt the operator dropped, and one it re-signed differently.
    const dropped = await verifyMyRounds({ records: file.records.filter((x) => x.hash !== mine[0]!.hash) }, jwks, { player: me, settlements: mine });
    expect(dropped.findings.map((f) => f.code)).toContain('missing_in_operator_copy');
    const other = await signSharedRecord({ ...mine[1]!.body, issuedAt: new Date(Date.parse(mine[1]!.body.issuedAt) + 1).toISOString() }, operator);
    const differs = await verifyMyRounds(text(file), jwks, { player: me, settlements: [other] });
    expect(differs.findings.map((f) => f.code)).toEqual(['differs_from_player_copy']);
  });

  test('the closes a player received: on time, late, or another one', async () => {
    const me = playerKeyOf(players[0]!);
    const chain = vectorBeacon().chain;
    const close = file.records.find((r) => r.body.type === 'close') as SignedShared<any>;
    const due = timeOfRound(chain, close.body.beaconRound);
    const onTime = await verifyMyRounds(text(file), jwks, { player: me, closes: [{ record: close, receivedAt: due - 1 }] });
    expect(onTime.findings).toEqual([]);
    const late = await verifyMyRounds(text(file), jwks, { player: me, closes: [{ record: close, receivedAt: due }] });
    expect(late.findings.map((f) => f.code)).toEqual(['close_after_beacon']);
    const twin = await signSharedRecord({ ...close.body, bets: close.body.bets.slice(1) }, operator);
    const two = await verifyMyRounds(text(file), jwks, { player: me, closes: [{ record: twin, receivedAt: due - 1 }] });
    expect(two.findings.map((f) => f.code)).toEqual(['differs_from_player_copy']);
  });
});

describe('a round the operator closed and never dealt', () => {
  test('is owed: the close, its beacon round and the revealed seed give the cards and every result', async () => {
    const f = await play([shoeA(6)]);
    const dealAt = indexOf(f, 'deal', 4);
    const close = f.records[dealAt - 1]!;
    const deal = f.records[dealAt]!.body as any;
    // The operator's file: the close, then the reveal (the deal and settlements withheld).
    const reveal = await signSharedRecord({ ...(f.records.at(-1)!.body as any), prev: close.hash, rounds: 4, reason: 'closed' }, operator);
    const withheld = [...f.records.slice(0, dealAt), reveal];
    expect((await verify({ version: 'pb-shared-1', records: withheld })).code).toBe('unsettled_close');
    const owed = owedSharedRound(withheld, close.hash, deal.beacon);
    expect(owed.ok && owed.value.cards).toEqual(deal.cards);
    const settled = f.records
      .slice(dealAt + 1)
      .filter((r) => r.body.type === 'settlement' && r.body.round === deal.round)
      .map((r) => (r.body as any).returned);
    expect(owed.ok && owed.value.players.map((p) => p.returned)).toEqual(settled);
    const wrong = owedSharedRound(withheld, close.hash, vectorBeaconRound(deal.beacon.round + 1));
    expect(wrong.ok || wrong.error.code).toBe('bad_beacon');
    const unrevealed = owedSharedRound(f.records.slice(0, dealAt), close.hash, deal.beacon);
    expect(unrevealed.ok || unrevealed.error.code).toBe('not_revealed');
  });
});

describe('the derivation', () => {
  test('the combined client seed is order- and length-prefixed: moving a byte between player and seed changes it', () => {
    const a = combinedClientSeed([{ player: 'ab', clientSeed: 'c' }]);
    const b = combinedClientSeed([{ player: 'a', clientSeed: 'bc' }]);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the combined cut counts every cut and stays in 1 … N − 1', () => {
    expect(combinedCut(1, [1])).toBe(1);
    expect(combinedCut(1, [51])).toBe(51);
    expect(combinedCut(1, [51, 2])).toBe(1);
    expect(combinedCut(8, [415, 415, 415])).toBe(413);
  });

  test('the remaining cards are shuffled, not rotated: a round is not a window of the start stack', () => {
    // A rotation would deal the burn and the round from one contiguous run of the (cyclic) start
    // stack; a shuffle almost never does. One deck: every card is unique.
    const seed = hexOf('x');
    const state = startSharedShoe(SHOE_1, seed, 'c', 5);
    const where = new Map(state.remaining.map((c, i) => [c, i]));
    let windows = 0;
    for (let k = 0; k < 20; k++) {
      const d = dealSharedRound(SHOE_1, state, seed, 5, hexOf(`beacon ${k}`), hexOf('close'));
      expect(d.state.remaining.length + d.round.cardsUsed + d.state.burned).toBe(52);
      expect(d.round.positions[0]).toBe(d.state.burned);
      const dealt = [d.round.player[0]!, d.round.banker[0]!, d.round.player[1]!, d.round.banker[1]!];
      const at = dealt.map((c) => where.get(c)!);
      if (at.every((p, i) => i === 0 || p === (at[i - 1]! + 1) % 52)) windows++;
    }
    expect(windows).toBeLessThan(2);
  });
});

describe('the Worker-facing builders', () => {
  test('validateSharedBet: shape, signature, round, limits and balance', async () => {
    const body = {
      type: 'bet' as const,
      table: 't',
      shoe: 1,
      round: 3,
      player: playerKeyOf(players[0]!),
      bets: [{ sector: 0, box: 'banker' as const, amount: 500 }],
    };
    const signed = await signSharedRequest(body, players[0]!);
    const at = { table: 't', shoe: 1, round: 3, limits: HALL_1, balance: 1_000 };
    expect((await validateSharedBet(signed, at)).ok).toBe(true);
    const code = async (v: unknown, a = at) => {
      const r = await validateSharedBet(v, a);
      return r.ok || r.error.code;
    };
    expect(await code({ ...signed, extra: 1 })).toBe('bad_request');
    expect(await code(await signSharedRequest(body, players[1]!))).toBe('bad_player_signature');
    expect(await code(signed, { ...at, round: 4 })).toBe('request_mismatch');
    expect(await code(signed, { ...at, balance: 400 })).toBe('bets_invalid');
    expect(await code(await signSharedRequest({ ...body, bets: [{ sector: 0, box: 'banker', amount: 150 }] }, players[0]!))).toBe('bets_invalid');
  });

  test('buildClose names the first beacon round after the close; buildSharedDeal refuses another or a forged one', async () => {
    const chain = vectorBeacon().chain;
    const f = await play([shoeA(1, { end: 'open' })]);
    const start = f.records[1]!;
    const req = await signSharedRequest(
      { type: 'bet', table: 'shared', shoe: 1, round: 1, player: playerKeyOf(players[0]!), bets: [{ sector: 0, box: 'tie', amount: 100 }] },
      players[0]!,
    );
    const issuedAt = new Date(timeOfRound(chain, 5000)).toISOString();
    const close = buildClose({ last: start, round: 1, bets: [req], beacon: chain, keyId: operator.keyId, issuedAt });
    expect(close.ok && close.value.beaconRound).toBe(5001);
    expect(buildClose({ last: start, round: 1, bets: [], beacon: chain, keyId: operator.keyId, issuedAt }).ok).toBe(false);
    const signedClose = await signSharedRecord((close as { value: any }).value, operator);
    const args = {
      params: SHOE_1,
      state: startSharedShoe(SHOE_1, hexOf('s'), 'c', 1),
      serverSeed: hexOf('s'),
      cut: 1,
      chain,
      close: signedClose,
      keyId: operator.keyId,
      issuedAt,
    };
    const early = buildSharedDeal({ ...args, beacon: vectorBeaconRound(5000) });
    expect(early.ok || early.error.code).toBe('beacon_round_mismatch');
    const forged = buildSharedDeal({ ...args, beacon: { ...vectorBeaconRound(5001), signature: vectorBeaconRound(5002).signature } });
    expect(forged.ok || forged.error.code).toBe('bad_beacon_signature');
    expect(buildSharedDeal({ ...args, beacon: vectorBeaconRound(5001) }).ok).toBe(true);
  });
});

describe('tampering gives its code', () => {
  let base: SharedFile;
  beforeAll(async () => {
    base = await play([shoeA(12)]);
  });
  const codeOf = async (f: SharedFile | Promise<SharedFile>) => (await verify(await f)).code;
  const firstDeal = () => indexOf(base, 'deal', 2);
  const closeOf = (deal: number) => deal - 1;

  test('a beacon signature of another round: bad_beacon_signature', async () => {
    const i = firstDeal();
    const r = vectorBeaconRound((base.records[i]!.body as { beacon: { round: number } }).beacon.round + 1);
    const forged = await verify(await forge(base, i, (b) => (b.beacon = { ...b.beacon, signature: r.signature, randomness: r.randomness })));
    expect(forged.code).toBe('bad_beacon_signature');
    expect(forged.rounds.at(-1)).toMatchObject({ round: 2, status: 'failed', code: 'bad_beacon_signature' });
  });

  test('a served randomness that is not SHA-256 of the signature: bad_beacon_randomness', async () => {
    expect(await codeOf(forge(base, firstDeal(), (b) => (b.beacon.randomness = hexOf('not it'))))).toBe('bad_beacon_randomness');
  });

  test('a beacon round published before the close: beacon_round_too_early', async () => {
    const f = await play([shoeA(3)], (m) => {
      if (m.kind === 'record' && m.body.type === 'close' && m.body.round === 2) m.body.beaconRound -= 1;
    });
    expect(await codeOf(f)).toBe('beacon_round_too_early');
  });

  test('a later beacon round than the first after the close: beacon_round_mismatch', async () => {
    const f = await play([shoeA(3)], (m) => {
      if (m.kind === 'record' && m.body.type === 'close' && m.body.round === 2) m.body.beaconRound += 1;
    });
    expect(await codeOf(f)).toBe('beacon_round_mismatch');
  });

  test('a changed bet of any player (the operator re-signs the close): bad_player_signature', async () => {
    expect(await codeOf(forge(base, closeOf(firstDeal()), (b) => (b.bets[1].body.bets[0].amount += 100)))).toBe('bad_player_signature');
  });

  test('a bet request of another round, genuinely signed: request_mismatch', async () => {
    const i = closeOf(firstDeal());
    const seat = players.findIndex((k) => playerKeyOf(k) === (base.records[i]!.body as any).bets[0].body.player);
    expect(await codeOf(forge(base, i, async (b) => (b.bets[0] = await signSharedRequest({ ...b.bets[0].body, round: 7 }, players[seat]!))))).toBe(
      'request_mismatch',
    );
  });

  test('bets out of player order, or a player twice: player_order', async () => {
    expect(await codeOf(forge(base, closeOf(firstDeal()), (b) => b.bets.reverse()))).toBe('player_order');
    expect(await codeOf(forge(base, closeOf(firstDeal()), (b) => (b.bets[1] = b.bets[0])))).toBe('player_order');
  });

  test('a round closed with no bets: no_bets', async () => {
    expect(await codeOf(forge(base, closeOf(firstDeal()), (b) => (b.bets = [])))).toBe('no_bets');
  });

  test('a card changed: card_mismatch; an outcome changed: outcome_mismatch', async () => {
    expect(await codeOf(forge(base, firstDeal(), (b) => ([b.cards[0].code, b.cards[1].code] = [b.cards[1].code, b.cards[0].code])))).toMatch(
      /card_mismatch|total_mismatch/,
    );
    expect(await codeOf(forge(base, firstDeal(), (b) => (b.outcome = b.outcome === 'tie' ? 'banker' : 'tie')))).toBe('outcome_mismatch');
  });

  test('a deal issued before its beacon round was out: deal_before_beacon', async () => {
    const i = firstDeal();
    expect(await codeOf(forge(base, i, (b) => (b.issuedAt = base.records[i - 1]!.body.issuedAt)))).toBe('deal_before_beacon');
  });

  test('a settlement that does not follow from the cards: payout_mismatch, stake_mismatch, balance_mismatch', async () => {
    const i = firstDeal() + 1;
    expect(await codeOf(forge(base, i, (b) => (b.payouts[0].returned += 100)))).toBe('payout_mismatch');
    expect(await codeOf(forge(base, i, (b) => (b.staked += 100)))).toBe('stake_mismatch');
    expect(await codeOf(forge(base, i, (b) => (b.returned += 100)))).toBe('payout_mismatch');
    expect(await codeOf(forge(base, i, (b) => (b.balanceAfter += 100)))).toBe('balance_mismatch');
    expect(await codeOf(forge(base, i, (b) => ((b.balanceBefore = b.staked - 100), (b.balanceAfter = 0))))).toBe('bets_invalid');
    expect(await codeOf(forge(base, i, (b) => (b.deal = hexOf('another deal'))))).toBe('settlement_mismatch');
  });

  test('a missing settlement, a duplicated one, one for a player with no bet', async () => {
    const deal = firstDeal();
    const n = (base.records[deal - 1]!.body as { bets: unknown[] }).bets.length;
    const last = deal + n;
    const records = base.records.slice();
    records.splice(last, 1);
    expect(await codeOf({ version: 'pb-shared-1', records })).toBe('missing_settlement');
    const dup = await signSharedRecord({ ...(base.records[last]!.body as any), prev: base.records[last]!.hash }, operator);
    expect(await codeOf({ version: 'pb-shared-1', records: [...base.records.slice(0, last + 1), dup] })).toBe('duplicate_settlement');
    expect(await codeOf({ version: 'pb-shared-1', records: base.records.slice(0, deal + 1) })).toBe('missing_settlement');
  });

  test('a close with nothing after it: unsettled_close', async () => {
    expect(await codeOf({ version: 'pb-shared-1', records: base.records.slice(0, closeOf(firstDeal()) + 1) })).toBe('unsettled_close');
  });

  test('a void before the beacon deadline: void_too_early', async () => {
    const f = await play([{ ...shoeA(3), rounds: [{ bets: bets(0) }, { bets: bets(1), fate: 'void' }, { bets: bets(2) }] }]);
    const v = indexOf(f, 'void');
    expect(await verify(f).then((r) => r.code)).toBe('ok');
    expect(await codeOf(forge(f, v, (b) => (b.issuedAt = new Date(Date.parse(f.records[v - 1]!.body.issuedAt) + 1000).toISOString())))).toBe('void_too_early');
  });

  test('a wrong beacon chain key, a wrong seed', async () => {
    expect(await codeOf(forge(base, 0, (b) => (b.beacon.publicKey = b.beacon.publicKey.slice(0, -2) + '00')))).toMatch(/bad_beacon_chain/);
    expect(await codeOf(forge(base, base.records.length - 1, (b) => (b.serverSeed = hexOf('another seed'))))).toBe('commitment_mismatch');
  });
});
