/**
 * `punto-banco play --endpoint URL [--rounds N] [--mode shoe|reshuffle] [--out FILE] [--mine FILE] [--room ROOM] [--new-session-when-broke] [--launch-token T [--operator ID]]`:
 * plays N rounds of pb-fair-2 against a running Worker (API.md) with random legal bets, as a
 * player would: it makes its own Ed25519 key, signs every request, and plays each round in two
 * phases (the bet with the lock of a fresh secret, then the secret). Every shoe gets a random
 * client seed and cut; the last shoe is ended by the player, so every seed is revealed. It writes
 * the table's history as the Worker keeps it (`--out`) and its own copy (`--mine`: the records it
 * received, in order, and the requests it sent that no record answers), which
 * `punto-banco verify FILE --jwks URL [--mine MINE]` checks.
 *
 * What it played is never lost: when the play money runs out, or the Worker refuses or fails after
 * a session was opened, it ends the shoe in play if it can (so the seed is revealed), writes the
 * files with every round played (the player's own copy in place of the table's file when the
 * Worker cannot give it), says why it stopped and exits 1. `--new-session-when-broke` opens a
 * fresh session instead when the money runs out: one pair of files per session.
 *
 * `--launch-token T` plays in wallet mode: the session is redeemed from an operator's launch
 * (`punto-banco launch`), its money the operator wallet's, in the launch's currency and room. A bet
 * the wallet or the player's limits refuse is reported (`refusals` in the summary): a round whose
 * debit's outcome was unknown (`wallet_unavailable`, rolled back by the Worker) is tried again with
 * new bets; limits that a smaller bet may pass (stake, wager, loss, funds) get one try at the room's
 * minimum; anything else (a reality check, the session's end, a blocked player) stops the play.
 */
import { extname } from 'node:path';
import { writeFile } from 'node:fs/promises';
import {
  betRequest,
  DEFAULT_ROOM,
  endRequest,
  type FairnessFile,
  generateSigningKey,
  isRoomId,
  newClientSeed,
  newRoundSecret,
  oneOf,
  playerKeyOf,
  randomBelow,
  randomLegalBets,
  type RoomId,
  ROOM_IDS,
  secretRequest,
  SHOE_MODES,
  type ShoeMode,
  type ShoeView,
  type SignedRequest,
  type Signed,
  type SigningKey,
  signRequest,
  startRequest,
  type TableTranscript,
} from '../../shared/index.ts';
import * as apiCalls from '../../shared/wire/http-calls.ts';
import type { AcceptanceAnswer } from '../../shared/api.ts';
import { type ApiCall, sendApiCall } from '../../shared/wire/http-client.ts';
import { intOption, parseArgs, UsageError } from '../args.ts';

export const summary = "play N two-phase rounds against a running Worker as a signing player, write the table's file and its own copy";

export const help = `usage: punto-banco play --endpoint URL [--rounds N] [--mode MODE] [--out FILE] [--mine FILE] [--room ROOM] [--new-session-when-broke]
                         [--launch-token T [--operator ID]]

Opens a pb-fair-2 table session on the Worker at URL (e.g. http://localhost:8787) with a fresh
player key, starts each shoe with a random client seed and a random cut (signed), and plays N
rounds with random legal bets (at most three sectors, within the room's limits and the balance).
Each round takes two signed requests: the bet with the lock of a fresh 32-byte secret (the Worker
answers with a signed acceptance, the stake debited, no card known yet), then the secret (the
Worker deals and answers with the signed receipt). When the cut card comes out (or, in reshuffle
mode, the round limit is reached) the next shoe is started; at the end the player ends the shoe in
play, so every server seed is revealed.

options:
  --endpoint URL   the Worker's base URL (required)
  --rounds N       rounds to play, 1 to 100000 (default 20)
  --mode MODE      ${oneOf(SHOE_MODES, false)} (default shoe)
  --out FILE       where to write the table's file as the Worker keeps it (GET …/transcript;
                   default: standard output), for "punto-banco verify FILE --jwks URL"
  --mine FILE      also write the player's own copy: the records it received, in order, and
                   "sent", its signed requests no record answers (for "verify FILE --mine FILE")
  --room ROOM      ${oneOf(ROOM_IDS, false)} (default ${DEFAULT_ROOM})
  --new-session-when-broke
                   when the play money runs out, go on in a fresh session (a new key, a new
                   table) until N rounds are played. Each session is its own table: its files are
                   FILE and MINE for the first session, then FILE and MINE with ".session-2",
                   ".session-3", … before the extension (t.json, t.session-2.json, …); each
                   verifies on its own. Needs --out.
  --launch-token T wallet mode: redeem an operator's launch token ("punto-banco launch") instead
                   of opening a play-money session; the room, currency and limits are the
                   launch's (--room does not apply), every amount is in the currency's ISO 4217
                   minor units and the operator's wallet holds the balance. A bet the wallet or
                   the player's limits refuse is reported: a debit of unknown outcome
                   (wallet_unavailable) is tried again with new bets (3 times in a row at most);
                   stake_limit, wager_limit, loss_limit and insufficient_funds get one try at the
                   room's minimum bet; any other refusal (reality_check_pending, session_ended,
                   player_blocked, limit_reached…) stops the play, with the files written.
  --operator ID    with --launch-token: the operator the token must belong to

Every round played is kept: when the play money runs out (without --new-session-when-broke), or
the Worker refuses or fails after the session was opened, the player ends the shoe in play if the
Worker lets it (so its seed is revealed), writes the files with every round played (its own copy
as the table's file too, when the Worker cannot send the table's), says why it stopped and exits 1.

Exit 0 when every round was played and the files written; 1 when play stopped early (the files
hold every round played) or the Worker cannot be reached at all; 2 on a usage error.`;

/** A failed call: its HTTP status and the Worker's error code, when it answered one. */
class WorkerError extends Error {
  readonly code: string | null;
  readonly status: number;
  constructor(message: string, code: string | null = null, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Wallet refusals a smaller bet may pass: one more try at the room's minimum. */
const SMALLER_BET_MAY_PASS = new Set(['stake_limit', 'wager_limit', 'loss_limit', 'insufficient_funds']);
/** The debit's outcome was unknown (the Worker rolled it back): the round may be tried again, this many times in a row. */
const UNKNOWN_DEBIT_TRIES = 3;

/** Fresh bytes from the platform CSPRNG. */
const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

/** A uniform integer in [0, n) from the CSPRNG. */
const cryptoBelow = (n: number): number => randomBelow(n, randomBytes);

/** The Worker's API (shared/wire), with retries that keep the Idempotency-Key (so a retry can never pay twice). */
class Api {
  readonly #base: string;

  constructor(endpoint: string) {
    this.#base = endpoint;
  }

  /** Sends `call`: no answer is tried 4 times, a rate limit or a 503 waited out (Retry-After) up to 20; any other failure throws. */
  async call<T>(call: ApiCall<T>, token?: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const result = await sendApiCall(fetch, this.#base, call, { token });
      if (result.ok) return result.value;
      const { error } = result;
      if (error.status === 0) {
        if (attempt < 4) {
          await sleep(250 * attempt);
          continue;
        }
        throw new WorkerError(`cannot reach ${this.#base}: ${error.message}`);
      }
      // A wallet that did not answer is not waited out: the Worker rolled that debit back; the round is tried anew.
      if ((error.status === 429 || (error.status === 503 && error.code !== 'wallet_unavailable')) && attempt < 20) {
        await sleep(Math.min(10_000, error.retryAfterMs ?? 1000));
        continue;
      }
      throw new WorkerError(`${call.method} /${call.path}: HTTP ${error.status} ${error.code}: ${error.message}`, error.code, error.status);
    }
  }
}

/** A fresh Idempotency-Key for one state-changing call (its retries send the same). */
const newKey = (): string => crypto.randomUUID();

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, {
    values: ['endpoint', 'rounds', 'out', 'room', 'mode', 'mine', 'launch-token', 'operator'],
    flags: ['new-session-when-broke'],
  });
  const endpoint = parsed.values.endpoint;
  if (endpoint === undefined) throw new UsageError('--endpoint URL is required, e.g. --endpoint http://localhost:8787');
  if (!/^https?:\/\/[^/]/i.test(endpoint)) throw new UsageError(`--endpoint must be an http(s) URL, got "${endpoint}"`);
  const rounds = intOption(parsed, 'rounds', 1, 100_000, 20);
  const room = parsed.values.room ?? DEFAULT_ROOM;
  if (!isRoomId(room)) throw new UsageError(`--room must be ${oneOf(ROOM_IDS, false)}, got "${room}"`);
  const mode = parsed.values.mode ?? 'shoe';
  if (!(SHOE_MODES as readonly string[]).includes(mode)) throw new UsageError(`--mode must be ${oneOf(SHOE_MODES, false)}, got "${mode}"`);
  const renew = parsed.flags.has('new-session-when-broke');
  const { out, mine } = parsed.values;
  if (renew && out === undefined) throw new UsageError('--new-session-when-broke writes one file per session: give --out FILE');
  const launchToken = parsed.values['launch-token'];
  const launch = launchToken === undefined ? null : { token: launchToken, operator: parsed.values.operator ?? null };
  if (launch && renew) throw new UsageError('--launch-token opens one session (a token is single use): --new-session-when-broke does not apply');
  if (!launch && parsed.values.operator !== undefined) throw new UsageError('--operator goes with --launch-token');

  const api = new Api(endpoint);
  const sessions: SessionPlay[] = [];
  let stopped: string | null = null;
  for (let left = rounds; left > 0 && stopped === null;) {
    let session: SessionPlay;
    try {
      session = await playSession(api, left, room, mode as ShoeMode, launch);
    } catch (err) {
      // No session was opened: there is nothing to keep.
      if (!(err instanceof WorkerError)) throw err;
      stopped = err.message;
      break;
    }
    sessions.push(session);
    left -= session.played;
    if (session.stopped === null) continue;
    // A fresh session after the money ran out, if asked and the last one played at all (no endless loop).
    if (!(renew && session.broke && session.played > 0)) stopped = session.stopped;
  }

  const written: string[] = [];
  for (const [i, session] of sessions.entries()) {
    const json = JSON.stringify(session.file);
    if (out === undefined) console.log(json);
    else {
      await writeFile(sessionPath(out, i + 1), `${json}\n`);
      written.push(sessionPath(out, i + 1));
    }
    if (mine !== undefined) {
      await writeFile(sessionPath(mine, i + 1), `${JSON.stringify(session.mine)}\n`);
      written.push(sessionPath(mine, i + 1));
    }
  }
  const played = sessions.reduce((n, s) => n + s.played, 0);
  const sum = (k: 'staked' | 'returned' | 'shoes') => sessions.reduce((n, s) => n + s[k], 0);
  const copies = sessions.filter((s) => s.ownCopy).length;
  const wallet = sessions.find((s) => s.wallet)?.wallet;
  const refusals = new Map<string, number>();
  for (const s of sessions) for (const [code, n] of s.refusals) refusals.set(code, (refusals.get(code) ?? 0) + n);
  const summaryLine =
    `played ${played} round(s) in ${sum('shoes')} shoe(s)${sessions.length > 1 ? ` and ${sessions.length} sessions` : ''}, room ${sessions[0]?.room ?? room}, ${mode} mode` +
    (wallet ? `, wallet mode (operator ${wallet.operator}, ${wallet.currency})` : '') +
    `: staked ${sum('staked')}, returned ${sum('returned')} (${wallet ? `${wallet.currency} ` : ''}minor units)` +
    (refusals.size > 0 ? `; bets refused: ${[...refusals].map(([code, n]) => `${code} ×${n}`).join(', ')}` : '') +
    (written.length > 0 ? `; wrote ${written.join(', ')}` : '') +
    (copies > 0 ? ` (the Worker did not send the table's file of ${copies} session(s): the player's own copy stands in)` : '');
  if (stopped === null) {
    console.error(summaryLine);
    return 0;
  }
  if (sessions.length === 0) console.error(`punto-banco play: ${stopped}`);
  else console.error(`punto-banco play: stopped after ${played} of ${rounds} round(s): ${stopped}\n${summaryLine}`);
  return 1;
}

/** Session k's file: the path itself for the first, then ".session-k" before the extension. */
export function sessionPath(path: string, k: number): string {
  if (k === 1) return path;
  const ext = extname(path);
  return `${path.slice(0, path.length - ext.length)}.session-${k}${ext}`;
}

/** The player's side of one table: its key, its copy of the records, and where the chain stands. */
class Player {
  readonly records: Signed[] = [];
  /** Signed requests no record answers yet (the copy's `sent`). */
  readonly sent: SignedRequest[] = [];
  balance = 0;
  shoe!: ShoeView;
  readonly key: SigningKey;

  constructor(key: SigningKey) {
    this.key = key;
  }

  /** Records as they arrive; each answers the oldest request still waiting, if any. */
  received(...records: Signed[]): void {
    this.records.push(...records);
    this.sent.length = 0;
  }

  get last(): Signed {
    return this.records.at(-1)!;
  }

  async sign<T extends Parameters<typeof signRequest>[0]>(body: T): Promise<SignedRequest<T>> {
    const request = await signRequest(body, this.key);
    this.sent.push(request);
    return request;
  }

  copy(): FairnessFile {
    return { version: 'pb-fair-2', records: this.records, ...(this.sent.length ? { sent: this.sent } : {}) };
  }
}

/** What one session played, and why it stopped early (null: every round asked for). */
interface SessionPlay {
  room: RoomId;
  /** Wallet mode: the session's operator and currency. */
  wallet: { operator: string; currency: string } | null;
  /** Bets refused with a wallet or limit code, by code. */
  refusals: Map<string, number>;
  file: TableTranscript | FairnessFile;
  mine: FairnessFile;
  shoes: number;
  staked: number;
  returned: number;
  played: number;
  stopped: string | null;
  /** It stopped because the play money ran out. */
  broke: boolean;
  /** The Worker did not send the table's file: `file` is the player's own copy. */
  ownCopy: boolean;
}

/**
 * Plays up to `rounds` rounds in a new session. A failure to open the session throws; anything
 * after it stops the play and is reported in `stopped`, with every round played kept.
 */
async function playSession(
  api: Api,
  rounds: number,
  room: RoomId,
  mode: ShoeMode,
  launch: { token: string; operator: string | null } | null,
): Promise<SessionPlay> {
  const player = new Player((await generateSigningKey('player')).key);
  const playerKey = playerKeyOf(player.key);
  const created = await api.call(
    launch
      ? apiCalls.launchSession({ launchToken: launch.token, playerKey, mode, ...(launch.operator ? { operator: launch.operator } : {}) }, newKey())
      : apiCalls.createSession({ room, mode, playerKey }, newKey()),
  );
  const { sessionId, token, limits } = created;
  const wallet = created.wallet ? { operator: created.wallet.operator, currency: created.wallet.currency } : null;
  const refusals = new Map<string, number>();
  /** The bets of the next round: random and legal, or the room's minimum after a refusal a smaller bet may pass. */
  let smaller = false;
  let unknownDebits = 0;
  player.balance = created.balance;
  player.shoe = created.shoe;
  player.received(created.shoe.commitment);
  let shoes = 0;
  let staked = 0;
  let returned = 0;
  let played = 0;
  let stopped: string | null = null;
  let broke = false;

  const startShoe = async (): Promise<void> => {
    const { min, max } = player.shoe.cutRange;
    const cut = min + cryptoBelow(max - min + 1);
    const request = await player.sign(startRequest(player.shoe.commitment, newClientSeed(randomBytes), cut));
    const answer = await api.call(apiCalls.startShoe(sessionId, request, newKey()), token);
    player.shoe = answer.shoe;
    player.received(answer.shoe.start!);
    shoes++;
  };

  try {
    await startShoe();
    for (; played < rounds; played++) {
      const bets =
        smaller && player.balance >= limits.min
          ? [{ sector: 0, box: 'player' as const, amount: limits.min }]
          : randomLegalBets(limits, player.balance, cryptoBelow);
      if (bets === null) {
        broke = true;
        stopped = `the play money ran out after ${played} round(s) of this session: balance ${player.balance}, the room's minimum bet ${limits.min} (minor units)`;
        break;
      }
      // Phase 1: the bet and the lock of a secret only this player knows.
      const secret = newRoundSecret(randomBytes);
      const bet = await player.sign(betRequest(player.last, player.shoe.rounds + 1, bets, secret));
      let accepted: AcceptanceAnswer;
      try {
        accepted = await api.call(apiCalls.placeBet(sessionId, bet, newKey()), token);
      } catch (err) {
        if (!(wallet && err instanceof WorkerError)) throw err;
        const refused = walletRefusal(err, smaller, unknownDebits);
        if (!refused) throw err;
        // Nothing was accepted: the bet request is answered by no record; the next one is signed afresh.
        player.sent.length = 0;
        refusals.set(err.code!, (refusals.get(err.code!) ?? 0) + 1);
        if (refused === 'stop') throw err;
        smaller = refused === 'smaller';
        unknownDebits = refused === 'again' ? unknownDebits + 1 : 0;
        played--;
        continue;
      }
      smaller = false;
      unknownDebits = 0;
      player.received(accepted.acceptance);
      // Phase 2: the secret; the Worker deals.
      const reveal = await player.sign(secretRequest(accepted.acceptance, secret));
      const answer = await api.call(apiCalls.revealSecret(sessionId, reveal, newKey()), token);
      player.received(answer.receipt);
      staked += answer.receipt.body.staked;
      returned += answer.receipt.body.returned;
      player.balance = answer.balance;
      player.shoe = { ...player.shoe, rounds: answer.shoe.rounds };
      if (answer.nextShoe) {
        // The shoe ended (cut card or round limit): its seed is revealed; the next one needs our seed and cut.
        player.received(answer.reveal!, answer.nextShoe.commitment);
        player.shoe = answer.nextShoe;
        if (played + 1 < rounds) await startShoe();
      }
    }
  } catch (err) {
    if (!(err instanceof WorkerError)) throw err;
    stopped = err.message;
  }
  // The player ends the shoe in play, so its seed is revealed (the Worker may refuse: a round waits for its secret).
  if (player.shoe.status === 'in-play') {
    try {
      const end = await player.sign(endRequest(player.last));
      const ended = await api.call(apiCalls.endShoe(sessionId, end, newKey()), token);
      player.received(ended.reveal, ended.nextShoe.commitment);
    } catch (err) {
      if (!(err instanceof WorkerError)) throw err;
      stopped ??= `the shoe could not be ended: ${err.message}`;
    }
  }
  let file: TableTranscript | FairnessFile;
  let ownCopy = false;
  try {
    file = await api.call(apiCalls.transcript(sessionId), token);
  } catch (err) {
    if (!(err instanceof WorkerError)) throw err;
    stopped ??= `the table's file could not be fetched: ${err.message}`;
    file = player.copy();
    ownCopy = true;
  }
  return { room: created.room, wallet, refusals, file, mine: player.copy(), shoes, staked, returned, played, stopped, broke, ownCopy };
}

/**
 * What to do after the wallet or the player's limits refused a bet: `again` (the debit's outcome
 * was unknown and the Worker rolled it back: new bets, a few times in a row), `smaller` (one try at
 * the room's minimum), `stop` (a refusal no other bet passes); null: not a wallet refusal.
 */
function walletRefusal(err: WorkerError, triedSmaller: boolean, unknownDebits: number): 'again' | 'smaller' | 'stop' | null {
  if (err.code === null || err.status < 400) return null;
  if (err.code === 'wallet_unavailable') return unknownDebits + 1 < UNKNOWN_DEBIT_TRIES ? 'again' : 'stop';
  if (SMALLER_BET_MAY_PASS.has(err.code)) return triedSmaller ? 'stop' : 'smaller';
  return WALLET_STOPS.has(err.code) ? 'stop' : null;
}

/** Refusals that end the play (reported, the files written). */
const WALLET_STOPS = new Set(['reality_check_pending', 'session_ended', 'player_blocked', 'limit_reached', 'unknown_player', 'wrong_currency']);
