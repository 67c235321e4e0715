/**
 * `punto-banco verify FILE [--jwks FILE_OR_URL] [--json]`: checks shoe transcripts offline with the
 * shared verifier: commitment, signatures, chain, shuffle, every card, total, outcome, payout and
 * balance. Exit 0 only when every check passes (an unrevealed shoe passes with its rounds pending),
 * 1 with the first failing record, round and reason otherwise, 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import { text as readAll } from 'node:stream/consumers';
import {
  formatUnits,
  importVerifyKeys,
  type Jwks,
  type ReceiptBody,
  type Transcript,
  transcriptsOf,
  type VerifyReport,
  verifyTranscripts,
} from '../../shared/index.ts';
import { parseArgs, UsageError } from '../args.ts';

export const summary = 'check shoe transcripts offline: signatures, chain, shuffle, cards, payouts, balances';

export const help = `usage: punto-banco verify FILE [--jwks FILE_OR_URL] [--json]

Verifies the transcripts in FILE (what "punto-banco play --out" writes: { "transcripts": [...] },
or one transcript; "-" reads standard input) as FAIRNESS.md specifies: the commitment against the
revealed seed, every Ed25519 signature, the hash chain (no round removed, reordered or inserted),
the shuffle, and every card, total, outcome, payout and balance. Nothing is sent anywhere.

  --jwks FILE_OR_URL   the operator's public keys: a JWKS file, or a URL such as
                       https://host/.well-known/jwks.json (fetched once). Without it, a "jwks"
                       member of FILE is used if there is one.
  --json               print JSON: { ok, pending, transcripts: [report...] }, one report per shoe
                       with ok, pending, rounds [{ round, ok, status, reason?, code? }], failure?

Exit 0 when every check passes (a shoe not yet revealed passes, its rounds "pending": its cards are
checked once the seed is revealed); 1 when a check fails, printing the first failing record, round
and reason; 2 on a usage error (no FILE, unreadable FILE or keys).`;

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, { values: ['jwks'], flags: ['json'], positionals: 1 });
  const file = parsed.positionals[0];
  if (file === undefined) throw new UsageError('which transcript file? usage: punto-banco verify FILE [--jwks FILE_OR_URL] [--json]');
  const json = parsed.flags.has('json');

  const text = await readInput(file);
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (err) {
    return fail(json, `${file} is not JSON: ${(err as Error).message}`);
  }
  const transcripts = transcriptsOf(content);
  if (!transcripts.ok) return fail(json, `${file}: ${transcripts.ok === false ? transcripts.message : ''}`);

  const jwks = await loadJwks(parsed.values.jwks, content);
  const keys = await importVerifyKeys(jwks);
  if (keys.byId.size === 0) throw new UsageError('the JWKS holds no usable Ed25519 key');
  const reports = await verifyTranscripts(transcripts.value, keys);
  const ok = reports.every((r) => r.ok);
  if (json) {
    console.log(JSON.stringify({ ok, pending: reports.some((r) => r.pending), transcripts: reports }));
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
    if (jwks === undefined) throw new UsageError('no public keys: pass --jwks FILE_OR_URL (the operator\'s /.well-known/jwks.json)');
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

function fail(json: boolean, message: string): number {
  if (json) console.log(JSON.stringify({ ok: false, pending: false, transcripts: [], error: message }));
  else console.log(`FAILED: ${message}`);
  return 1;
}

/** One shoe: a header, a row per round, then the verdict. Reads the transcript defensively: it may be anything. */
function render(t: Transcript, report: VerifyReport): string {
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
      const r = t.receipts[check.round - 1]?.body as Partial<ReceiptBody> | undefined;
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
    lines.push(`VERIFIED: ${report.rounds.length} round(s); the seed ${t.reveal!.body.serverSeed} matches the commitment; every card, total, payout and balance checks out`);
  }
  return lines.join('\n');
}
