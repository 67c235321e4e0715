/**
 * `punto-banco launch --endpoint URL --operator ID --secret S --player ID --currency ISO [--room R]
 * [--lang L] [--return-url U] [--limits JSON] [--json]`: what an operator's back end does to start
 * a player's wallet-mode session (WALLET.md "The launch"): signs the launch with the operator's
 * secret (`signLaunchRequest`), posts it to the Worker's `POST /api/operator/launch`, and prints the
 * single-use launch token (with `--json`, `{ "token", "url" }`: the token and the ready `/embed`
 * URL). Give the token to `<punto-banco-table launch-token=…>` or `punto-banco play --launch-token`.
 */
import { DEFAULT_ROOM, isRoomId, oneOf, ROOM_IDS } from '../../shared/index.ts';
import type { LaunchAnswer } from '../../shared/api.ts';
import { LANGUAGES, type Language } from '../../shared/languages.ts';
import { isCurrency } from '../../shared/wallet/currency.ts';
import { LAUNCH_PATH, type LaunchRequest, signLaunchRequest } from '../../shared/wallet/launch.ts';
import { limitsProblem, type PlayerLimits } from '../../shared/wallet/responsible.ts';
import { apiUrl } from '../../shared/wire/http-client.ts';
import { parseArgs, UsageError } from '../args.ts';

export const summary = 'sign an operator launch for a player and print the launch token (wallet mode)';

export const help = `usage: punto-banco launch --endpoint URL --operator ID --secret S --player ID --currency ISO
                           [--room ROOM] [--lang LANG] [--return-url URL] [--limits JSON] [--json]

Starts a wallet-mode session the way an operator's (a casino's) back end does: signs a launch for
the player with the operator's secret (HMAC-SHA256, WALLET.md "The launch") and posts it to the
Worker's POST /api/operator/launch. Prints the single-use, short-lived launch token; give it to
<punto-banco-table launch-token="…"> or to "punto-banco play --launch-token T".

options:
  --endpoint URL     the Worker's base URL (required), e.g. http://localhost:8787
  --operator ID      the operator's id (required; "npm start" has the development operator "demo")
  --secret S         the operator's secret that signs the launch (required; "demo": dev-demo-secret)
  --player ID        the operator's own id of the player (required), 1 to 128 of A-Z a-z 0-9 . _ : -
  --currency ISO     the player's ISO 4217 currency (required), e.g. EUR, JPY, BHD
  --room ROOM        ${oneOf(ROOM_IDS, false)} (default ${DEFAULT_ROOM})
  --lang LANG        ${oneOf(LANGUAGES, false)} (default en)
  --return-url URL   where the table sends the player back (https, or http on a loopback host;
                     default: the endpoint's origin)
  --limits JSON      the player's limits, in the currency's minor units and minutes, e.g.
                     '{"lossLimit":50000,"realityCheckMinutes":30}' (default {})
  --json             print { "token", "url" } instead of the token alone

Exit 0 with the token printed; 1 when the Worker refuses the launch (its code and message on
stderr) or cannot be reached; 2 on a usage error.`;

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args, {
    values: ['endpoint', 'operator', 'secret', 'player', 'currency', 'room', 'lang', 'return-url', 'limits'],
    flags: ['json'],
  });
  const v = parsed.values;
  for (const name of ['endpoint', 'operator', 'secret', 'player', 'currency'] as const) {
    if (v[name] === undefined) throw new UsageError(`--${name} is required (see --help)`);
  }
  const endpoint = v.endpoint!;
  if (!/^https?:\/\/[^/]/i.test(endpoint)) throw new UsageError(`--endpoint must be an http(s) URL, got "${endpoint}"`);
  const currency = v.currency!.toUpperCase();
  if (!isCurrency(currency)) throw new UsageError(`--currency must be an active ISO 4217 code, got "${v.currency}"`);
  const room = v.room ?? DEFAULT_ROOM;
  if (!isRoomId(room)) throw new UsageError(`--room must be ${oneOf(ROOM_IDS, false)}, got "${room}"`);
  const lang = v.lang ?? 'en';
  if (!(LANGUAGES as readonly string[]).includes(lang)) throw new UsageError(`--lang must be ${oneOf(LANGUAGES, false)}, got "${lang}"`);
  let limits: PlayerLimits = {};
  if (v.limits !== undefined) {
    try {
      limits = JSON.parse(v.limits) as PlayerLimits;
    } catch {
      throw new UsageError(`--limits must be a JSON object, got "${v.limits}"`);
    }
    const problem = limitsProblem(limits);
    if (problem) throw new UsageError(`--limits: ${problem}`);
  }
  const launch: LaunchRequest = {
    playerId: v.player!,
    currency,
    lang: lang as Language,
    room,
    limits,
    returnUrl: v['return-url'] ?? `${new URL(endpoint).origin}/`,
  };
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  let signed: Awaited<ReturnType<typeof signLaunchRequest>>;
  try {
    signed = await signLaunchRequest(v.operator!, v.secret!, launch, Date.now(), nonce);
  } catch (err) {
    throw new UsageError(`--operator: ${(err as Error).message}`);
  }
  const url = apiUrl(endpoint, LAUNCH_PATH);
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
  } catch (err) {
    console.error(`punto-banco launch: cannot reach ${endpoint}: ${(err as Error).message}`);
    return 1;
  }
  let answer: unknown = null;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  const launched = answer as Partial<LaunchAnswer> | null;
  if (!response.ok || typeof launched?.token !== 'string' || typeof launched.url !== 'string') {
    const error = (answer as { error?: { code?: string; message?: string } } | null)?.error;
    console.error(
      `punto-banco launch: the Worker refused the launch: HTTP ${response.status} ${error?.code ?? ''}${error?.message ? `: ${error.message}` : ''}`,
    );
    return 1;
  }
  console.log(parsed.flags.has('json') ? JSON.stringify({ token: launched.token, url: launched.url }) : launched.token);
  return 0;
}
