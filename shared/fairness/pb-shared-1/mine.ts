/**
 * What one player checks (FAIRNESS.md §C10): the public transcript verifies, every round it bet
 * in was dealt and settled from its own signed bets, and every settlement it received is in the
 * transcript unchanged. A settlement names its deal, the deal its close, the close holds the
 * player's signed request: those three records and the shoe's commitment, start and reveal are
 * the player's whole proof.
 */
import { timeOfRound } from '../../beacon.ts';
import type { Jwks, VerifyKeys } from '../common/keys.ts';
import { parseStrictJson } from '../common/strict-json.ts';
import type { SharedBetRequest, SharedClose, SharedCommitment, SharedSettlement, SignedShared } from './records.ts';
import { PB_SHARED_1, type SharedProtocol, type SharedVerifyReport, verifySharedFile } from './verify.ts';

export interface MyRound {
  shoe: number;
  round: number;
  /** The close's hash. */
  close: string;
  status: 'verified' | 'pending' | 'voided' | 'unsettled' | 'failed';
  bets: SharedBetRequest['bets'];
  /** The player's settlement in the transcript, if any. */
  settlement: (Pick<SharedSettlement, 'staked' | 'returned' | 'balanceBefore' | 'balanceAfter'> & { hash: string }) | null;
}

export type MyFindingCode = 'missing_in_operator_copy' | 'differs_from_player_copy' | 'not_settled' | 'close_after_beacon';

export interface MyFinding {
  code: MyFindingCode;
  shoe: number;
  round: number;
  hash: string | null;
  message: string;
}

export interface MyRoundsReport {
  /** The public transcript's verification. */
  transcript: SharedVerifyReport;
  rounds: MyRound[];
  findings: MyFinding[];
  /** The transcript verifies and every finding is absent. */
  ok: boolean;
}

/** What the player's client kept: the settlements it received, and the closes with when they arrived. */
export interface MyCopy {
  /** The player's key `x`. */
  player: string;
  settlements?: readonly SignedShared<SharedSettlement>[];
  /** Every close it received over the live connection, with its arrival time (Unix ms, its own clock). */
  closes?: readonly { record: SignedShared<SharedClose>; receivedAt: number }[];
}

/** The public transcript (text or parsed) checked, then the player's own rounds and copy against it (a pb-shared-2 file with its protocol). */
export async function verifyMyRounds(
  transcript: string | { records: SignedShared[] },
  jwks: Jwks | VerifyKeys,
  mine: MyCopy,
  protocol: SharedProtocol = PB_SHARED_1,
): Promise<MyRoundsReport> {
  let file: unknown = transcript;
  if (typeof transcript === 'string') {
    const parsed = parseStrictJson(transcript);
    file = parsed.ok ? parsed.value : null;
  }
  const report = await verifySharedFile(file ?? {}, jwks, protocol);
  const records: SignedShared[] = Array.isArray((file as { records?: unknown })?.records) ? (file as { records: SignedShared[] }).records : [];
  const rounds: MyRound[] = [];
  const findings: MyFinding[] = [];
  const settlementsByKey = new Map<string, SignedShared<SharedSettlement>>();
  for (const [i, r] of records.entries()) {
    const b = r?.body;
    if (b?.type === 'settlement' && b.player === mine.player) settlementsByKey.set(`${b.shoe}/${b.round}`, r as SignedShared<SharedSettlement>);
    const bets = b?.type === 'close' ? protocol.closeBets(r) : undefined;
    if (b?.type !== 'close' || !Array.isArray(bets)) continue;
    const request = bets.find((q) => q?.body?.player === mine.player);
    if (!request) continue;
    const status = report.rounds.find((s) => s.index === i)?.status ?? 'failed';
    rounds.push({ shoe: b.shoe, round: b.round, close: r.hash, status, bets: request.body.bets, settlement: null });
  }
  for (const round of rounds) {
    const s = settlementsByKey.get(`${round.shoe}/${round.round}`);
    if (s)
      round.settlement = {
        hash: s.hash,
        staked: s.body.staked,
        returned: s.body.returned,
        balanceBefore: s.body.balanceBefore,
        balanceAfter: s.body.balanceAfter,
      };
    else if (round.status !== 'voided')
      findings.push({
        code: 'not_settled',
        shoe: round.shoe,
        round: round.round,
        hash: null,
        message: `round ${round.round} of shoe ${round.shoe} holds my bet, but the transcript has no settlement of it for me`,
      });
  }
  const hashes = new Set(records.map((r) => r?.hash));
  for (const s of mine.settlements ?? []) {
    if (hashes.has(s.hash)) continue;
    const b = s.body;
    const other = settlementsByKey.get(`${b.shoe}/${b.round}`);
    findings.push({
      code: other ? 'differs_from_player_copy' : 'missing_in_operator_copy',
      shoe: b.shoe,
      round: b.round,
      hash: s.hash,
      message: other
        ? `the transcript holds another settlement of round ${b.round} of shoe ${b.shoe} for me (hash ${other.hash}, mine ${s.hash}): the operator signed two`
        : `the transcript has no settlement of round ${b.round} of shoe ${b.shoe} for me (mine has hash ${s.hash})`,
    });
  }
  const closes = new Map(records.filter((r) => r?.body?.type === 'close').map((r) => [`${r.body.shoe}/${(r.body as SharedClose).round}`, r]));
  for (const { record, receivedAt } of mine.closes ?? []) {
    const b = record.body;
    const chain = records.find((r) => r?.body?.type === 'commitment' && r.body.shoe === b.shoe)?.body as SharedCommitment | undefined;
    if (chain && receivedAt >= timeOfRound(chain.beacon, b.beaconRound)) {
      findings.push({
        code: 'close_after_beacon',
        shoe: b.shoe,
        round: b.round,
        hash: record.hash,
        message: `the close of round ${b.round} of shoe ${b.shoe} reached me at ${new Date(receivedAt).toISOString()}, when its beacon round ${b.beaconRound} was already due: it may have been signed after the beacon was known`,
      });
    }
    if (hashes.has(record.hash)) continue;
    const other = closes.get(`${b.shoe}/${b.round}`);
    findings.push({
      code: other ? 'differs_from_player_copy' : 'missing_in_operator_copy',
      shoe: b.shoe,
      round: b.round,
      hash: record.hash,
      message: other
        ? `the transcript holds another close of round ${b.round} of shoe ${b.shoe} (hash ${other.hash}, mine ${record.hash}): the operator signed two`
        : `the transcript has no close of round ${b.round} of shoe ${b.shoe} (mine has hash ${record.hash})`,
    });
  }
  return { transcript: report, rounds, findings, ok: report.ok && findings.length === 0 };
}
