/**
 * One shared table with 10, 100, 1,000 and 10,000 players connected by WebSocket over loopback:
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
 * A round takes the bets of MAX_SEATS players at most (the pb-shared-1 close lists every bet and
 * must stay under 1 MiB): beyond that, the first MAX_SEATS players bet and the others watch (they
 * receive every message a bettor does but its own acks). The bench seats them all with the
 * development-only SHARED_TEST_SEATS.
 *
 * For each size one line anyone can compare between runs:
 *   shared-table players=N bytes/player/round=B close-deal-p99-ms=X beacon-deal-p99-ms=Y cpu-ms/round=Z
 * (B: the bytes of the WebSocket messages one player receives in a round, averaged over players
 * and rounds; Z: workerd's CPU per unprofiled round), then one more round sampled by the inspector
 * to split the CPU by object kind (the source file of the Worker's own frame nearest each sample:
 * the table, its relays, the players' session objects, the Worker's fetch handler), and memory per
 * 1,000 sockets (workerd's resident set seated minus before, which counts each player's session object too).
 *
 * PB_SHARED_SIZES picks the sizes; PB_SHARED_ROUNDS the unprofiled rounds (default 2); PB_SHARED_PROFILE=<folder> writes the profiled
 * round of each size (profile.ts); PB_SHARED_ROOT=<checkout> measures another checkout's Worker;
 * PB_SHARED_DEFLATE=1 lets the players offer WebSocket compression (see `connect`).
 *
 * Bounded in time: each size stops after ROUNDS rounds or SIZE_BUDGET_MS, whichever first. Figures
 * only: nothing here passes or fails.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { QUICKNET, timeOfRound } from '../shared/beacon.ts';
import { generateSigningKey, type SigningKey } from '../shared/index.ts';
import { sharedBetRequest, sharedStartRequest, signSharedRequest } from '../shared/fairness/pb-shared-1/index.ts';
import { playerKeyOf } from '../shared/fairness/pb-fair-2/records.ts';
import * as apiCalls from '../shared/wire/http-calls.ts';
import { apiUrl, sendApiCall, type WireResult } from '../shared/wire/http-client.ts';
import { MAX_SEATS } from '../shared/wire/shared-table-socket.ts';
import { type CpuProfile, startProfile } from './profile.ts';
import { bundleOf, startMiniflare, workerdCpu } from './workerd.ts';

const SIZES = (process.env.PB_SHARED_SIZES ?? '10,100,1000,10000').split(',').map(Number);
const ROUNDS = Number(process.env.PB_SHARED_ROUNDS ?? '2');
/** Per size: seating 10,000 players takes minutes on two cores, so the budget grows with the table. */
const sizeBudgetMs = (players: number) => 240_000 + 120 * players;
/**
 * The production default, 15 s, plus 10 ms a player: the `open` reaches every socket and the bets
 * come back within the window on this shared two-core machine (at 1,000 players a 15 s window was
 * over before the first bet came in, under a load of 14). The figures do not depend on it.
 */
const windowMs = (players: number) => 15_000 + 10 * players;
/** Another checkout's Worker to measure (e.g. the commit before a change), instead of this one. */
const ROOT = process.env.PB_SHARED_ROOT ?? process.cwd();
/** A folder: the profiled round of each size is written there (shared-<players>.cpuprofile). */
const PROFILE_DIR = process.env.PB_SHARED_PROFILE;

interface Seat {
  key: SigningKey;
  player: string;
  ws: WebSocket;
  /** Arrival times (performance.now()) and bodies of the messages, by type. */
  waiting: Map<string, Array<(m: any) => void>>;
  inbox: any[];
  /** Bytes of every message received (UTF-16 code units: the messages are ASCII JSON). */
  bytes: number;
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
  const seat: Seat = { key, player: playerKeyOf(key), ws, waiting: new Map(), inbox: [], bytes: 0 };
  ws.addEventListener('message', (e) => {
    const text = String(e.data);
    seat.bytes += text.length;
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
  /** Players who bet each round (MAX_SEATS at most). */
  bettors: number;
  rounds: number;
  /** Bytes each player received per round, averaged over players and rounds. */
  bytesPerPlayerRound: number;
  /** Per round, the table's calls with its relays (null: a Worker without relays). */
  traffic: { relays: number; inCalls: number; inItems: number; outCalls: number; outMessages: number } | null;
  /** CPU of the profiled round by object kind, ms (JavaScript samples; the rest outside JavaScript). */
  cpuByKind: Record<string, number> | null;
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

/** The Worker's object kinds, by the source file of a frame (the bundle's `// path` comments). */
function kindOfFile(file: string): string | null {
  if (file.startsWith('worker/shared-table/relay')) return 'relay';
  if (file.startsWith('worker/shared-table/')) return 'table';
  if (file.startsWith('worker/session/') || file.startsWith('worker/wallet/')) return 'session';
  if (file.startsWith('worker/')) return 'worker';
  return null;
}

/**
 * A profile's samples by object kind, in ms: each sample goes to the kind of the nearest frame on its
 * stack that lies in a Worker file (shared/ code counts for whoever called it); samples under no such
 * frame are "runtime" (Miniflare's entry, the runtime's glue); idle and unsampled gaps are left out.
 */
function cpuByKind(profile: CpuProfile, bundle: string, intervalUs: number): Record<string, number> {
  // The first line of each module in the bundle.
  const starts: Array<[number, string]> = [];
  bundle.split('\n').forEach((line, i) => {
    const m = /^\/\/ ((?:worker|shared|node_modules)\/\S+)$/.exec(line);
    if (m) starts.push([i, m[1]!]);
  });
  const fileAt = (line: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = '';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]![0] <= line) {
        found = starts[mid]![1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const kindOfNode = new Map<number, string>();
  const kindOf = (id: number): string => {
    const known = kindOfNode.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    const own = n.callFrame.url.endsWith('index.js') ? kindOfFile(fileAt(n.callFrame.lineNumber)) : null;
    const up = parent.get(id);
    const kind = own ?? (up === undefined ? 'runtime' : kindOf(up));
    kindOfNode.set(id, kind);
    return kind;
  };
  const ms: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const d = profile.timeDeltas[i + 1] ?? 0;
    const name = byId.get(id)!.callFrame.functionName;
    if (d > 20 * intervalUs || name === '(idle)' || name === '(program)') return;
    const kind = kindOf(id);
    ms[kind] = (ms[kind] ?? 0) + d / 1000;
  });
  return ms;
}

async function measure(players: number): Promise<SizeFigures> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const { privateJwk } = await generateSigningKey();
  const mf = await startMiniflare(
    ROOT,
    {
      SIGNING_KEY: JSON.stringify(privateJwk),
      BEACON_SECRET_KEY: '1'.repeat(62) + '01',
      SHARED_WINDOW_MS: String(windowMs(players)),
      RATE_CREATE_BURST: '1000000',
      RATE_IP_BURST: '1000000',
      RATE_IP_PER_SEC: '100000',
      // Every bench player comes from loopback: one address may seat the whole table here.
      SHARED_SEATS_PER_ADDRESS: '1000000',
      // Development only: the table seats every bench player (bets a round stay at MAX_SEATS).
      DEV: 'true',
      SHARED_TEST_SEATS: String(players),
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
    const bettors = seats.slice(0, Math.min(players, MAX_SEATS));
    // The table's traffic with its relays (`SharedTable.traffic()`); null on a Worker without relays.
    const ns = await mf.getDurableObjectNamespace('SHARED_TABLES');
    const tableStub = ns.get(ns.idFromName(table)) as unknown as {
      traffic(): Promise<{ relays: number; in: { batches: number; items: number }; out: { calls: number; messages: number } }>;
    };
    const traffic = () => tableStub.traffic().catch(() => null);
    const moved = { relays: 0, inCalls: 0, inItems: 0, outCalls: 0, outMessages: 0 };
    let counted = true;
    const hello = await next(seats[0]!, 'state');
    await Promise.all(
      bettors.map(async (s, i) => {
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
    let bytes = 0;
    let cpuMs = 0;
    let benchCpuMs = 0;
    let rounds = 0;
    let byKind: Record<string, number> | null = null;
    const budget = sizeBudgetMs(players);
    // ROUNDS measured rounds, then one sampled by the inspector for the split by object kind.
    for (let r = 0; r <= ROUNDS && performance.now() - started < budget; r++) {
      const profiled = r === ROUNDS;
      const open = await next(seats[0]!, 'open', () => true, 60_000 + 2 * windowMs(players));
      const bytes0 = seats.reduce((a, s) => a + s.bytes, 0);
      const traffic0 = profiled ? null : await traffic();
      const profile = profiled ? await startProfile(mf, 'punto-banco-bench') : null;
      const cpu0 = await workerdCpu();
      const benchCpu0 = process.cpuUsage();
      await Promise.all(
        bettors.map(async (s, i) => {
          const bets = [{ sector: i % 5, box: (['player', 'banker', 'tie'] as const)[i % 3]!, amount: 100 * (1 + (i % 5)) }];
          const request = await signSharedRequest(sharedBetRequest(table, open.shoe, open.round, s.player, bets), s.key);
          s.ws.send(JSON.stringify({ v: 1, type: 'bet', request }));
        }),
      );
      const close = await next(seats[0]!, 'close', (m) => m.round === open.round, 60_000 + windowMs(players)).catch((err: Error) => {
        const acks = seats.filter((s) => s.inbox.some((m) => m.type === 'bet-ack')).length;
        const refused = seats.flatMap((s) => s.inbox.filter((m) => m.type === 'bet-refused' || m.type === 'error').map((m) => m.code));
        throw new Error(`${err.message}; ${acks} bets acknowledged, refusals: ${[...new Set(refused)].join(', ') || 'none'}`);
      });
      const closedAt = Date.parse(close.close.body.issuedAt);
      // The local beacon keeps quicknet's schedule.
      const beaconDue = timeOfRound(QUICKNET, close.close.body.beaconRound);
      const deals = await Promise.all(seats.map((s) => next(s, 'deal', (m) => m.round === open.round, 120_000)));
      // A bet whose stake was taken only after the close is refused (betting_closed) and not in the round.
      const inRound = seats.filter((s) => s.inbox.some((m) => m.type === 'bet-ack' && m.round === open.round));
      await Promise.all(inRound.map((s) => next(s, 'settlement', (m) => m.round === open.round, 120_000)));
      const cpu1 = await workerdCpu();
      const benchCpu = process.cpuUsage(benchCpu0);
      if (profile) {
        const sampled = await profile.stopProfile();
        if (PROFILE_DIR) await writeFile(`${PROFILE_DIR}/shared-${players}.cpuprofile`, JSON.stringify(sampled));
        byKind = cpuByKind(sampled, bundleOf(mf) ?? '', 200);
        byKind['all (workerd, /proc)'] = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) * 1000;
        continue;
      }
      bytes += seats.reduce((a, s) => a + s.bytes, 0) - bytes0;
      const traffic1 = traffic0 ? await traffic() : null;
      if (traffic0 && traffic1) {
        moved.relays = traffic1.relays;
        moved.inCalls += traffic1.in.batches - traffic0.in.batches;
        moved.inItems += traffic1.in.items - traffic0.in.items;
        moved.outCalls += traffic1.out.calls - traffic0.out.calls;
        moved.outMessages += traffic1.out.messages - traffic0.out.messages;
      } else counted = false;
      cpuMs += (cpu1.user + cpu1.system - cpu0.user - cpu0.system) * 1000;
      benchCpuMs += (benchCpu.user + benchCpu.system) / 1000;
      for (const [i, s] of seats.entries()) {
        const got = i === 0 ? close : s.inbox.find((m) => m.type === 'close' && m.round === open.round);
        if (got) closeReceived.push(got.at - closedAt);
      }
      betsTaken.push(inRound.length);
      dealSigned.push(Date.parse(deals[0].deal.body.issuedAt) - beaconDue);
      for (const d of deals) {
        closeToDeal.push(d.at - closedAt);
        beaconToDeal.push(d.at - beaconDue);
      }
      rounds++;
      for (const s of seats) s.inbox.length = 0;
    }
    const rssAfterMb = await workerdRssMb();
    for (const s of seats) s.ws.close();
    return {
      players,
      bettors: bettors.length,
      rounds,
      bytesPerPlayerRound: rounds > 0 ? bytes / rounds / players : NaN,
      traffic:
        counted && rounds > 0
          ? {
              relays: moved.relays,
              inCalls: moved.inCalls / rounds,
              inItems: moved.inItems / rounds,
              outCalls: moved.outCalls / rounds,
              outMessages: moved.outMessages / rounds,
            }
          : null,
      cpuByKind: byKind,
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
      // The one line to compare between runs.
      console.log(
        `shared-table players=${f.players} bytes/player/round=${Math.round(f.bytesPerPlayerRound)} close-deal-p99-ms=${f.closeToDeal.p99.toFixed(0)} ` +
          `beacon-deal-p99-ms=${f.beaconToDeal.p99.toFixed(0)} cpu-ms/round=${f.cpuPerRoundMs.toFixed(0)}`,
      );
      console.log(
        `  ${f.players} players (${f.bettors} bet each round; at least ${f.betsTaken} bets taken before the close), ${f.rounds} rounds: ` +
          `close → deal p50 ${f.closeToDeal.p50.toFixed(0)} ms; beacon due → deal p50 ${f.beaconToDeal.p50.toFixed(0)} ms; ` +
          `close received p50 ${f.closeReceived.p50.toFixed(0)} ms, p99 ${f.closeReceived.p99.toFixed(0)} ms; ` +
          `deal signed ${f.dealSignedMs.toFixed(0)} ms after the beacon was due, at most; the players' process ${f.benchCpuPerRoundMs.toFixed(0)} ms CPU per round; ` +
          `WebSocket compression ${f.extensions === '' ? 'off' : `on (${f.extensions})`}`,
      );
      const t = f.traffic;
      console.log(
        t
          ? `  table ↔ relays per round: ${t.relays} relays; in ${t.inCalls.toFixed(0)} calls carrying ${t.inItems.toFixed(0)} requests; out ${t.outCalls.toFixed(0)} deliver calls carrying ${t.outMessages.toFixed(0)} messages (each sent by its relay to its sockets)`
          : `  table ↔ players per round: no relays (the table holds every socket: ${f.bettors} bet messages in, every message sent once per socket)`,
      );
      if (f.cpuByKind) {
        const { 'all (workerd, /proc)': all, ...kinds } = f.cpuByKind;
        const js = Object.values(kinds).reduce((a, b) => a + b, 0);
        const parts = Object.entries(kinds)
          .sort((a, b) => b[1] - a[1])
          .map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`)
          .join(', ');
        const share = Object.entries(kinds)
          .sort((a, b) => b[1] - a[1])
          .map(([k, ms]) => `${k} ~${((ms / js) * f.cpuPerRoundMs).toFixed(0)}`)
          .join(', ');
        console.log(
          `  CPU per round by object kind, ms (the unprofiled cpu-ms/round split by the JavaScript samples of one profiled round): ${share}; ` +
            `samples: ${parts} (the profiled round cost ${all!.toFixed(0)} ms of workerd CPU, the sampler's own cost included)`,
        );
      }
      console.log(
        `  memory: workerd ${f.rssBeforeMb.toFixed(0)} MB before the players, ${f.rssSeatedMb.toFixed(0)} MB seated, ${f.rssAfterMb.toFixed(0)} MB after the rounds: ` +
          `${(((f.rssSeatedMb - f.rssBeforeMb) / f.players) * 1000).toFixed(0)} MB per 1,000 sockets (each with its session object)`,
      );
    } catch (err) {
      console.log(`shared-table players=${players}: stopped (${(err as Error).message})`);
    }
  }
  if (figures.length > 1) {
    const [a, ...rest] = figures;
    for (const b of rest) {
      console.log(
        `growth ${a!.players} → ${b.players} players (×${b.players / a!.players}): CPU per round ×${(b.cpuPerRoundMs / a!.cpuPerRoundMs).toFixed(1)}, ` +
          `bytes per player per round ×${(b.bytesPerPlayerRound / a!.bytesPerPlayerRound).toFixed(1)}, beacon → deal p50 ×${(b.beaconToDeal.p50 / a!.beaconToDeal.p50).toFixed(1)}`,
      );
    }
  }
}
