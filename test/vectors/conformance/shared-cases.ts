/**
 * The pb-shared-1 cases of the conformance suite (FAIRNESS.md §C12): shared tables played with
 * fixed seat keys and the vectors' local beacon (one case on REAL quicknet rounds), each tampered
 * to give one first failure code of §C8.
 */
import { QUICKNET, timeOfRound } from '../../../shared/beacon.ts';
import { type SharedFile, type SharedParams, sharedBetRequest, signSharedRecord, signSharedRequest } from '../../../shared/fairness/pb-shared-1/index.ts';
import { playSharedTable, type PlaySharedOptions, type SharedRoundScript, type SharedShoeScript } from '../../players/pb-shared-1.ts';
import { type Bet, playerKeyOf, type SigningKey } from '../../../shared/index.ts';
import { hexOf, QUICKNET_ROUNDS, seatKey, vectorBeacon, vectorBeaconRound } from '../../shared/shared-table-fixtures.ts';

export interface SharedCase {
  name: string;
  expect: string;
  about: string;
  build: () => Promise<string>;
}

const SHOE_1: SharedParams = { algorithm: 'pb-shared-1', mode: 'shoe', decks: 1, burn: true, cutCardFromEnd: 14, beaconDeadlineSeconds: 60 };
const SHOE_6: SharedParams = { algorithm: 'pb-shared-1', mode: 'shoe', decks: 6, burn: false, cutCardFromEnd: 16, beaconDeadlineSeconds: 30 };
const RESHUFFLE_8: SharedParams = { algorithm: 'pb-shared-1', mode: 'reshuffle', decks: 8, roundLimit: 2, beaconDeadlineSeconds: 60 };
const HALL_1 = { min: 100, max: 10_000, step: 100, chips: [100, 500, 1_000, 2_000, 5_000, 10_000] };
const BOXES = ['player', 'banker', 'tie'] as const;

/** Round i's bets: seats 0–3 in turn, one sitting out. */
const betsOf = (i: number): Record<number, Bet[]> => {
  const out: Record<number, Bet[]> = {};
  for (let seat = 0; seat < 4; seat++)
    if ((i + seat) % 4 !== 3) out[seat] = [{ sector: seat, box: BOXES[(i + seat) % 3]!, amount: 100 * (1 + ((i * 3 + seat) % 10)) }];
  return out;
};
const rounds = (n: number, fates: Record<number, SharedRoundScript['fate']> = {}): SharedRoundScript[] =>
  Array.from({ length: n }, (_, i) => ({ bets: betsOf(i), ...(fates[i + 1] ? { fate: fates[i + 1] } : {}) }));
const seats = (n: number) => Array.from({ length: n }, (_, seat) => ({ seat, clientSeed: `seat ${seat} 🎲`, cut: 5 + 11 * seat }));
const shoeA = (extra: Partial<SharedShoeScript> = {}): SharedShoeScript => ({
  params: SHOE_1,
  limits: HALL_1,
  serverSeed: hexOf('conformance shared seed A'),
  seats: seats(3),
  rounds: rounds(30, { 3: 'void' }),
  ...extra,
});
const shoeB = (): SharedShoeScript => ({ params: RESHUFFLE_8, serverSeed: hexOf('conformance shared seed B'), seats: seats(1), rounds: rounds(2) });
const shoeC = (): SharedShoeScript => ({
  params: SHOE_6,
  limits: HALL_1,
  serverSeed: hexOf('conformance shared seed C'),
  seats: seats(4),
  rounds: rounds(4),
  end: 'closed',
});

type Mutate = PlaySharedOptions['mutate'];
type AnyFile = Pick<SharedFile, 'version' | 'records'>;

export async function sharedCases(operator: SigningKey, renamed: SigningKey): Promise<SharedCase[]> {
  const players = await Promise.all([0, 1, 2, 3, 4].map(seatKey));
  const table = async (shoes: SharedShoeScript[], mutate?: Mutate, extra: Partial<PlaySharedOptions> = {}): Promise<AnyFile> => {
    const f = await playSharedTable({
      table: 'conformance-shared',
      operatorKey: operator,
      players,
      balances: [100_000, 100_000, 100_000, 100_000, 100_000],
      chain: vectorBeacon().chain,
      beacon: vectorBeaconRound,
      shoes,
      ...(mutate ? { mutate } : {}),
      ...extra,
    });
    return { version: f.version, records: f.records };
  };
  const base = () => table([shoeA(), shoeB(), shoeC()]);
  const text = (f: AnyFile) => JSON.stringify(f);
  const indexOf = (f: AnyFile, type: string, nth = 1) => {
    let seen = 0;
    return f.records.findIndex((r) => r.body.type === type && ++seen === nth);
  };
  /** One record's body changed and re-signed by the operator; the records after it stay as they were. */
  const forge = async (f: AnyFile, index: number, change: (b: any) => unknown): Promise<AnyFile> => {
    const records = structuredClone(f.records);
    await change(records[index]!.body);
    records[index] = await signSharedRecord(records[index]!.body, operator);
    return { version: f.version, records };
  };
  const seatOf = (player: string) => players.find((k) => playerKeyOf(k) === player)!;
  const resign = async (request: { body: any }, change: (b: any) => unknown) => {
    const body = structuredClone(request.body);
    change(body);
    return signSharedRequest(body, seatOf(request.body.player));
  };
  /** Round 2's records: its close, deal, and first settlement. */
  const round2 = (f: AnyFile) => {
    const deal = indexOf(f, 'deal', 2);
    return { close: deal - 1, deal, settlement: deal + 1, last: deal + (f.records[deal - 1]!.body as { bets: unknown[] }).bets.length };
  };
  /** A close of the next round appended after the record before the shoe's reveal (the reveal dropped). */
  const closeAfter = async (f: AnyFile, revealNth: number): Promise<AnyFile> => {
    const at = indexOf(f, 'reveal', revealNth);
    const last = f.records[at - 1]!;
    const round = f.records.slice(0, at).filter((r) => r.body.type === 'close' && r.body.shoe === last.body.shoe).length + 1;
    const bet = await signSharedRequest(
      sharedBetRequest(last.body.table, last.body.shoe, round, playerKeyOf(players[0]!), [{ sector: 0, box: 'banker', amount: 100 }]),
      players[0]!,
    );
    const issuedAt = new Date(Date.parse(last.body.issuedAt) + 1000).toISOString();
    const chain = vectorBeacon().chain;
    const beaconRound = Math.floor((Date.parse(issuedAt) - chain.genesisTime * 1000) / (chain.periodSeconds * 1000)) + 2;
    const close = await signSharedRecord(
      { type: 'close', table: last.body.table, shoe: last.body.shoe, keyId: operator.keyId, round, bets: [bet], beaconRound, prev: last.hash, issuedAt },
      operator,
    );
    return { version: f.version, records: [...f.records.slice(0, at), close] };
  };
  const atRecord = (type: string, change: (b: any) => void, nth = 1): Mutate =>
    (() => {
      let seen = 0;
      return (m) => {
        if (m.kind === 'record' && m.body.type === type && ++seen === nth) change(m.body);
      };
    })();

  const cases: SharedCase[] = [];
  const c = (name: string, expect: string, about: string, build: () => Promise<AnyFile | string>) =>
    cases.push({
      name: `shared-${name}`,
      expect,
      about: `pb-shared-1: ${about}`,
      build: async () => {
        const b = await build();
        return typeof b === 'string' ? b : text(b);
      },
    });

  // Files that verify.
  c('ok-three-shoes', 'ok', '1 deck to the cut card with a voided round, 8-deck reshuffle to its limit, 6 decks closed; up to 4 players a round', base);
  c('ok-pending', 'ok', 'an unrevealed shoe: beacons, bets and settlements checked, cards for consistency', () =>
    table([shoeA({ rounds: rounds(6), end: 'open' })]),
  );
  c('ok-quicknet', 'ok', 'one round on REAL quicknet round 657413: the close falls 1.5 s before it is due', () =>
    table([{ ...shoeA({ rounds: rounds(1), end: 'closed' }), startAt: timeOfRound(QUICKNET, 657413) - 3_500 }], undefined, {
      chain: QUICKNET,
      startTime: timeOfRound(QUICKNET, 657413) - 3_500,
      beacon: (r) =>
        QUICKNET_ROUNDS[r] ??
        (() => {
          throw new RangeError(`no recorded round ${r}`);
        })(),
    }),
  );

  // The file, the envelope, the operator's signature.
  c('json-fraction', 'bad_json', '`100.0` is not an integer', async () => text(await base()).replace('"amount":100', '"amount":100.0'));
  c('body-unknown-member', 'bad_record', 'an unknown member of a close', () =>
    table(
      [shoeA()],
      atRecord('close', (b) => (b.note = 'x'), 2),
    ),
  );
  c('hash-mismatch', 'hash_mismatch', 'a deal changed after signing', async () => {
    const f = await base();
    (f.records[round2(f).deal]!.body as { playerTotal: number }).playerTotal += 1;
    return f;
  });
  c('unknown-key', 'unknown_key', 'records signed under a kid the JWKS does not hold', () => table([shoeA()], undefined, { operatorKey: renamed }));
  c('bad-signature', 'bad_signature', "a settlement carrying another record's signature", async () => {
    const f = await base();
    f.records[round2(f).settlement]!.signature = f.records[0]!.signature;
    return f;
  });

  // Succession, table, shoes, chain, time.
  c('starts-with-start', 'out_of_sequence', 'a file starts with a commitment', async () => {
    const f = await base();
    return { ...f, records: f.records.slice(1) };
  });
  c('settlement-dropped-last', 'missing_settlement', "a round's last settlement dropped: the next close comes too early", async () => {
    const f = await base();
    const r = round2(f);
    return { ...f, records: [...f.records.slice(0, r.last), ...f.records.slice(r.last + 1)] };
  });
  c('settlements-missing-at-end', 'missing_settlement', 'the file ends with a deal', async () => {
    const f = await base();
    return { ...f, records: f.records.slice(0, round2(f).deal + 1) };
  });
  c('close-at-end', 'unsettled_close', 'the file ends with a close: the round is owed', async () => {
    const f = await base();
    return { ...f, records: f.records.slice(0, round2(f).close + 1) };
  });
  c('close-then-reveal', 'unsettled_close', 'a reveal right after a close', async () => {
    const f = await base();
    const r = round2(f);
    const reveal = f.records[indexOf(f, 'reveal')]!;
    return forge({ ...f, records: [...f.records.slice(0, r.close + 1), reveal] }, r.close + 1, (b) => (b.prev = f.records[r.close]!.hash));
  });
  c('table-mismatch', 'table_mismatch', 'a start for another table', async () => forge(await base(), 1, (b) => (b.table = 'elsewhere')));
  c('shoe-gap', 'shoe_gap', 'shoe 3 after shoe 1', async () => {
    const f = await base();
    return forge(f, indexOf(f, 'commitment', 2), (b) => (b.shoe = 3));
  });
  c('shoe-out-of-order', 'shoe_out_of_order', 'shoe 1 again after shoe 1', async () => {
    const f = await base();
    return forge(f, indexOf(f, 'commitment', 2), (b) => (b.shoe = 1));
  });
  c('shoe-mismatch', 'shoe_mismatch', 'a close naming another shoe', async () => {
    const f = await base();
    return forge(f, round2(f).close, (b) => (b.shoe = 2));
  });
  c('chain-broken', 'chain_broken', 'a settlement in the middle of a round removed', async () => {
    const f = await base();
    const r = round2(f);
    return { ...f, records: [...f.records.slice(0, r.settlement), ...f.records.slice(r.settlement + 1)] };
  });
  c('time-went-back', 'time_went_back', 'a settlement issued before its deal', async () => {
    const f = await base();
    const r = round2(f);
    return forge(f, r.settlement, (b) => (b.issuedAt = new Date(Date.parse(f.records[r.deal]!.body.issuedAt) - 1000).toISOString()));
  });

  // Commitment.
  c('params-9-decks', 'bad_params', '9 decks', () =>
    table(
      [shoeA()],
      atRecord('commitment', (b) => (b.params.decks = 9)),
    ),
  );
  c('params-void-after', 'bad_params', "pb-fair-2's voidAfterSeconds in place of beaconDeadlineSeconds", () =>
    table(
      [shoeA()],
      atRecord('commitment', (b) => {
        b.params.voidAfterSeconds = b.params.beaconDeadlineSeconds;
        delete b.params.beaconDeadlineSeconds;
      }),
    ),
  );
  c('beacon-chain-scheme', 'bad_beacon_chain', 'a beacon chain of another scheme', async () =>
    forge(await base(), 0, (b) => (b.beacon.scheme = 'pedersen-bls-chained')),
  );
  c('beacon-chain-key', 'bad_beacon_chain', 'a beacon public key that is not a point of G2', async () =>
    forge(await base(), 0, (b) => (b.beacon.publicKey = 'ff'.repeat(96))),
  );

  // Start.
  c('start-no-players', 'no_players', 'a start with no seated player', async () => forge(await base(), 1, (b) => (b.requests = [])));
  c('start-bad-key', 'bad_player_key', 'a start request naming a player that is no Ed25519 key', async () =>
    forge(await base(), 1, (b) => (b.requests[0].body.player = 'AAAA')),
  );
  c('start-forged', 'bad_player_signature', 'a start request whose seed was changed after the player signed', async () =>
    forge(await base(), 1, (b) => (b.requests[1].body.clientSeed = 'chosen by the operator')),
  );
  c('start-other-commitment', 'request_mismatch', 'a start request answering another commitment', async () =>
    forge(await base(), 1, async (b) => (b.requests[0] = await resign(b.requests[0], (r) => (r.commitment = hexOf('another'))))),
  );
  c('start-order', 'player_order', 'start requests not in player order', async () => forge(await base(), 1, (b) => b.requests.reverse()));
  c('start-client-seed', 'bad_client_seed', 'a client seed with a control character', async () =>
    forge(await base(), 1, async (b) => (b.requests[0] = await resign(b.requests[0], (r) => (r.clientSeed = 'a\u0001')))),
  );
  c('start-cut', 'bad_cut', 'a cut of 0', async () => forge(await base(), 1, async (b) => (b.requests[0] = await resign(b.requests[0], (r) => (r.cut = 0)))));

  // Close.
  c('close-round', 'round_mismatch', 'a close naming round 5 as the second round', async () => {
    const f = await base();
    return forge(f, round2(f).close, (b) => (b.round = 5));
  });
  c('close-after-cut-card', 'round_after_cut_card', 'a round closed after the cut card came out', async () => closeAfter(await base(), 1));
  c('close-over-limit', 'round_over_limit', 'a third round in a reshuffle shoe with roundLimit 2', async () => closeAfter(await base(), 2));
  c('close-no-bets', 'no_bets', 'a round closed with no bet', async () => {
    const f = await base();
    return forge(f, round2(f).close, (b) => (b.bets = []));
  });
  c('close-bet-bad-key', 'bad_player_key', 'a bet request naming a player that is no Ed25519 key', async () => {
    const f = await base();
    return forge(f, round2(f).close, (b) => (b.bets[0].body.player = 'x'));
  });
  c('close-bet-changed', 'bad_player_signature', "a player's bet raised by the operator (the close re-signed)", async () => {
    const f = await base();
    return forge(f, round2(f).close, (b) => (b.bets[1].body.bets[0].amount += 100));
  });
  c('close-bet-other-round', 'request_mismatch', 'a genuinely signed bet request of another round', async () => {
    const f = await base();
    return forge(f, round2(f).close, async (b) => (b.bets[0] = await resign(b.bets[0], (r) => (r.round = 9))));
  });
  c('close-order', 'player_order', 'a player twice in one close', async () => {
    const f = await base();
    return forge(f, round2(f).close, (b) => (b.bets[1] = b.bets[0]));
  });
  c('close-bets-invalid', 'bets_invalid', 'a signed bet off the committed step', async () => {
    const f = await base();
    return forge(f, round2(f).close, async (b) => (b.bets[0] = await resign(b.bets[0], (r) => (r.bets[0].amount = 150))));
  });
  c('beacon-too-early', 'beacon_round_too_early', 'a beacon round published before the close', () =>
    table(
      [shoeA()],
      atRecord('close', (b) => (b.beaconRound -= 1), 2),
    ),
  );
  c('beacon-later', 'beacon_round_mismatch', 'a later beacon round than the first after the close', () =>
    table(
      [shoeA()],
      atRecord('close', (b) => (b.beaconRound += 1), 2),
    ),
  );

  // Deal.
  const deal = (name: string, expect: string, about: string, change: (b: any, f: AnyFile) => unknown) =>
    c(name, expect, about, async () => {
      const f = await base();
      return forge(f, round2(f).deal, (b) => change(b, f));
    });
  deal('deal-round', 'round_mismatch', 'a deal naming another round', (b) => (b.round += 1));
  deal(
    'deal-other-beacon-round',
    'beacon_round_mismatch',
    "a deal using the next beacon round, with that round's valid signature",
    (b) => (b.beacon = vectorBeaconRound(b.beacon.round + 1)),
  );
  deal('beacon-signature', 'bad_beacon_signature', "the next round's signature offered for this round", (b) => {
    const r = vectorBeaconRound(b.beacon.round + 1);
    b.beacon.signature = r.signature;
    b.beacon.randomness = r.randomness;
  });
  deal(
    'beacon-signature-encoding',
    'bad_beacon_signature',
    'a beacon signature in upper-case hex',
    (b) => (b.beacon.signature = b.beacon.signature.toUpperCase()),
  );
  deal('beacon-randomness', 'bad_beacon_randomness', 'a randomness that is not SHA-256 of the signature', (b) => (b.beacon.randomness = hexOf('chosen')));
  deal(
    'deal-before-beacon',
    'deal_before_beacon',
    'a deal issued before its beacon round was due',
    (b, f) => (b.issuedAt = f.records[round2(f).close]!.body.issuedAt),
  );
  deal('cards', 'card_mismatch', 'a card changed', (b) => (b.cards[0].code = b.cards[0].code === 'AS' ? '2S' : 'AS'));
  deal('total', 'total_mismatch', 'a total changed', (b) => (b.playerTotal = (b.playerTotal + 1) % 10));
  deal('outcome', 'outcome_mismatch', 'the outcome changed', (b) => (b.outcome = b.outcome === 'tie' ? 'banker' : 'tie'));
  deal('natural', 'natural_mismatch', 'natural flipped', (b) => (b.natural = !b.natural));
  deal('pair', 'pair_mismatch', 'a pair flipped', (b) => (b.bankerPair = !b.bankerPair));
  deal('cut-card', 'cut_card_mismatch', 'cutCardOut on round 2', (b) => (b.cutCardOut = true));

  // Settlements.
  const settlement = (name: string, expect: string, about: string, change: (b: any) => unknown) =>
    c(name, expect, about, async () => {
      const f = await base();
      return forge(f, round2(f).settlement, change);
    });
  settlement('settlement-payout', 'payout_mismatch', 'a payout that does not follow from the cards', (b) => (b.payouts[0].returned += 100));
  settlement('settlement-returned', 'payout_mismatch', 'returned changed', (b) => (b.returned += 100));
  settlement('settlement-stake', 'stake_mismatch', 'staked changed', (b) => (b.staked += 100));
  settlement('settlement-balance', 'balance_mismatch', 'balanceAfter changed', (b) => (b.balanceAfter += 100));
  settlement(
    'settlement-uncovered',
    'bets_invalid',
    'a stake the balance before it does not cover',
    (b) => ((b.balanceBefore = b.staked - 100), (b.balanceAfter = 0)),
  );
  settlement('settlement-deal', 'settlement_mismatch', 'a settlement naming another deal', (b) => (b.deal = hexOf('another deal')));
  settlement('settlement-round', 'round_mismatch', 'a settlement naming another round', (b) => (b.round += 1));
  c('settlement-skipped', 'missing_settlement', "the first bettor's settlement made out to the second bettor", async () => {
    const f = await base();
    const r = round2(f);
    const second = (f.records[r.close]!.body as { bets: { body: { player: string } }[] }).bets[1]!.body.player;
    return forge(f, r.settlement, (b) => (b.player = second));
  });
  c('settlement-duplicate', 'duplicate_settlement', 'a second settlement for the last bettor', async () => {
    const f = await base();
    const r = round2(f);
    const dup = await signSharedRecord({ ...(f.records[r.last]!.body as any), prev: f.records[r.last]!.hash }, operator);
    return { ...f, records: [...f.records.slice(0, r.last + 1), dup] };
  });
  c('settlement-unknown', 'unknown_settlement', 'a settlement for a player with no bet in the round', async () => {
    const f = await base();
    const r = round2(f);
    const bettors = new Set((f.records[r.close]!.body as { bets: { body: { player: string } }[] }).bets.map((q) => q.body.player));
    const outsider = players.map(playerKeyOf).find((p) => !bettors.has(p))!;
    const extra = await signSharedRecord({ ...(f.records[r.last]!.body as any), player: outsider, prev: f.records[r.last]!.hash }, operator);
    return { ...f, records: [...f.records.slice(0, r.last + 1), extra] };
  });

  // Void and reveal.
  c('void-too-early', 'void_too_early', 'a round voided before its beacon was beaconDeadlineSeconds late', async () => {
    const f = await base();
    const v = indexOf(f, 'void');
    return forge(f, v, (b) => (b.issuedAt = new Date(Date.parse(f.records[v - 1]!.body.issuedAt) + 1000).toISOString()));
  });
  c('void-round', 'round_mismatch', 'a void naming another round', async () => {
    const f = await base();
    return forge(f, indexOf(f, 'void'), (b) => (b.round += 1));
  });
  const reveal = (name: string, expect: string, about: string, change: (b: any) => unknown, nth = 1) =>
    c(name, expect, about, async () => {
      const f = await base();
      return forge(f, indexOf(f, 'reveal', nth), change);
    });
  reveal('seed-uppercase', 'bad_server_seed', 'a revealed seed in upper-case hex', (b) => (b.serverSeed = b.serverSeed.toUpperCase()));
  reveal('seed-wrong', 'commitment_mismatch', 'a revealed seed that does not match the commitment', (b) => (b.serverSeed = hexOf('another seed')));
  reveal('round-count', 'round_count_mismatch', 'the reveal counts one round more', (b) => (b.rounds += 1));
  reveal('reason-closed-at-cut-card', 'reveal_reason_mismatch', '"closed" when the cut card came out', (b) => (b.reason = 'closed'));
  reveal('reason-limit-early', 'reveal_reason_mismatch', '"reshuffle-limit" in shoe mode', (b) => (b.reason = 'reshuffle-limit'), 3);
  return cases;
}
