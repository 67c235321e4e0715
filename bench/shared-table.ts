/**
 * One shared table with 10, 100 and 400 players (the most a table seats) connected by WebSocket over loopback:
 * the Worker bundled and run in workerd through Miniflare (workerd.ts), the local beacon, every
 * player signing its own start and bet requests. Per size, a few rounds in which every player bets:
 *
 * - close → deal: from the close record's time to each player receiving the deal (p50 / p99 over
 *   players and rounds). It includes the wait for the beacon round (due up to 3 s after the close,
 *   by design), so also: beacon due → deal received, the table's own latency (fetch and verify the
 *   beacon, deal, sign one settlement per player, broadcast to every socket);
 * - Worker CPU per round: workerd's own CPU (Linux /proc) from the window's opening to the last
 *   settlement received: the bets (signature checks, debit RPCs to every session), the close, the
 *   deal, the settlements, the credits and the broadcasts;
 * - memory: workerd's resident set, before the players connect and after the rounds;
 * - close received (p50 / p99): how long the close, which lists every bet, takes to reach each
 *   player; and how many bets were taken before the close (a bet debited later is refunded).
 *
 * Everything runs in ONE workerd process here: the table AND the 1,000 players' session objects
 * (each debit and credit is an RPC to one of them), which deployed run on machines of their own;
 * so the CPU figure is the whole system's, and the table's share is smaller.
 * PB_SHARED_SIZES picks the sizes; PB_SHARED_PROFILE=<folder> writes a CPU profile of the last round
 * of each size (profile.ts); PB_SHARED_ROOT=<checkout> measures another checkout's Worker;
 * PB_SHARED_DEFLATE=1 lets the players offer WebSocket compression (see `connect`).
 *
 * Bounded in time: each size stops after ROUNDS rounds or SIZE_BUDGET_MS, whichever first. Figures
 * only: nothing here passes or fails.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { QUICKNET, timeOfRound } from '../shared/beacon.ts';
import { generateSigningKey, type SigningKey } from '../shared/index.ts';
import { sharedBetRequest, sharedStartRequest, signSharedRequest } from '../shared/fairness/pb-shared-1/index.ts';
import { playerKeyOf } from '../shared/fairness/pb-fair-2/records.ts';
import * as apiCalls from '../shared/wire/http-calls.ts';
import { apiUrl, sendApiCall, type WireResult } from '../shared/wire/http-client.ts';
import { startProfile } from './profile.ts';
import { startMiniflare, workerdCpu } from './workerd.ts';

const SIZES = (process.env.PB_SHARED_SIZES ?? '10,100,400').split(',').map(Number);
const ROUNDS = 2;
const SIZE_BUDGET_MS = 240_000;
/** The production default: at 1,000 players a 6 s window was too short to take every bet on this machine (1,000 session objects in one process). */
const WINDOW_MS = 15_000;
/** Another checkout's Worker to measure (e.g. the commit before a change), instead of this one. */
const ROOT = process.env.PB_SHARED_ROOT ?? process.cwd();
/** A folder: the last round of each size is CPU-profiled there (shared-<players>.cpuprofile, and a summary printed). */
const PROFILE_DIR = process.env.PB_SHARED_PROFILE;

interface Seat {
  key: SigningKey;
  player: string;
  ws: WebSocket;
  /** Arrival times (performance.now()) and bodies of the messages, by type. */
  waiting: Map<string, Array<(m: any) => void>>;
  inbox: any[];
}

/** The answer of a call; a failure stops the bench. */
function answered<T>(result: WireResult<T>): T {
  if (!result.ok) throw new Error(`the Worker refused: HTTP ${result.error.status} ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** workerd's resident memory in MB (the processes Miniflare started). */
async function workerdRssMb(): Promise<number> {
  let kb = 0;
  for (const pid of (await readdir('/proc')).filter((e) => /^\d+$/.test(e))) {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s+workerd$/m.test(status) || !new RegExp(`^PPid:\\s+${process.pid}$`, 'm').test(status)) continue;
      kb += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      /* gone meanwhile */
    }
  }
  return kb / 1024;
}

/** The next message of `type` at this seat whose arrival we await (wall time of arrival attached). */
function next(seat: Seat, type: string, test: (m: any) => boolean = () => true, timeoutMs = 60_000): Promise<any> {
  const found = seat.inbox.findIndex((m) => m.type === type && test(m));
  if (found >= 0) return Promise.resolve(seat.inbox.splice(found, 1)[0]);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms`)), timeoutMs);
    const list = seat.waiting.get(type) ?? [];
    const waiter = (m: any) => {
      if (!test(m)) return false;
      clearTimeout(timer);
      resolve(m);
      return true;
    };
    list.push(waiter as never);
    seat.waiting.set(type, list);
  });
}

/**
 * The Worker turns WebSocket compression off (wrangler.toml `no_web_socket_compression`: deflating
 * the same close for each of 1,000 sockets was most of the table's CPU). Miniflare's own entry
 * Worker in front of it would still accept the client's offer, so by default the players here do
 * not offer it, as the deployed Worker declines it; PB_SHARED_DEFLATE=1 offers it (the cost before).
 */
const DEFLATE = process.env.PB_SHARED_DEFLATE === '1';
const globalDispatcher = (globalThis as Record<symbol, any>)[Symbol.for('undici.globalDispatcher.1')];
const withoutCompression = {
  dispatch(opts: { headers?: unknown }, handler: unknown) {
    const h = opts.headers;
    if (Array.isArray(h)) {
      for (let i = h.length - 2; i >= 0; i -= 2) if (String(h[i]).toLowerCase() === 'sec-websocket-extensions') h.splice(i, 2);
    } else if (h && typeof h === 'object') {
      for (const k of Object.keys(h)) if (k.toLowerCase() === 'sec-websocket-extensions') delete (h as Record<string, unknown>)[k];
    }
    return globalDispatcher.dispatch(opts, handler);
  },
};

/** `{"v":1,"type":"close","shoe":…,"round":…,"close":…}`: the head of a close message, before its list of bets. */
const CLOSE_HEAD = /^\{"v":1,"type":"close","shoe":(\d+),"round":(\d+),/;

/**
 * A player. `reader`: this one reads every message whole; the others read only the head of a close
 * (its round): each of 1,000 players parsing the whole list of 1,000 bets is 1,000 times the work
 * of one player's device, all in this one process, and it would hold back every later message.
 */
function connect(url: string, ticket: string, key: SigningKey, reader: boolean): Promise<Seat> {
  // Node's WebSocket (undici) takes a dispatcher: here one that leaves out the compression offer.
  const ws = new (WebSocket as unknown as new (url: string, init: object) => WebSocket)(
    `${url}?ticket=${encodeURIComponent(ticket)}`,
    DEFLATE || !globalDispatcher ? {} : { dispatcher: withoutCompression },
  );
  const seat: Seat = { key, player: playerKeyOf(key), ws, waiting: new Map(), inbox: [] };
  ws.addEventListener('message', (e) => {
    const text = String(e.data);
    const head = reader ? null : CLOSE_HEAD.exec(text);
    const m = head ? { v: 1, type: 'close', shoe: Number(head[1]), round: Number(head[2]) } : JSON.parse(text);
    m.at = Date.now();
    const list = seat.waiting.get(m.type) ?? [];
    const i = list.findIndex((w) => (w as unknown as (m: any) => boolean)(m));
    if (i >= 0) list.splice(i, 1);
    else if (['state', 'open', 'start-ack', 'bet-ack', 'close', 'deal', 'settlement', 'bet-refused', 'error'].includes(m.type)) seat.inbox.push(m);
  });
  return new Promise((resolve, reject) => {
    ws.addEventListener('open', () => resolve(seat), { once: true });
    ws.addEventListener('error', () => reject(new Error('the socket did not open')), { once: true });
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

interface SizeFigures {
  players: number;
  rounds: number;
  closeToDeal: { p50: number; p99: number };
  beaconToDeal: { p50: number; p99: number };
  /** From the close record's time to each player receiving the close message. */
  closeReceived: { p50: number; p99: number };
  /** The fewest bets of a round that were taken before its close (every player bets in every round). */
  betsTaken: number;
  /** Beacon due → the deal's issuedAt, by the table's clock: the table's own part of beacon → deal (the slowest round). */
  dealSignedMs: number;
  /** This process's CPU per round: the players' side (signing bets, reading every message). */
  benchCpuPerRoundMs: number;
  cpuPerRoundMs: number;
  /** The WebSocket extensions the players' sockets negotiated ("" when none). */
  extensions: string;
  rssBeforeMb: number;
  /** With every player seated (sessions created, sockets open, start requests in), before the rounds. */
  rssSeatedMb: number;
  rssAfterMb: number;
}

async function measure(players: number): Promise<SizeFigures> {
  const port = await freePort();
  const inspectorPort = PROFILE_DIR ? await freePort() : undefined;
  const { privateJwk } = await generateSigningKey();
  const mf = await startMiniflare(
    ROOT,
    {
      SIGNING_KEY: JSON.stringify(privateJwk),
      BEACON_SECRET_KEY: '1'.repeat(62) + '01',
      SHARED_WINDOW_MS: String(WINDOW_MS),
      RATE_CREATE_BURST: '100000',
      RATE_IP_BURST: '100000',
      RATE_IP_PER_SEC: '100000',
      // Every bench player comes from loopback: one address may seat the whole table here.
      SHARED_SEATS_PER_ADDRESS: '100000',
    },
    port,
    inspectorPort,
  );
  const started = performance.now();
  try {
    const base = `http://127.0.0.1:${port}`;
    const table = `hall-1/bench-${players}`;
    const rssBeforeMb = await workerdRssMb();
    const seats: Seat[] = [];
    for (let i = 0; i < players; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, players - i) }, async (_, j) => {
          const key = (await generateSigningKey()).key;
          const created = answered(
            await sendApiCall(fetch, base, apiCalls.createSession({ room: 'hall-1', playerKey: playerKeyOf(key) }, crypto.randomUUID())),
          );
          // A single-use ticket for the upgrade URL, as the widget does (the session token never goes in a URL).
          const { ticket } = answered(await sendApiCall(fetch, base, apiCalls.sharedTableTicket(table), { token: created.token }));
          return connect(apiUrl(base.replace('http', 'ws'), apiCalls.sharedTableSocketPath(table)), ticket, key, i + j === 0);
        }),
      );
      seats.push(...batch);
    }
    const hello = await next(seats[0]!, 'state');
    await Promise.all(
      seats.map(async (s, i) => {
        const request = await signSharedRequest(sharedStartRequest(hello.shoe.commitment, s.player, `bench seat ${i}`, 1 + ((i * 37) % 300)), s.key);
        s.ws.send(JSON.stringify({ v: 1, type: 'start', request }));
        await next(s, 'start-ack');
      }),
    );
    const rssSeatedMb = await workerdRssMb();
    // Seating took a while: windows may have opened and closed meanwhile. Bet in a fresh one.
    for (const s of seats) s.inbox.length = 0;
    const closeToDeal: number[] = [];
    const beaconToDeal: number[] = [];
    const closeReceived: number[] = [];
    const betsTaken: number[] = [];
    const dealSigned: number[] = [];
    let cpuMs = 0;
    let benchCpuMs = 0;
    let rounds = 0;
    for (; rounds < ROUNDS && performance.now() - started < SIZE_BUDGET_MS; rounds++) {
      const open = await next(seats[0]!, 'open', () => true, 60_000);
      const profile = PROFILE_DIR && rounds === ROUNDS - 1 ? await startProfile(mf, 'punto-banco-bench') : null;
      const cpu0 = await workerdCpu();
      const benchCpu0 = process.cpuUsage();
      await Promise.all(
        seats.map(async (s, i) => {
          const bets = [{ sector: i % 5, box: (['player', 'banker', 'tie'] as const)[i % 3]!, amount: 100 * (1 + (i % 5)) }];
          const request = await signSharedRequest(sharedBetRequest(table, open.shoe, open.round, s.player, bets), s.key);
          s.ws.send(JSON.stringify({ v: 1, type: 'bet', request }));
        }),
      );
      const close = await next(seats[0]!, 'close', (m) => m.round === open.round, 60_000).catch((err: Error) => {
        const acks = seats.filter((s) => s.inbox.some((m) => m.type === 'bet-ack')).length;
        const refused = seats.flatMap((s) => s.inbox.filter((m) => m.type === 'bet-refused' || m.type === 'error').map((m) => m.code));
        throw new Error(`${err.message}; ${acks} bets acknowledged, refusals: ${[...new Set(refused)].join(', ') || 'none'}`);
      });
      const closedAt = Date.parse(close.close.body.issuedAt);
      // The local beacon keeps quicknet's schedule.
      const beaconDue = timeOfRound(QUICKNET, close.close.body.beaconRound);
      const deals = await Promise.all(seats.map((s) => next(s, 'deal', (m) => m.round === open.round)));
      for (const [i, s] of seats.entries()) {
        const got = i === 0 ? close : s.inbox.find((m) => m.type === 'close' && m.round === open.round);
        if (got) closeReceived.push(got.at - closedAt);
      }
      // A bet whose stake was taken only after the close is refused (betting_closed) and not in the round.
      const inRound = seats.filter((s) => s.inbox.some((m) => m.type === 'bet-ack' && m.round === open.round));
      betsTaken.push(inRound.length);
      await Promise.all(inRound.map((s) => next(s, 'settlement', (m) => m.round === open.round)));
      const cpu1 = await workerdCpu();
      cpuMs += (cpu1.user + cpu1.system - cpu0.user - cpu0.system) * 1000;
      const benchCpu = process.cpuUsage(benchCpu0);
      benchCpuMs += (benchCpu.user + benchCpu.system) / 1000;
      if (profile) console.log(await profile.stop(`${PROFILE_DIR}/shared-${players}.cpuprofile`));
      dealSigned.push(Date.parse(deals[0].deal.body.issuedAt) - beaconDue);
      for (const d of deals) {
        closeToDeal.push(d.at - closedAt);
        beaconToDeal.push(d.at - beaconDue);
      }
    }
    const rssAfterMb = await workerdRssMb();
    for (const s of seats) s.ws.close();
    return {
      players,
      rounds,
      closeToDeal: { p50: pct(closeToDeal, 50), p99: pct(closeToDeal, 99) },
      beaconToDeal: { p50: pct(beaconToDeal, 50), p99: pct(beaconToDeal, 99) },
      closeReceived: { p50: pct(closeReceived, 50), p99: pct(closeReceived, 99) },
      betsTaken: Math.min(...betsTaken),
      dealSignedMs: Math.max(...dealSigned),
      benchCpuPerRoundMs: rounds > 0 ? benchCpuMs / rounds : NaN,
      cpuPerRoundMs: rounds > 0 ? cpuMs / rounds : NaN,
      extensions: seats[0]!.ws.extensions,
      rssBeforeMb,
      rssSeatedMb,
      rssAfterMb,
    };
  } finally {
    await mf.dispose();
  }
}

export async function run(): Promise<void> {
  const figures: SizeFigures[] = [];
  for (const players of SIZES) {
    try {
      const f = await measure(players);
      figures.push(f);
      console.log(
        `shared table, ${f.players} players, ${f.rounds} rounds, at least ${f.betsTaken} bets taken a round: close → deal received p50 ${f.closeToDeal.p50.toFixed(0)} ms, p99 ${f.closeToDeal.p99.toFixed(0)} ms ` +
          `(beacon due → deal received p50 ${f.beaconToDeal.p50.toFixed(0)} ms, p99 ${f.beaconToDeal.p99.toFixed(0)} ms; ` +
          `close received p50 ${f.closeReceived.p50.toFixed(0)} ms, p99 ${f.closeReceived.p99.toFixed(0)} ms; ` +
          `deal signed ${f.dealSignedMs.toFixed(0)} ms after the beacon was due, at most); ` +
          `workerd CPU per round ${f.cpuPerRoundMs.toFixed(0)} ms (${(f.cpuPerRoundMs / f.players).toFixed(2)} ms per player; the players' process ${f.benchCpuPerRoundMs.toFixed(0)} ms); ` +
          `workerd memory ${f.rssBeforeMb.toFixed(0)} MB before the players, ${f.rssSeatedMb.toFixed(0)} MB seated, ${f.rssAfterMb.toFixed(0)} MB after the rounds; ` +
          `WebSocket compression ${f.extensions === '' ? 'off' : `on (${f.extensions})`}`,
      );
    } catch (err) {
      console.log(`shared table, ${players} players: stopped (${(err as Error).message})`);
    }
  }
  if (figures.length > 1) {
    const [a, ...rest] = figures;
    for (const b of rest) {
      console.log(
        `growth ${a!.players} → ${b.players} players (×${b.players / a!.players}): CPU per round ×${(b.cpuPerRoundMs / a!.cpuPerRoundMs).toFixed(1)}, ` +
          `beacon → deal p50 ×${(b.beaconToDeal.p50 / a!.beaconToDeal.p50).toFixed(1)}, memory +${(b.rssAfterMb - b.rssBeforeMb - (a!.rssAfterMb - a!.rssBeforeMb)).toFixed(0)} MB`,
      );
    }
  }
}
