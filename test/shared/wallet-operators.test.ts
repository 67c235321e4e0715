import { describe, expect, it } from 'vitest';
import { defaultCurrencyLimits, parseOperators } from '../../shared/wallet/operators.ts';

const secrets = JSON.stringify({ demo: { provider: 'dev-demo-secret', operator: 'dev-demo-secret' } });

describe('operators in wallet mode', () => {
  it('reads an operator with default and explicit rooms per currency', () => {
    const settings = JSON.stringify([
      {
        id: 'demo',
        walletUrl: 'http://127.0.0.1:8788/',
        currencies: { EUR: 'default', JPY: { 'hall-1': { min: 10, max: 1000, step: 10, chips: [10, 50, 100, 500, 1000] } } },
      },
    ]);
    const parsed = parseOperators(settings, secrets);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const demo = parsed.value.get('demo')!;
    expect(demo.walletUrl).toBe('http://127.0.0.1:8788');
    expect(demo.timeoutMs).toBe(3000);
    expect(demo.currencies.EUR!['hall-1']).toEqual({ min: 10, max: 1000, step: 10, chips: [10, 50, 100, 200, 500, 1000] });
    expect(Object.keys(demo.currencies.JPY!)).toEqual(['hall-1']);
    expect(demo.providerSecret).toBe('dev-demo-secret');
  });

  it('converts play-money limits to each currency: EUR cents, JPY yen, BHD fils', () => {
    expect(defaultCurrencyLimits('vip', 'EUR')).toEqual({
      ok: true,
      value: { min: 2500, max: 100000, step: 10, chips: [2500, 5000, 10000, 25000, 50000, 100000] },
    });
    expect(defaultCurrencyLimits('hall-1', 'JPY')).toEqual({ ok: true, value: { min: 10, max: 1000, step: 10, chips: [10, 50, 100, 200, 500, 1000] } });
    expect(defaultCurrencyLimits('hall-1', 'BHD')).toEqual({
      ok: true,
      value: { min: 100, max: 10000, step: 100, chips: [100, 500, 1000, 2000, 5000, 10000] },
    });
    expect(defaultCurrencyLimits('hall-1', 'XXX').ok).toBe(false);
  });

  it('refuses what a deploy must not run with, naming the setting', () => {
    const one = (o: object, s = secrets) => parseOperators(JSON.stringify([o]), s);
    const base = { id: 'demo', walletUrl: 'https://casino.example/w', currencies: { EUR: 'default' } };
    expect(parseOperators(undefined, undefined)).toEqual({ ok: true, value: new Map() });
    expect(parseOperators('{', secrets)).toMatchObject({ ok: false, error: { code: 'bad_operator_settings' } });
    expect(one({ ...base, walletUrl: 'http://casino.example/w' })).toMatchObject({ ok: false, error: { code: 'bad_operator_settings' } });
    expect(one({ ...base, currencies: { EUR: 'default', ZZZ: 'default' } })).toMatchObject({ ok: false, error: { code: 'bad_operator_settings' } });
    expect(one({ ...base, currencies: { EUR: { 'hall-1': { min: 10, max: 5, step: 5, chips: [5] } } } })).toMatchObject({ ok: false });
    expect(one({ ...base, timeoutMs: 50 })).toMatchObject({ ok: false, error: { code: 'bad_operator_settings' } });
    expect(one(base, '{}')).toMatchObject({ ok: false, error: { code: 'bad_operator_secrets' } });
    expect(one(base, JSON.stringify({ demo: { provider: 'short', operator: 'dev-demo-secret' } }))).toMatchObject({
      ok: false,
      error: { code: 'bad_operator_secrets' },
    });
    expect(parseOperators(JSON.stringify([base, base]), secrets)).toMatchObject({ ok: false, error: { message: expect.stringContaining('twice') } });
  });
});
