/**
 * A closed round the operator never dealt (FAIRNESS.md §C9, withholding): the close, the public
 * beacon round it names and the shoe's revealed seed decide its cards and every bettor's result.
 */
import { verifyBeacon } from '../../beacon.ts';
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import type { Outcome } from '../../round.ts';
import { settle, type SettledBet } from '../../settle.ts';
import { type ReceiptCard, receiptCards } from '../common/receipt-fields.ts';
import { isHex32, seedCommitment } from '../pb-fair-2/derive.ts';
import { combinedClientSeed, combinedCut, dealSharedRound, startSharedShoe } from './derive.ts';
import type { SharedClose, SharedCommitment, SharedReveal, SharedStart, SignedShared } from './records.ts';

export interface OwedSharedRound {
  shoe: number;
  round: number;
  close: string;
  cards: ReceiptCard[];
  playerTotal: number;
  bankerTotal: number;
  outcome: Outcome;
  /** Each bettor's result, in the close's order. */
  players: { player: string; payouts: SettledBet[]; staked: number; returned: number }[];
}

export type OwedSharedErrorCode = 'no_close' | 'not_revealed' | 'bad_beacon' | 'bad_history';

/**
 * Deals the round closed by `closeHash` from the shoe's records before it (earlier deals give
 * their beacon randomness; voids deal nothing), the beacon round the close names (as a relay
 * serves it: verified here against the committed chain), and the seed — `serverSeed` if given,
 * else the shoe's reveal in `records`.
 */
export function owedSharedRound(
  records: readonly SignedShared[],
  closeHash: string,
  beacon: { round: number; signature: string },
  serverSeed?: string,
): Result<OwedSharedRound, EngineError<OwedSharedErrorCode>> {
  const at = records.findIndex((r) => r.hash === closeHash && r.body.type === 'close');
  if (at < 0) return fail('no_close', `no close with hash ${closeHash}`);
  const close = records[at] as SignedShared<SharedClose>;
  let c = at;
  while (c >= 0 && records[c]!.body.type !== 'commitment') c--;
  const commitment = records[c]?.body as SharedCommitment | undefined;
  const start = records[c + 1]?.body as SharedStart | undefined;
  if (!commitment || start?.type !== 'start') return fail('bad_history', 'the shoe of this close has no commitment and start before it');
  if (beacon.round !== close.body.beaconRound) return fail('bad_beacon', `the close names beacon round ${close.body.beaconRound}, not ${beacon.round}`);
  const checked = verifyBeacon(commitment.beacon, beacon);
  if (!checked.ok) return fail('bad_beacon', checked.error.message);
  let seed = serverSeed;
  for (let j = at + 1; seed === undefined && j < records.length && records[j]!.body.type !== 'commitment'; j++) {
    if (records[j]!.body.type === 'reveal') seed = (records[j]!.body as SharedReveal).serverSeed;
  }
  if (seed === undefined || !isHex32(seed) || seedCommitment(seed) !== commitment.serverSeedHash) {
    return fail('not_revealed', 'the shoe is not revealed (or its seed does not match the commitment): the owed round can be dealt once it is');
  }
  const requests = start.requests.map((r) => r.body);
  const cut = combinedCut(
    commitment.params.decks,
    requests.map((r) => r.cut),
  );
  let state = startSharedShoe(commitment.params, seed, combinedClientSeed(requests), cut);
  for (let j = c + 2; j < at; j++) {
    const r = records[j]!;
    if (r.body.type === 'deal') state = dealSharedRound(commitment.params, state, seed, cut, r.body.beacon.randomness, records[j - 1]!.hash).state;
  }
  const dealt = dealSharedRound(commitment.params, state, seed, cut, checked.value.randomness, close.hash);
  return ok({
    shoe: close.body.shoe,
    round: close.body.round,
    close: close.hash,
    cards: receiptCards(dealt.round),
    playerTotal: dealt.round.playerTotal,
    bankerTotal: dealt.round.bankerTotal,
    outcome: dealt.round.outcome,
    players: close.body.bets.map((q) => {
      const s = settle(q.body.bets, dealt.round.outcome);
      return { player: q.body.player, payouts: s.bets, staked: s.staked, returned: s.returned };
    }),
  });
}
