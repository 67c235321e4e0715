import { describe, expect, test } from 'vitest';
import { CURRENCY_MINOR_UNITS, formatAmount, formatMoney, isCurrency, minorUnitDigits, parseAmount } from '../../shared/wallet/currency.ts';

describe('ISO 4217 minor units', () => {
  test('JPY 0, EUR 2, BHD 3, and their neighbours', () => {
    const digits = (c: string) => {
      const r = minorUnitDigits(c);
      return r.ok ? r.value : r.error.code;
    };
    expect([digits('JPY'), digits('EUR'), digits('BHD')]).toEqual([0, 2, 3]);
    expect(['KRW', 'CLP', 'ISK', 'VND', 'XOF'].map(digits)).toEqual([0, 0, 0, 0, 0]);
    expect(['KWD', 'OMR', 'TND', 'JOD', 'IQD', 'LYD'].map(digits)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(['USD', 'GBP', 'RUB', 'CHF', 'CNY'].map(digits)).toEqual([2, 2, 2, 2, 2]);
    expect(digits('CLF')).toBe(4);
    for (const bad of ['eur', 'XAU', 'XXX', 'HRK', 'EURO', '']) expect(digits(bad)).toBe('unknown_currency');
    expect(isCurrency('EUR') && !isCurrency('toString')).toBe(true);
  });

  test('every code is three capitals, with 0, 2, 3 or 4 digits', () => {
    const codes = Object.keys(CURRENCY_MINOR_UNITS);
    expect(codes.length).toBeGreaterThan(150);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(new Set(Object.values(CURRENCY_MINOR_UNITS))).toEqual(new Set([0, 2, 3, 4]));
  });
});

describe('amounts', () => {
  test.each([
    ['12.5', 'EUR', 1250],
    ['12.50', 'EUR', 1250],
    ['0.01', 'EUR', 1],
    ['1000', 'JPY', 1000],
    ['0.250', 'BHD', 250],
    ['7', 'BHD', 7000],
  ])('%s %s is %i minor units', (text, currency, minor) => {
    expect(parseAmount(text, currency)).toEqual({ ok: true, value: minor });
    expect(formatAmount(minor, currency)).toBe(currency === 'EUR' ? (minor / 100).toFixed(2) : currency === 'BHD' ? (minor / 1000).toFixed(3) : String(minor));
  });

  test.each([
    ['1.5', 'JPY', 'amount_too_precise'],
    ['0.001', 'EUR', 'amount_too_precise'],
    ['-1', 'EUR', 'bad_amount'],
    ['1e3', 'EUR', 'bad_amount'],
    ['1,50', 'EUR', 'bad_amount'],
    ['', 'EUR', 'bad_amount'],
    ['99999999999999999', 'EUR', 'amount_too_large'],
    ['1', 'ECU', 'unknown_currency'],
  ])('%s %s is refused: %s', (text, currency, code) => {
    const r = parseAmount(text, currency);
    expect(r.ok ? '' : r.error.code).toBe(code);
  });

  test('formatting: exact digits, signs, and the player language', () => {
    expect(formatAmount(-1, 'BHD')).toBe('-0.001');
    expect(formatAmount(5, 'EUR')).toBe('0.05');
    expect(formatMoney(12345678, 'EUR', 'it')).toBe('123.456,78\u00a0€');
    expect(formatMoney(100010, 'EUR', 'it')).toBe('1.000,10\u00a0€'); // four digits grouped too
    expect(formatMoney(1000, 'JPY', 'en')).toBe('¥1,000');
    expect(formatMoney(1250, 'BHD', 'en')).toMatch(/1\.250/);
    // Beyond a double's exact range as a decimal fraction, still exact.
    expect(formatMoney(9007199254740991, 'EUR', 'en')).toBe('€90,071,992,547,409.91');
  });
});
