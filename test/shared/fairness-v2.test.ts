/** pb-fair-2 behaviour: locked bets, both signatures, owed rounds, the player's copy. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  buildAcceptance,
  betRequest,
  compareCopies,
  type FairnessFile,
  importSigningKey,
  owedRound,
  type Receipt,
  secretFor,
  type Signed,
  signRecord,
  signRequest,
  verifyText,
  validatePlayerRequest,
  revealDue,
  type SigningKey,
} from '../../shared/index.ts';
import { playPrivateTable, type RoundScript, type ShoeScript } from '../players/pb-fair-2.ts';
import { ONE_DECK_V2, vectorSecret } from '../vectors/compute-v2.ts';
import { SEED_A, SEED_B } from '../vectors/inputs.ts';

const dir = new URL('../vectors/', import.meta.url);
const jwk = (name: string) => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as JsonWebKey;
const operator = await importSigningKey(jwk('test-key.jwk.json'));
const player = await importSigningKey(jwk('player-key.jwk.json'));
const jwks = { keys: [operator.publicJwk] };

const rounds = (n: number): RoundScript[] =>
  Array.from({ length: n }, (_, i) => ({ bets: [{ sector: 0, box: 'banker', amount: 1000 }], secret: vectorSecret(i + 1) }));
const shoe = (serverSeed: string, r: RoundScript[], end?: ShoeScript['end']): ShoeScript => ({
  params: ONE_DECK_V2,
  serverSeed,
  clientSeed: 'Ünïcödé 🎲',
  cut: 17,
  rounds: r,
  ...(end ? { end } : {}),
});
const play = (shoes: ShoeScript[], key: SigningKey = player) =>
  playPrivateTable({ table: 'v2-test', operatorKey: operator, playerKey: key, openingBalance: 100_000, shoes });
const verify = (file: Pick<FairnessFile, 'version' | 'records'>) => verifyText(JSON.stringify({ version: file.version, records: file.records }), jwks);

describe('pb-fair-2', () => {
  test('an acceptance carries no card information: the same acceptance whatever the server seed', async () => {
    const a = await play([shoe(SEED_A, rounds(2))]);
    const b = await play([shoe(SEED_B, rounds(2))]);
    // Round 1 of two shoes that differ only in the seed: the acceptances differ only through the
    // chain (prev, and the bet request's prev and signature), which starts at the seed's hash.
    const strip = (r: Signed) => {
      const body = structuredClone(r.body) as unknown as Record<string, unknown> & { request: { body: Record<string, unknown>; signature?: string } };
      delete body.prev;
      delete body.request.body.prev;
      delete body.request.signature;
      return body;
    };
    expect(strip(a.records[2]!)).toEqual(strip(b.records[2]!));
    // And built from the same last record, the builder (which takes no seed) gives the very same body.
    const request = await signRequest(betRequest(a.records[1]!, 1, [{ sector: 0, box: 'banker', amount: 1000 }], vectorSecret(1)), player);
    const args = {
      last: a.records[1]!,
      round: 1,
      request,
      balanceBefore: 100_000,
      affiliate: null,
      keyId: operator.keyId,
      issuedAt: '2025-01-01T12:00:02.000Z',
    };
    const built = buildAcceptance(args);
    expect(built.ok && built.value).toEqual(a.records[2]!.body);
    // The receipts, dealt after the secrets, do differ.
    expect((a.records[3]!.body as Receipt).cards).not.toEqual((b.records[3]!.body as Receipt).cards);
  });

  test('a whole table verifies; the cards depend on the round secret', async () => {
    const file = await play([shoe(SEED_A, rounds(30))]);
    expect((await verify(file)).code).toBe('ok');
    const other = await play([
      shoe(
        SEED_A,
        rounds(30).map((r, i) => (i === 0 ? { ...r, secret: 'ee'.repeat(32) } : r)),
      ),
    ]);
    expect((other.records[3]!.body as Receipt).cards).not.toEqual((file.records[3]!.body as Receipt).cards);
  });

  test('a bet rewritten and re-signed by the operator key fails on the player signature', async () => {
    const file = await play([shoe(SEED_A, rounds(6))]);
    const forged = structuredClone(file.records);
    (forged[4]!.body as { request: { body: { bets: { amount: number }[] } } }).request.body.bets[0]!.amount = 2000;
    // The operator re-signs the changed acceptance and re-chains everything after it with its own key.
    for (let i = 4; i < forged.length; i++) {
      (forged[i]!.body as { prev: string }).prev = forged[i - 1]!.hash;
      forged[i] = await signRecord(forged[i]!.body, operator);
    }
    const report = await verify({ version: 'pb-fair-2', records: forged });
    expect(report.code).toBe('bad_player_signature');
    expect(report.failure?.index).toBe(4);
  });

  test("a dropped last round is caught from the player's copy", async () => {
    const mine = await play([shoe(SEED_A, rounds(4), 'player')]);
    const theirs = await play([shoe(SEED_A, rounds(3), 'player')]); // re-signed without round 4: verifies on its own
    expect((await verify(theirs)).code).toBe('ok');
    const findings = compareCopies(mine, theirs);
    expect(findings.map((f) => [f.code, f.type, f.round])).toEqual([
      ['missing_in_operator_copy', 'acceptance', 4],
      ['missing_in_operator_copy', 'receipt', 4],
      ['differs_from_player_copy', 'reveal', null],
    ]);
    expect(compareCopies(mine, mine)).toEqual([]);
  });

  test("a result replaced in the operator's copy differs from the player's", async () => {
    const mine = await play([shoe(SEED_A, rounds(3), 'player')]);
    const theirs = structuredClone(mine);
    theirs.records[5] = await signRecord({ ...(theirs.records[5]!.body as Receipt), balanceAfter: 1 }, operator);
    expect(compareCopies(mine, theirs).map((f) => f.code)).toEqual(['differs_from_player_copy']);
  });

  test('an unsettled acceptance is reported, and what it owed is computed once the shoe is revealed', async () => {
    const script = rounds(3).map((r, i) => (i === 2 ? { ...r, fate: 'unsettled' as const } : r));
    const file = await play([shoe(SEED_A, script, 'player')]);
    const report = await verify(file);
    expect(report.code).toBe('unsettled_acceptance');
    expect(report.unsettled).toHaveLength(1);
    const acceptance = report.unsettled[0]!.acceptance;
    const secret = secretFor(file, acceptance);
    expect(secret).toBe(vectorSecret(3));
    const owed = owedRound(file, acceptance, secret!);
    // What an honest operator would have settled: the same table with round 3 settled.
    const honest = await play([shoe(SEED_A, rounds(3), 'player')]);
    const receipt = honest.records[7]!.body as Receipt;
    expect(honest.records[6]!.hash).toBe(acceptance);
    expect(owed.ok && { cards: owed.value.cards, outcome: owed.value.outcome, balanceAfter: owed.value.balanceAfter }).toEqual({
      cards: receipt.cards,
      outcome: receipt.outcome,
      balanceAfter: receipt.balanceAfter,
    });
    expect(owedRound(file, acceptance, 'ee'.repeat(32)).ok).toBe(false);
  });

  test('an acceptance with no answer at the end of the file is unsettled; before the reveal the owed round waits', async () => {
    const file = await play([
      shoe(
        SEED_A,
        rounds(2).map((r, i) => (i === 1 ? { ...r, fate: 'unsettled' as const } : r)),
        'open',
      ),
    ]);
    const report = await verify(file);
    expect(report.code).toBe('unsettled_acceptance');
    const owed = owedRound(file, report.unsettled[0]!.acceptance, vectorSecret(2));
    expect(!owed.ok && owed.error.code).toBe('not_revealed');
  });

  test('an unrevealed shoe passes with its rounds pending; a void returns the stake', async () => {
    const file = await play([
      shoe(
        SEED_A,
        rounds(5).map((r, i) => (i === 1 ? { ...r, fate: 'void' as const } : r)),
        'open',
      ),
    ]);
    const report = await verify(file);
    expect(report.code).toBe('ok');
    expect(report.pending).toBe(true);
    expect(report.rounds.map((r) => r.status)).toEqual(['pending', 'voided', 'pending', 'pending', 'pending']);
  });

  test("the Worker's first check of a request: its shape and the player's signature", async () => {
    const file = await play([shoe(SEED_A, rounds(1))]);
    const start = file.records[1]!.body as unknown as { request: unknown };
    const x = (player.publicJwk as { x: string }).x;
    expect((await validatePlayerRequest(x, start.request, 'start')).ok).toBe(true);
    expect(await validatePlayerRequest(x, start.request, 'bet')).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await validatePlayerRequest((operator.publicJwk as { x: string }).x, start.request, 'start')).toMatchObject({
      ok: false,
      error: { code: 'bad_player_signature' },
    });
    expect(revealDue(ONE_DECK_V2, { cutCardOut: true, accepted: 3 })).toBe('cut-card');
    expect(revealDue({ algorithm: 'pb-fair-2', mode: 'reshuffle', decks: 6, roundLimit: 3, voidAfterSeconds: 60 }, { cutCardOut: false, accepted: 3 })).toBe(
      'reshuffle-limit',
    );
    expect(revealDue(ONE_DECK_V2, { cutCardOut: false, accepted: 3 })).toBeNull();
  });

  test('another player key in a later shoe is refused', async () => {
    const stranger = await importSigningKey(jwk('test-key.jwk.json'));
    const a = await play([shoe(SEED_A, rounds(2), 'player')]);
    const b = await playPrivateTable({
      table: 'v2-test',
      operatorKey: operator,
      playerKey: stranger,
      openingBalance: (a.records.at(-1)!.body as { closingBalance: number }).closingBalance,
      firstShoe: 2,
      prev: a.records.at(-1)!.hash,
      startTime: Date.UTC(2025, 0, 2),
      shoes: [shoe(SEED_B, rounds(1), 'player')],
    });
    expect((await verify({ version: 'pb-fair-2', records: [...a.records, ...b.records] })).code).toBe('player_key_mismatch');
  });
});
