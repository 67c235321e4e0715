/**
 * `punto-banco play --endpoint URL [--rounds N] [--out FILE] [--room ROOM]`: plays N rounds against
 * a running Worker (API.md) with random legal bets and writes the transcripts that
 * `punto-banco verify` checks. Every shoe gets a random client seed and a random cut; when the cut
 * card comes out the next shoe is started; when the play money runs out a new table is opened. The
 * last shoe is ended early so that its seed is revealed and every round can be verified.
 */
import { writeFile } from 'node:fs/promises';
import {
  type Bet,
  type CreatedSession,
  DEFAULT_ROOM,
  type CreateSessionRequest,
  isRoomId,
  newClientSeed,
  oneOf,
  type PlayRoundRequest,
  randomBelow,
  randomLegalBets,
  type RoomId,
  ROOM_IDS,
  type RoundAnswer,
  type ShoeView,
  type StartShoeRequest,
  type TableLimits,
  type Transcript,
} from '../../shared/index.ts';
import { intOption, parseArgs, UsageError } from '../args.ts';

export const summary = 'play N rounds against a running Worker with random legal bets, write the transcripts';

export const help = `usage: punto-banco play --endpoint URL [--rounds N] [--out FILE] [--room ROOM]

Opens a table session on the Worker at URL (e.g. http://localhost:8787), starts each shoe with a
random client seed and a random cut, and plays N rounds with random legal bets (at most three
sectors, within the room's limits and the balance), starting the next shoe whenever the cut card
comes out. At the end the shoe in play is ended early so its server seed is revealed. Writes
{ "transcripts": [...] }, one transcript per shoe, for "punto-banco verify FILE --jwks URL".

options:
  --endpoint URL   the Worker's base URL (required)
  --rounds N       rounds to play, 1 to 100000 (default 20)
  --out FILE       where to write the transcripts (default: standard output)
  --room ROOM      ${oneOf(ROOM_IDS, false)} (default ${DEFAULT_ROOM})

Exit 0 when every round was played and the file written; 1 when the Worker refuses or cannot be
reached; 2 on a usage error.`;

/** What one shoe needs for its transcript to be fetched at the end. */
interface PlayedShoe {
  sessionId: string;
  token: string;
  number: number;
}

/** What the CLI keeps of a table session (API.md's answers, shared/api.ts). */
type Table = Pick<CreatedSession, 'sessionId' | 'token' | 'limits' | 'balance'> & { shoe: Pick<ShoeView, 'number' | 'status' | 'rounds' | 'cutRange'> };

class WorkerError extends Error {}

/** Fresh bytes from the platform CSPRNG. */
const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

/** A uniform integer in [0, n) from the CSPRNG. */
const cryptoBelow = (n: number): number => randomBelow(n, randomBytes);

/** The Worker's API, with retries that keep the Idempotency-Key (so a retry can never pay twice). */
class Api {
  readonly #base: string;

  constructor(endpoint: string) {
    this.#base = endpoint.replace(/\/+$/, '');
  }

  async call<T>(method: 'GET' | 'POST', path: string, opts: { token?: string; body?: unknown } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (method === 'POST') {
      headers['idempotency-key'] = crypto.randomUUID();
      headers['content-type'] = 'application/json';
    }
    const body = method === 'POST' ? JSON.stringify(opts.body ?? {}) : undefined;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${this.#base}${path}`, { method, headers, body });
      } catch (err) {
        if (attempt < 4) {
          await sleep(250 * attempt);
          continue;
        }
        throw new WorkerError(`cannot reach ${this.#base}: ${(err as Error).message}`);
      }
      const text = await res.text();
      if ((res.status === 429 || res.status === 503) && attempt < 20) {
        await sleep(1000 * Math.min(10, Number(res.headers.get('retry-after')) || 1));
        continue;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new WorkerError(`${method} ${path}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
      }
      if (!res.ok) {
        const e = (json as { error?: { code?: string; message?: string } }).error;
        throw new WorkerError(`${method} ${path}: HTTP ${res.status} ${e?.code ?? ''}: ${e?.message ?? text.slice(0, 200)}`);
      }
      return json as T;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, { values: ['endpoint', 'rounds', 'out', 'room'] });
  const endpoint = parsed.values.endpoint;
  if (endpoint === undefined) throw new UsageError('--endpoint URL is required, e.g. --endpoint http://localhost:8787');
  if (!/^https?:\/\/[^/]/i.test(endpoint)) throw new UsageError(`--endpoint must be an http(s) URL, got "${endpoint}"`);
  const rounds = intOption(parsed, 'rounds', 1, 100_000, 20);
  const room = parsed.values.room ?? DEFAULT_ROOM;
  if (!isRoomId(room)) throw new UsageError(`--room must be ${oneOf(ROOM_IDS, false)}, got "${room}"`);
  try {
    const result = await play(new Api(endpoint), rounds, room);
    const json = JSON.stringify({ transcripts: result.transcripts });
    if (parsed.values.out === undefined) console.log(json);
    else await writeFile(parsed.values.out, `${json}\n`);
    console.error(
      `played ${rounds} round(s) in ${result.transcripts.length} shoe(s) at ${result.tables} table(s), room ${room}: ` +
        `staked ${result.staked}, returned ${result.returned} (minor units)` +
        (parsed.values.out === undefined ? '' : `; wrote ${parsed.values.out}`),
    );
    return 0;
  } catch (err) {
    if (err instanceof WorkerError) {
      console.error(`punto-banco play: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

async function play(api: Api, rounds: number, room: RoomId) {
  const played: PlayedShoe[] = [];
  let tables = 0;
  let staked = 0;
  let returned = 0;

  const openTable = async (): Promise<Table> => {
    tables++;
    return api.call<CreatedSession>('POST', '/api/sessions', { body: { room } satisfies CreateSessionRequest });
  };
  const startShoe = async (t: Table): Promise<void> => {
    const { min, max } = t.shoe.cutRange;
    const cut = min + cryptoBelow(max - min + 1);
    await api.call('POST', `/api/sessions/${t.sessionId}/shoe/start`, { token: t.token, body: { clientSeed: newClientSeed(randomBytes), cut } satisfies StartShoeRequest });
    t.shoe.status = 'in-play';
    played.push({ sessionId: t.sessionId, token: t.token, number: t.shoe.number });
  };
  const endShoe = async (t: Table): Promise<void> => {
    if (t.shoe.status === 'in-play') await api.call('POST', `/api/sessions/${t.sessionId}/shoe/end`, { token: t.token });
  };

  let table = await openTable();
  await startShoe(table);
  for (let i = 0; i < rounds; i++) {
    let bets = randomLegalBets(table.limits, table.balance, cryptoBelow);
    if (bets === null) {
      // Out of play money: reveal this table's shoe and open a new table.
      await endShoe(table);
      table = await openTable();
      await startShoe(table);
      bets = randomLegalBets(table.limits, table.balance, cryptoBelow)!;
    }
    const answer = await api.call<RoundAnswer>('POST', `/api/sessions/${table.sessionId}/rounds`, { token: table.token, body: { bets } satisfies PlayRoundRequest });
    staked += answer.receipt.body.staked;
    returned += answer.receipt.body.returned;
    table.balance = answer.balance;
    if (answer.nextShoe) {
      // The cut card came out: that shoe is revealed; the next one is committed and needs our seed and cut.
      table.shoe = answer.nextShoe;
      if (i + 1 < rounds) await startShoe(table);
    }
  }
  await endShoe(table);

  const transcripts: Transcript[] = [];
  for (const shoe of played) {
    transcripts.push(await api.call<Transcript>('GET', `/api/sessions/${shoe.sessionId}/shoes/${shoe.number}/transcript`, { token: shoe.token }));
  }
  return { transcripts, tables, staked, returned };
}
