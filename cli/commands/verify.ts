/**
 * `punto-banco verify FILE [--jwks FILE_OR_URL] [--json]`: checks shoe transcripts offline with the
 * shared verifier: commitment, signatures, chain, shuffle, every card, total, outcome, payout and
 * balance. Exit 0 only when every check passes (an unrevealed shoe passes with its rounds pending),
 * 1 with the first failing record, round and reason otherwise, 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import { text as readAll } from 'node:stream/consumers';
import {
  fileVersionOf,
  compareCopies,
  type CopyFinding,
  type FairnessFile,
  formatUnits,
  importVerifyKeys,
  importKidVerifyKeys,
  type OwedRound,
  owedRound,
  secretFor,
  type Signed,
  type Transfer,
  unseenTransfers,
  type VerifyReport,
  verifyText,
  type Jwks,
  type Fair1ReceiptBody,
  type Fair1Transcript,
  fair1TranscriptsOf,
  type Fair1VerifyReport,
  verifyFair1Transcripts,
} from '../../shared/index.ts';
import type { SharedChainSummary, SharedVerifyReport } from '../../shared/fairness/pb-shared-1/verify.ts';
import { parseArgs, UsageError } from '../args.ts';

export const summary = 'check shoe transcripts offline: signatures, chain, shuffle, cards, payouts, balances';

export const help = `usage: punto-banco verify FILE [--jwks FILE_OR_URL] [--json] [--mine MINE.json] [--player-key X] [--require-public-beacon]

Verifies the transcripts in FILE (what "punto-banco play --out" writes: { "transcripts": [...] },
or one transcript; "-" reads standard input) as FAIRNESS.md specifies: the commitment against the
revealed seed, every Ed25519 signature, the hash chain (no round removed, reordered or inserted),
the shuffle, and every card, total, outcome, payout and balance. Nothing is sent anywhere.

  --jwks FILE_OR_URL   the operator's public keys: a JWKS file, or a URL such as
                       https://host/.well-known/jwks.json (fetched once). Without it, a "jwks"
                       member of FILE is used if there is one.
  --json               print JSON: { ok, code, version, pending, … }. "code" is the first failure's
                       code, or "ok" (what FAIRNESS.md §B12's conformance suite compares).
                       pb-fair-1: also transcripts [report...], one per shoe with ok, pending,
                       rounds [{ round, ok, status, reason?, code? }], failure?.
                       pb-fair-2: also report { rounds, unsettled, failure?, wallet? }, and with
                       --mine copies [...] and owed [...]. A wallet table's report.wallet lists
                       every transaction { roundId, kind, transaction, amount, formatted } in its
                       currency, to hold against the casino statement (also printed without --json).
  --mine MINE.json     pb-fair-2: the player's own copy (what the operator sent it, plus the
                       requests it sent without an answer, "sent"). Every accepted round missing
                       from FILE or different in it is reported (missing_in_operator_copy,
                       differs_from_player_copy), and for every accepted round nobody settled,
                       what it owed once the shoe is revealed.
  --player-key X       pb-fair-2: the player's own public key (base64url x); every commitment must name it.
                       pb-shared-1 and pb-shared-2 (shared tables): the player whose rounds to list; with --mine
                       (its settlement records: [...] or { "records": [...] }) every one of them must
                       be in FILE unchanged.
  --require-public-beacon
                       shared tables: fail (code unknown_beacon_chain, exit 1) when a shoe's beacon
                       chain is not a known public one. Without it such a shoe still verifies, with
                       a warning: every shared-table report names each shoe's beacon chain ("beacon
                       chain: drand quicknet (known public chain)", or "UNKNOWN chain …"), and
                       --json carries them as "chains" [{ hash, scheme, publicKey, name, known, shoes }].

Exit 0 when every check passes (a shoe not yet revealed passes, its rounds "pending": its cards are
checked once the seed is revealed); 1 when a check fails, printing the first failing record, round
and reason; 2 on a usage error (no FILE, unreadable FILE or keys).`;

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, { values: ['jwks', 'mine', 'player-key'], flags: ['json', 'require-public-beacon'], positionals: 1 });
  const file = parsed.positionals[0];
  if (file === undefined) throw new UsageError('which transcript file? usage: punto-banco verify FILE [--jwks FILE_OR_URL] [--json]');
  const json = parsed.flags.has('json');

  const text = await readInput(file);
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (err) {
    return fail(json, `${file} is not JSON: ${(err as Error).message}`, 'bad_json');
  }
  const version = fileVersionOf(content);
  if (version === 'pb-fair-2') {
    return runV2(text, content, parsed.values, json);
  }
  if (version === 'pb-shared-1' || version === 'pb-shared-2') {
    return runShared(version, text, content, parsed.values, json, parsed.flags.has('require-public-beacon'));
  }
  if (parsed.values.mine !== undefined || parsed.values['player-key'] !== undefined)
    throw new UsageError('--mine and --player-key apply to pb-fair-2, pb-shared-1 and pb-shared-2 files only');
  const transcripts = fair1TranscriptsOf(content);
  if (!transcripts.ok) return fail(json, `${file}: ${transcripts.ok === false ? transcripts.message : ''}`, 'bad_record');

  const jwks = await loadJwks(parsed.values.jwks, content);
  const keys = await importVerifyKeys(jwks);
  if (keys.byId.size === 0) throw new UsageError('the JWKS holds no usable Ed25519 key');
  const reports = await verifyFair1Transcripts(transcripts.value, keys);
  const ok = reports.every((r) => r.ok);
  if (json) {
    const code = reports.find((r) => !r.ok)?.failure?.code ?? 'ok';
    console.log(JSON.stringify({ ok, code, version: 'pb-fair-1', pending: reports.some((r) => r.pending), transcripts: reports }));
  } else {
    console.log(reports.map((r, i) => render(transcripts.value[i]!, r)).join('\n\n'));
    if (reports.length > 1) console.log(`\n${reports.filter((r) => r.ok).length} of ${reports.length} shoes pass`);
  }
  return ok ? 0 : 1;
}

async function readInput(file: string): Promise<string> {
  try {
    return file === '-' ? await readAll(process.stdin) : await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The keys: --jwks (file or URL), else the file's own "jwks" member. */
async function loadJwks(source: string | undefined, content: unknown): Promise<Jwks> {
  let jwks: unknown;
  if (source === undefined) {
    jwks = (content as { jwks?: unknown }).jwks;
    if (jwks === undefined) throw new UsageError("no public keys: pass --jwks FILE_OR_URL (the operator's /.well-known/jwks.json)");
  } else if (/^https?:\/\//i.test(source)) {
    let response: Response;
    try {
      response = await fetch(source, { headers: { accept: 'application/json' } });
    } catch (err) {
      throw new UsageError(`cannot fetch ${source}: ${(err as Error).message}`);
    }
    if (!response.ok) throw new UsageError(`cannot fetch ${source}: HTTP ${response.status}`);
    jwks = await response.json().catch(() => undefined);
  } else {
    try {
      jwks = JSON.parse(await readFile(source, 'utf8'));
    } catch (err) {
      throw new UsageError(`cannot read the JWKS ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  if (typeof jwks !== 'object' || jwks === null || !Array.isArray((jwks as Jwks).keys)) throw new UsageError('the JWKS must be { "keys": [...] }');
  return jwks as Jwks;
}

function fail(json: boolean, message: string, code: string): number {
  if (json) console.log(JSON.stringify({ ok: false, code, pending: false, transcripts: [], error: message }));
  else console.log(`FAILED: ${message}`);
  return 1;
}

/** One shoe: a header, a row per round, then the verdict. Reads the transcript defensively: it may be anything. */
function render(t: Fair1Transcript, report: Fair1VerifyReport): string {
  const c = t?.commitment?.body;
  const s = t?.start?.body;
  const p = c?.params;
  const lines: string[] = [];
  lines.push(
    `table ${JSON.stringify(c?.table)}, shoe ${c?.shoe}: ${p?.decks} deck(s), burn ${p?.burn ? 'on' : 'off'}, cut card ${p?.cutCardFromEnd} from the end, mode ${p?.mode}, ${p?.algorithm}`,
  );
  if (s) lines.push(`client seed ${JSON.stringify(s.clientSeed)}, cut ${s.cut}; signed by ${t.commitment.keyId}`);
  if (report.rounds.length > 0) {
    lines.push('', 'round  cards                 P  B  outcome     staked   returned     balance  status');
    for (const check of report.rounds) {
      const r = t.receipts[check.round - 1]?.body as Partial<Fair1ReceiptBody> | undefined;
      const cards = Array.isArray(r?.cards) ? r.cards.map((x) => x?.code).join(' ') : '?';
      const money = (n: unknown) => (typeof n === 'number' ? formatUnits(n) : '?');
      lines.push(
        [
          String(check.round).padStart(5),
          ` ${cards.padEnd(20)}`,
          String(r?.playerTotal ?? '?').padStart(2),
          String(r?.bankerTotal ?? '?').padStart(2),
          ` ${String(r?.outcome ?? '?').padEnd(7)}`,
          money(r?.staked).padStart(10),
          money(r?.returned).padStart(10),
          money(r?.balanceAfter).padStart(11),
          ` ${check.status}${check.code ? ` (${check.code})` : ''}`,
        ].join(' '),
      );
    }
  }
  lines.push('');
  if (report.failure) {
    const f = report.failure;
    lines.push(`FAILED at ${f.round === null ? `the ${f.record} record` : `round ${f.round} (${f.record})`}: ${f.code}: ${f.message}`);
  } else if (report.pending) {
    lines.push(`PASS, PENDING: ${report.rounds.length} round(s) signed and chained; the cards are checked once the server seed is revealed`);
  } else {
    lines.push(
      `VERIFIED: ${report.rounds.length} round(s); the seed ${t.reveal!.body.serverSeed} matches the commitment; every card, total, payout and balance checks out`,
    );
  }
  return lines.join('\n');
}

/** pb-fair-2: the whole table's history, judged on its text; with --mine, the player's copy too. */
async function runV2(text: string, content: unknown, values: Record<string, string>, json: boolean): Promise<number> {
  const jwks = await loadJwks(values.jwks, content);
  // No usable key is not a usage error here: every record then fails as unknown_key (a kid-less JWKS
  // entry names no key in pb-fair-2).
  const keys = await importKidVerifyKeys(jwks);
  const playerKey = values['player-key'];
  const report = await verifyText(text, keys, playerKey === undefined ? {} : { playerKey });
  let copies: CopyFinding[] | undefined;
  let transfers: Signed<Transfer>[] = [];
  const owed: (OwedRound | { shoe: number; round: number; acceptance: string; pending: string })[] = [];
  if (values.mine !== undefined) {
    const mineText = await readInput(values.mine);
    const mineReport = await verifyText(mineText, keys, playerKey === undefined ? {} : { playerKey });
    const mine = JSON.parse(mineText) as FairnessFile;
    const theirs = content as FairnessFile;
    const comparable = Array.isArray(mine?.records) && Array.isArray(theirs?.records);
    copies = comparable ? compareCopies(mine, theirs) : [];
    // Shared-table transfers the player's copy never received: no finding, listed for matching with the shared tables' records.
    transfers = comparable ? unseenTransfers(mine, theirs) : [];
    const unsettled = [...report.unsettled, ...mineReport.unsettled.filter((u) => !report.unsettled.some((t) => t.acceptance === u.acceptance))];
    for (const u of unsettled) {
      const secret = secretFor(mine, u.acceptance) ?? secretFor(theirs, u.acceptance);
      if (secret === null) {
        owed.push({ ...pick(u), pending: 'the secret of this round was never revealed: the stake is owed back once voidAfterSeconds pass' });
        continue;
      }
      const fromTheirs = owedRound(theirs, u.acceptance, secret);
      const result = fromTheirs.ok || fromTheirs.error.code === 'lock_mismatch' ? fromTheirs : owedRound(mine, u.acceptance, secret);
      owed.push(result.ok ? result.value : { ...pick(u), pending: result.error.message });
    }
  }
  const ok = report.ok && (copies?.length ?? 0) === 0;
  if (json) {
    const unseen = transfers.map((t) => ({ hash: t.hash, ...t.body }));
    console.log(
      JSON.stringify({ ok, code: report.code, version: 'pb-fair-2', pending: report.pending, report, ...(copies ? { copies, owed, transfers: unseen } : {}) }),
    );
  } else {
    console.log(renderV2(report, copies, owed, transfers));
  }
  return ok ? 0 : 1;
}

/**
 * A wallet table (FAIRNESS.md §B15): every transaction its records name, one line each, to hold
 * against the casino statement: round id, kind, amount in the currency's digits, transaction id.
 */
export function walletLines(report: VerifyReport): string[] {
  const w = report.wallet;
  if (!w) return [];
  const lines = [
    `wallet: operator ${w.operator}, player ${w.player}, ${w.currency}; ${w.transactions.length} transaction(s)${report.ok ? '' : ' before the failure'}, each on your casino statement:`,
  ];
  const width = Math.max(0, ...w.transactions.map((t) => t.formatted.length));
  for (const t of w.transactions) lines.push(`  ${t.roundId}  ${t.kind.padEnd(8)} ${t.formatted.padStart(width)} ${w.currency}  ${t.transaction}`);
  return lines;
}

function pick(u: { shoe: number; round: number; acceptance: string }) {
  return { shoe: u.shoe, round: u.round, acceptance: u.acceptance };
}

function renderV2(
  report: VerifyReport,
  copies: CopyFinding[] | undefined,
  owed: (OwedRound | { shoe: number; round: number; pending: string })[],
  transfers: Signed<Transfer>[],
): string {
  const lines: string[] = [];
  const count = (status: string) => report.rounds.filter((r) => r.status === status).length;
  lines.push(
    `pb-fair-2: ${report.rounds.length} accepted round(s): ${count('verified')} verified, ${count('pending')} pending, ${count('voided')} voided, ${count('unsettled')} unsettled`,
  );
  if (report.failure) {
    const f = report.failure;
    lines.push(
      `FAILED at ${f.index === null ? 'the file' : `record ${f.index}`}${f.shoe === null ? '' : `, shoe ${f.shoe}`}${f.round === null ? '' : `, round ${f.round}`}: ${f.code}: ${f.message}`,
    );
  } else if (report.pending) lines.push('PASS, PENDING: a shoe is not revealed yet; its cards were checked for consistency only');
  else lines.push('VERIFIED: every record, signature (operator and player), card, payout and balance checks out');
  lines.push(...walletLines(report));
  for (const c of copies ?? []) lines.push(`${c.code}: ${c.message}`);
  if (copies && copies.length === 0) lines.push("the operator's copy holds every record of the player's copy, unchanged");
  if (transfers.length > 0)
    lines.push(`${transfers.length} shared-table transfer(s) your copy did not receive (match each with its shared table's settlement):`);
  for (const { body: t } of transfers) {
    lines.push(
      `  shoe ${t.shoe}: ${t.kind} ${formatUnits(t.amount)} (${t.sharedTable}, shoe ${t.sharedShoe}, round ${t.sharedRound}, id ${t.transfer}): balance ${formatUnits(t.balanceBefore)} → ${formatUnits(t.balanceAfter)}`,
    );
  }
  for (const o of owed) {
    if ('pending' in o) lines.push(`shoe ${o.shoe}, round ${o.round} is owed: ${o.pending}`);
    else
      lines.push(
        `shoe ${o.shoe}, round ${o.round} is owed: ${o.cards.map((c) => c.code).join(' ')}, ${o.outcome} ${o.playerTotal}–${o.bankerTotal}; staked ${formatUnits(o.staked)}, returned ${formatUnits(o.returned)}, balance ${formatUnits(o.balanceAfter)}`,
      );
  }
  return lines.join('\n');
}

/** pb-shared-1 or pb-shared-2 (a shared table): the public transcript; with --player-key, that player's own rounds. */
async function runShared(
  version: 'pb-shared-1' | 'pb-shared-2',
  text: string,
  content: unknown,
  values: Record<string, string>,
  json: boolean,
  requirePublic: boolean,
): Promise<number> {
  const jwks = await loadJwks(values.jwks, content);
  const keys = await importKidVerifyKeys(jwks);
  // The BLS code of the beacon check is loaded for shared-table files only.
  const { verifySharedText, verifyMyRounds, publicBeaconFinding, PB_SHARED_1 } = await import('../../shared/fairness/pb-shared-1/index.ts');
  const protocol = version === 'pb-shared-2' ? (await import('../../shared/fairness/pb-shared-2/verify.ts')).PB_SHARED_2 : PB_SHARED_1;
  const player = values['player-key'];
  /** The report's verdict, and with --require-public-beacon an unknown chain as a failure (the first failure's code wins). */
  const verdict = (report: SharedVerifyReport, ok: boolean) => {
    const policy = requirePublic ? publicBeaconFinding(report) : null;
    return { ok: ok && policy === null, code: report.ok && policy ? policy.code : report.code, policy };
  };
  if (player === undefined) {
    if (values.mine !== undefined) throw new UsageError(`--mine needs --player-key for a ${version} file`);
    const report = await verifySharedText(text, keys, protocol);
    const v = verdict(report, report.ok);
    if (json)
      console.log(JSON.stringify({ ok: v.ok, code: v.code, version, pending: report.pending, chains: report.chains, report, ...policyMember(v.policy) }));
    else console.log(renderShared(report, v.policy));
    return v.ok ? 0 : 1;
  }
  let settlements: unknown[] = [];
  if (values.mine !== undefined) {
    const mine = JSON.parse(await readInput(values.mine)) as unknown;
    settlements = Array.isArray(mine) ? mine : Array.isArray((mine as { records?: unknown })?.records) ? (mine as { records: unknown[] }).records : [];
  }
  const mine = await verifyMyRounds(text, keys, { player, settlements: settlements as never[] }, protocol);
  const report = mine.transcript;
  const v = verdict(report, mine.ok);
  if (json)
    console.log(
      JSON.stringify({
        ok: v.ok,
        code: v.code,
        version,
        pending: report.pending,
        chains: report.chains,
        report,
        mine: { rounds: mine.rounds, findings: mine.findings },
        ...policyMember(v.policy),
      }),
    );
  else {
    const lines = [renderShared(report, v.policy), `player ${player}: ${mine.rounds.length} round(s) with a bet`];
    for (const r of mine.rounds) {
      const s = r.settlement;
      lines.push(
        `  shoe ${r.shoe}, round ${r.round}: ${r.status}${s ? `, staked ${formatUnits(s.staked)}, returned ${formatUnits(s.returned)}, balance ${formatUnits(s.balanceAfter)}` : ''}`,
      );
    }
    for (const f of mine.findings) lines.push(`${f.code}: ${f.message}`);
    console.log(lines.join('\n'));
  }
  return v.ok ? 0 : 1;
}

/** With --require-public-beacon and an unknown chain: the finding, in --json. */
function policyMember(policy: { code: string; message: string } | null) {
  return policy ? { beaconPolicy: policy } : {};
}

/** One line per beacon chain: its name when it is a known public chain, else a warning. */
export function chainLines(chains: readonly SharedChainSummary[]): string[] {
  return chains.map((c) => {
    const shoes = `${c.shoes.length === 1 ? 'shoe' : 'shoes'} ${c.shoes.join(', ')}`;
    if (c.known) return `beacon chain: ${c.name} (known public chain) ${c.hash}, ${shoes}`;
    const impostor = c.impersonates ? ` (it carries ${c.impersonates}'s hash with another key or schedule)` : '';
    return `beacon chain: UNKNOWN chain ${c.hash}${impostor}, ${shoes}, public key ${c.publicKey} — whoever holds its key could know rounds before the close`;
  });
}

function renderShared(report: SharedVerifyReport, policy: { code: string; message: string } | null): string {
  const count = (status: string) => report.rounds.filter((r) => r.status === status).length;
  const lines = [
    `${report.version}: ${report.rounds.length} closed round(s): ${count('verified')} verified, ${count('pending')} pending, ${count('voided')} voided, ${count('unsettled')} unsettled`,
    ...chainLines(report.chains),
  ];
  const f = report.failure;
  if (f)
    lines.push(
      `FAILED at ${f.index === null ? 'the file' : `record ${f.index}`}${f.shoe === null ? '' : `, shoe ${f.shoe}`}${f.round === null ? '' : `, round ${f.round}`}: ${f.code}: ${f.message}`,
    );
  else if (report.pending) lines.push('PASS, PENDING: a shoe is not revealed yet; its cards were checked for consistency only');
  else lines.push('VERIFIED: every record, signature (operator, players, beacon), card, payout and balance checks out');
  if (policy) lines.push(`FAILED --require-public-beacon: ${policy.code}: ${policy.message}`);
  return lines.join('\n');
}
