/**
 * Operators in wallet mode (WALLET.md "Configuring an operator"): who they are, where their wallet
 * answers, the two secrets, the currencies they play in and each room's limits and chips in that
 * currency's minor units. Pure: the Worker reads the two settings (`OPERATOR_SETTINGS`, a var, and
 * `OPERATOR_SECRETS`, a secret) and passes their text here.
 *
 * OPERATOR_SETTINGS = [{ "id": "demo", "walletUrl": "https://casino.example/pb-wallet",
 *   "timeoutMs": 3000, "currencies": { "EUR": "default", "JPY": { "hall-1": { "min": 100, … } } } }]
 * OPERATOR_SECRETS  = { "demo": { "provider": "…", "operator": "…" } }
 *
 * A currency given as "default" plays every room at the play-money limits read in the currency's
 * major unit (Hall 1: 0.10–10 EUR, 10–1,000 JPY…: see `defaultCurrencyLimits`); an object lists the
 * rooms the operator opens in that currency, each with its own limits (a room left out is closed).
 */
import { type EngineError, fail, ok, type Result } from '../errors.ts';
import { isRoomId, MINOR_UNITS, ROOMS, type RoomId, type TableLimits, validateLimits } from '../table.ts';
import { formatAmount, isCurrency, minorUnitDigits } from './currency.ts';
import { ID_PATTERN } from './transaction.ts';

export interface OperatorConfig {
  id: string;
  /** Calls go to `<walletUrl>/<call>` (https, or http on a loopback host). */
  walletUrl: string;
  /** How long a wallet call may take before its outcome is unknown (default 3000, 100–30000). */
  timeoutMs: number;
  /** Currency → room → limits and chips, in that currency's minor units. */
  currencies: Readonly<Record<string, Partial<Readonly<Record<RoomId, TableLimits>>>>>;
  /** Provider → operator: signs the wallet calls. */
  providerSecret: string;
  /** Operator → provider: signs launches and operator calls, and the wallet's answers. */
  operatorSecret: string;
}

export type OperatorConfigErrorCode = 'bad_operator_settings' | 'bad_operator_secrets';

export const DEFAULT_WALLET_TIMEOUT_MS = 3_000;

/**
 * A room's play-money limits in `currency`: play money counts 1,000 to the unit, the currency
 * 10^digits, so JPY (0 digits) plays Hall 1 at 10–1,000 yen… rounded to whole yen, EUR at 0.10–10.
 * Wallet mode rounds the Banker's commission down (settle.ts `round-down`), so any step of at least
 * one minor unit works: the step is the play step converted.
 */
export function defaultCurrencyLimits(room: RoomId, currency: string): Result<TableLimits, EngineError<'unknown_currency'>> {
  const digits = minorUnitDigits(currency);
  if (!digits.ok) return fail('unknown_currency', digits.error.message);
  // JPY: 1 play unit (1,000) → 100 yen, so Hall 1's 0.10 reads 10 yen; others: the same number of major units.
  const scale = digits.value === 0 ? 100 : 10 ** digits.value;
  const convert = (play: number) => Math.round((play * scale) / MINOR_UNITS);
  const limits = ROOMS[room].limits;
  const step = Math.max(1, convert(limits.step));
  const align = (n: number) => Math.max(step, n - (n % step));
  return ok({ min: align(convert(limits.min)), max: align(convert(limits.max)), step, chips: limits.chips.map((c) => align(convert(c))) });
}

/**
 * Whether a wallet-mode session may sit at a shared table (WALLET.md "Shared tables"): the table's
 * amounts are its room's limits, and a wallet seat's stakes are those amounts in its currency's
 * minor units. The seat fits when every stake the table takes is one the session's own room
 * limits in that currency take: minimum and maximum within them, the step a multiple of theirs.
 * Null when it fits, else why not (the seat is refused with `shared_table_currency`).
 */
export function sharedSeatError(table: TableLimits, wallet: TableLimits, currency: string): string | null {
  if (table.min >= wallet.min && table.max <= wallet.max && table.step % wallet.step === 0) return null;
  const f = (n: number) => formatAmount(n, currency);
  return (
    `this table's stakes, ${f(table.min)}–${f(table.max)} ${currency} in steps of ${f(table.step)}, ` +
    `are not all within your limits in ${currency}, ${f(wallet.min)}–${f(wallet.max)} in steps of ${f(wallet.step)}: play at your own table`
  );
}

function loopbackOrHttps(url: string): boolean {
  try {
    const u = new URL(url);
    const loopback = u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]';
    return u.protocol === 'https:' || (u.protocol === 'http:' && loopback);
  } catch {
    return false;
  }
}

/** Both settings parsed and checked together; an operator without secrets is an error, never a silent skip. */
export function parseOperators(
  settingsText: string | undefined,
  secretsText: string | undefined,
): Result<Map<string, OperatorConfig>, EngineError<OperatorConfigErrorCode>> {
  const operators = new Map<string, OperatorConfig>();
  if (settingsText === undefined || settingsText.trim() === '') return ok(operators);
  const bad = (message: string) => fail('bad_operator_settings', `OPERATOR_SETTINGS: ${message}`);
  let settings: unknown;
  let secrets: unknown;
  try {
    settings = JSON.parse(settingsText);
  } catch {
    return bad('not JSON');
  }
  try {
    secrets = JSON.parse(secretsText ?? '{}');
  } catch {
    return fail('bad_operator_secrets', 'OPERATOR_SECRETS: not JSON');
  }
  if (!Array.isArray(settings)) return bad('a JSON array of operators');
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets))
    return fail('bad_operator_secrets', 'OPERATOR_SECRETS: a JSON object, operator id → { provider, operator }');
  for (const entry of settings as unknown[]) {
    if (typeof entry !== 'object' || entry === null) return bad('every operator is an object');
    const o = entry as Record<string, unknown>;
    if (typeof o.id !== 'string' || !ID_PATTERN.test(o.id)) return bad('"id" must be 1 to 128 of A-Z a-z 0-9 . _ : -');
    if (operators.has(o.id)) return bad(`operator "${o.id}" is listed twice`);
    if (typeof o.walletUrl !== 'string' || !loopbackOrHttps(o.walletUrl))
      return bad(`operator "${o.id}": "walletUrl" must be an https URL (http only on a loopback host)`);
    const timeoutMs = o.timeoutMs ?? DEFAULT_WALLET_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 30_000)
      return bad(`operator "${o.id}": "timeoutMs" must be a whole number from 100 to 30000`);
    if (typeof o.currencies !== 'object' || o.currencies === null || Array.isArray(o.currencies))
      return bad(`operator "${o.id}": "currencies" must be an object, currency → "default" or rooms`);
    const currencies: Record<string, Partial<Record<RoomId, TableLimits>>> = {};
    for (const [currency, rooms] of Object.entries(o.currencies as Record<string, unknown>)) {
      if (!isCurrency(currency)) return bad(`operator "${o.id}": "${currency}" is not an ISO 4217 currency`);
      const table: Partial<Record<RoomId, TableLimits>> = {};
      if (rooms === 'default') {
        for (const room of Object.keys(ROOMS) as RoomId[]) table[room] = (defaultCurrencyLimits(room, currency) as { ok: true; value: TableLimits }).value;
      } else if (typeof rooms === 'object' && rooms !== null && !Array.isArray(rooms)) {
        for (const [room, limits] of Object.entries(rooms as Record<string, unknown>)) {
          if (!isRoomId(room)) return bad(`operator "${o.id}", ${currency}: "${room}" is not a room`);
          const checked = validateLimits(limits as TableLimits, 'round-down');
          if (!checked.ok) return bad(`operator "${o.id}", ${currency} ${room}: ${checked.error.message}`);
          table[room] = checked.value;
        }
      } else return bad(`operator "${o.id}", ${currency}: "default" or an object of rooms`);
      currencies[currency] = table;
    }
    const pair = (secrets as Record<string, unknown>)[o.id] as Record<string, unknown> | undefined;
    const strong = (s: unknown): s is string => typeof s === 'string' && s.length >= 12;
    if (!pair || !strong(pair.provider) || !strong(pair.operator))
      return fail('bad_operator_secrets', `OPERATOR_SECRETS: operator "${o.id}" needs { "provider": …, "operator": … }, each at least 12 characters`);
    operators.set(o.id, {
      id: o.id,
      walletUrl: o.walletUrl.replace(/\/+$/, ''),
      timeoutMs,
      currencies,
      providerSecret: pair.provider,
      operatorSecret: pair.operator,
    });
  }
  return ok(operators);
}
