/**
 * ISO 4217 currencies and their minor units, for wallet mode, where every amount is a whole number
 * of the currency's own minor unit (JPY 0 decimals: 1 yen; EUR 2: 1 cent; BHD 3: 1 fils). Play
 * money keeps its thousandth of a unit and its own display rule (shared/money.ts); nothing here
 * rounds, because an ISO minor unit is already the smallest amount a currency shows.
 *
 * The table holds every active code of ISO 4217 list one that has minor units (funds codes such as
 * BOV, CLF, USN included; precious metals, XDR, XTS, XXX, which have none, left out).
 */
import { type EngineError, fail, ok, type Result } from '../errors.ts';

/** Minor-unit digits by ISO 4217 alphabetic code. */
export const CURRENCY_MINOR_UNITS: Readonly<Record<string, 0 | 2 | 3 | 4>> = Object.freeze({
  ...digits(0, 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'),
  ...digits(3, 'BHD IQD JOD KWD LYD OMR TND'),
  ...digits(4, 'CLF UYW'),
  ...digits(
    2,
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
      'CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS ' +
      'GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL ' +
      'MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK ' +
      'PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS ' +
      'TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG',
  ),
});

function digits<D extends 0 | 2 | 3 | 4>(n: D, codes: string): Record<string, D> {
  return Object.fromEntries(codes.split(' ').map((code) => [code, n]));
}

export type CurrencyErrorCode = 'unknown_currency' | 'bad_amount' | 'amount_too_precise' | 'amount_too_large';

/** True for an active ISO 4217 code with minor units (upper case, as ISO writes it). */
export function isCurrency(code: unknown): code is string {
  return typeof code === 'string' && Object.hasOwn(CURRENCY_MINOR_UNITS, code);
}

/** The number of decimal digits of a currency's minor unit (JPY 0, EUR 2, BHD 3), or an error. */
export function minorUnitDigits(currency: string): Result<number, EngineError<CurrencyErrorCode>> {
  if (!isCurrency(currency)) return fail('unknown_currency', `"${currency}" is not an active ISO 4217 currency code with minor units`);
  return ok(CURRENCY_MINOR_UNITS[currency]!);
}

/**
 * A decimal amount as written by a person or an operator's back office ("12.5", "0.250", "1000")
 * in the currency's minor units: EUR "12.5" → 1250, JPY "1000" → 1000, BHD "0.250" → 250. More
 * decimals than the currency has is an error, never rounded; so are signs, exponents and amounts
 * beyond Number.MAX_SAFE_INTEGER minor units.
 */
export function parseAmount(text: string, currency: string): Result<number, EngineError<CurrencyErrorCode>> {
  const d = minorUnitDigits(currency);
  if (!d.ok) return d;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return fail('bad_amount', `"${text}" is not a plain decimal amount (digits, at most one ".")`);
  const whole = m[1]!;
  const fraction = m[2] ?? '';
  if (fraction.length > d.value) {
    return fail('amount_too_precise', `${currency} has ${d.value} decimal${d.value === 1 ? '' : 's'}; "${text}" has ${fraction.length}`);
  }
  const minor = Number(whole + fraction.padEnd(d.value, '0'));
  if (!Number.isSafeInteger(minor)) return fail('amount_too_large', `"${text}" ${currency} is too large to hold exactly`);
  return ok(minor);
}

/** Minor units as a plain decimal in the currency's own digits: 1250 EUR → "12.50", 5 JPY → "5", −1 BHD → "-0.001". */
export function formatAmount(minor: number, currency: string): string {
  const d = minorUnitDigits(currency);
  if (!d.ok) throw new RangeError(d.error.message);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a whole number of minor units`);
  const sign = minor < 0 ? '-' : '';
  const digitsText = String(Math.abs(minor)).padStart(d.value + 1, '0');
  if (d.value === 0) return sign + digitsText;
  return `${sign}${digitsText.slice(0, -d.value)}.${digitsText.slice(-d.value)}`;
}

/**
 * Minor units as a player reads them in their language, through `Intl.NumberFormat` with exactly
 * the currency's digits and thousands always grouped (Italian's own rule leaves four-digit amounts
 * ungrouped; money reads better grouped): 12345678 EUR in "it" → "123.456,78 €", 100010 EUR in
 * "it" → "1.000,10 €", 1000 JPY in "en" → "¥1,000".
 */
export function formatMoney(minor: number, currency: string, lang: string): string {
  const d = minorUnitDigits(currency);
  if (!d.ok) throw new RangeError(d.error.message);
  const text = formatAmount(minor, currency);
  const format = new Intl.NumberFormat(lang, {
    style: 'currency',
    currency,
    minimumFractionDigits: d.value,
    maximumFractionDigits: d.value,
    // NumberFormat v3 (ES2023): every engine we run on has it; the TypeScript lib in use types only booleans.
    useGrouping: 'always' as unknown as boolean,
  });
  // The decimal string, not a float product: Intl reads it exactly (no 0.1 + 0.2 surprises).
  return format.format(text as unknown as number);
}
