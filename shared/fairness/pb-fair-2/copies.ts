/**
 * What the player can prove on its own (FAIRNESS.md §B11): the rounds the operator's copy drops
 * or changes, and what an accepted but unsettled round was owed once the shoe's seed is known.
 */
import { type EngineError, fail, ok, type Result } from '../../errors.ts';
import type { Outcome } from '../../round.ts';
import { settle, type SettledBet } from '../../settle.ts';
import { commissionRuleOf } from './wallet.ts';
import { type ReceiptCard, receiptCards } from '../common/receipt-fields.ts';
import { dealAcceptedRound, isHex32, lockOf, seedCommitment, startShoe } from './derive.ts';
import type { Acceptance, Commitment, FairnessFile, Receipt, Reveal, SecretRequest, SignedRequest, Signed, Start } from './records.ts';

export type CopyFindingCode = 'missing_in_operator_copy' | 'differs_from_player_copy';

export interface CopyFinding {
  code: CopyFindingCode;
  shoe: number;
  /** The round, or null for a commitment, start or reveal. */
  round: number | null;
  type: string;
  /** The record's hash in the player's copy. */
  hash: string;
  message: string;
}

/** Where a record sits in a history: a round's settlement, a shoe's commitment, a transfer by its id. */
function slot(body: { type: string; shoe: number; round?: number; transfer?: string }): string {
  if (body.type === 'transfer') return `transfer:${body.transfer}`;
  const kind = body.type === 'receipt' || body.type === 'void' ? 'settlement' : body.type;
  return `${body.shoe}:${kind}:${body.round ?? ''}`;
}

/**
 * Every record of the player's copy (`mine`: what the operator sent it) that the operator's copy
 * (`theirs`) lacks or holds differently, in the order of `mine`. An empty list: the operator's
 * copy holds everything the player received, unchanged. Transfers (§B14) the player's copy never
 * received are no finding (`unseenTransfers` lists them); one it holds is compared like any record.
 */
export function compareCopies(mine: Pick<FairnessFile, 'records'>, theirs: Pick<FairnessFile, 'records'>): CopyFinding[] {
  const hashes = new Set(theirs.records.map((r) => r?.hash));
  const slots = new Map<string, Signed>();
  for (const r of theirs.records) if (r?.body) slots.set(slot(r.body as { type: string; shoe: number }), r);
  const findings: CopyFinding[] = [];
  for (const r of mine.records) {
    if (hashes.has(r.hash)) continue;
    const b = r.body as { type: string; shoe: number; round?: number; transfer?: string };
    const other = slots.get(slot(b));
    const where = `${b.type} of shoe ${b.shoe}${b.round === undefined ? '' : `, round ${b.round}`}${b.transfer === undefined ? '' : ` (${b.transfer})`}`;
    findings.push({
      code: other ? 'differs_from_player_copy' : 'missing_in_operator_copy',
      shoe: b.shoe,
      round: b.round ?? null,
      type: b.type,
      hash: r.hash,
      message: other
        ? `the operator's copy holds a different ${where} (hash ${other.hash}, the player's ${r.hash})`
        : `the operator's copy has no ${where} (the player's hash ${r.hash})`,
    });
  }
  return findings;
}

/** What an accepted round should have settled to. */
export interface OwedRound {
  shoe: number;
  round: number;
  acceptance: string;
  cards: ReceiptCard[];
  playerTotal: number;
  bankerTotal: number;
  outcome: Outcome;
  payouts: SettledBet[];
  staked: number;
  returned: number;
  balanceBefore: number;
  balanceAfter: number;
}

export type OwedErrorCode = 'no_acceptance' | 'not_revealed' | 'lock_mismatch' | 'bad_history';

/**
 * Deals an accepted round from the shoe's records up to its acceptance (receipts before it give
 * each earlier round's secret; voids deal nothing), the player's secret, and the server seed —
 * `serverSeed` if given, else the shoe's reveal in `file` — and settles its bets.
 */
export function owedRound(
  file: Pick<FairnessFile, 'records'>,
  acceptanceHash: string,
  secret: string,
  serverSeed?: string,
): Result<OwedRound, EngineError<OwedErrorCode>> {
  const records = file.records;
  const at = records.findIndex((r) => r.hash === acceptanceHash && r.body.type === 'acceptance');
  if (at < 0) return fail('no_acceptance', `no acceptance with hash ${acceptanceHash} in the file`);
  const acc = records[at] as Signed<Acceptance>;
  let c = at;
  while (c >= 0 && records[c]!.body.type !== 'commitment') c--;
  const commitment = records[c]?.body as Commitment | undefined;
  // Transfers (§B14) may sit between the commitment and the start.
  const start = records.slice(c + 1, at).find((r) => r.body.type !== 'transfer')?.body as Start | undefined;
  if (!commitment || start?.type !== 'start') return fail('bad_history', 'the shoe of this acceptance has no commitment and start before it');
  let seed = serverSeed;
  if (seed === undefined) {
    for (let j = at + 1; j < records.length && records[j]!.body.type !== 'commitment'; j++) {
      if (records[j]!.body.type === 'reveal') seed = (records[j]!.body as Reveal).serverSeed;
    }
  }
  if (seed === undefined || !isHex32(seed) || seedCommitment(seed) !== commitment.serverSeedHash) {
    return fail('not_revealed', 'the shoe is not revealed (or its seed does not match the commitment): the owed round can be dealt once it is');
  }
  if (!isHex32(secret) || lockOf(secret) !== acc.body.request.body.lock) return fail('lock_mismatch', "this secret does not open the acceptance's lock");
  const { clientSeed, cut } = start.request.body;
  let state = startShoe(commitment.params, seed, clientSeed, cut);
  for (let j = c + 2; j < at; j++) {
    const r = records[j]!;
    if (r.body.type !== 'receipt') continue;
    const q = (r.body as Receipt).request.body;
    state = dealAcceptedRound(commitment.params, state, seed, cut, q.secret, q.acceptance).state;
  }
  const dealt = dealAcceptedRound(commitment.params, state, seed, cut, secret, acc.hash);
  const s = settle(acc.body.request.body.bets, dealt.round.outcome, commissionRuleOf(commitment));
  return ok({
    shoe: acc.body.shoe,
    round: acc.body.round,
    acceptance: acc.hash,
    cards: receiptCards(dealt.round),
    playerTotal: dealt.round.playerTotal,
    bankerTotal: dealt.round.bankerTotal,
    outcome: dealt.round.outcome,
    payouts: s.bets,
    staked: s.staked,
    returned: s.returned,
    balanceBefore: acc.body.balanceBefore,
    balanceAfter: acc.body.balanceBefore - s.staked + s.returned,
  });
}

/** The secret the player revealed for an acceptance, from its copy's `sent` requests (or records). */
export function secretFor(copy: Pick<FairnessFile, 'records' | 'sent'>, acceptanceHash: string): string | null {
  const requests: SignedRequest[] = [
    ...(copy.sent ?? []),
    ...copy.records.flatMap((r) => ((r.body as { request?: SignedRequest }).request ? [(r.body as { request: SignedRequest }).request] : [])),
  ];
  for (const q of requests) {
    const b = q?.body as SecretRequest | undefined;
    if (b?.type === 'secret' && b.acceptance === acceptanceHash) return b.secret;
  }
  return null;
}
