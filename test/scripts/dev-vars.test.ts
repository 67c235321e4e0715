import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseOperators } from '../../shared/wallet/operators.ts';
import { DEV_OPERATOR, DEV_VARS, devVarArgs } from '../../scripts/dev-vars.ts';

describe('deploys fail closed: development settings live outside wrangler.toml', () => {
  test("wrangler.toml's [vars] (what a plain `wrangler deploy` ships) set no DEV and no operator", () => {
    const toml = readFileSync(new URL('../../wrangler.toml', import.meta.url), 'utf8');
    const vars = /^\[vars\]\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1];
    expect(vars).toBeDefined();
    const names = vars!.split('\n').flatMap((line) => /^([A-Z_]+)\s*=/.exec(line)?.[1] ?? []);
    expect(names).toContain('EMBED_ORIGINS');
    for (const name of ['DEV', 'OPERATOR_SETTINGS', 'OPERATOR_SECRETS']) expect(names).not.toContain(name);
  });

  test('npm start passes DEV and the development operator "demo" (wallet 127.0.0.1:8788, dev-demo-secret both ways, EUR JPY BHD)', () => {
    expect(DEV_VARS.DEV).toBe('true');
    const parsed = parseOperators(DEV_VARS.OPERATOR_SETTINGS, DEV_VARS.OPERATOR_SECRETS);
    expect(parsed.ok).toBe(true);
    const demo = parsed.ok ? parsed.value.get('demo') : undefined;
    expect(demo).toMatchObject({ id: 'demo', walletUrl: 'http://127.0.0.1:8788', providerSecret: 'dev-demo-secret', operatorSecret: 'dev-demo-secret' });
    expect(Object.keys(demo!.currencies).sort()).toEqual(['BHD', 'EUR', 'JPY']);
    expect(Object.keys(demo!.currencies.EUR!).sort()).toEqual(['hall-1', 'hall-2', 'vip']);
    expect(DEV_OPERATOR.id).toBe('demo');
  });

  test('as wrangler --var arguments, a test override winning', () => {
    const args = devVarArgs({ DEV: 'false', SHARED_WINDOW_MS: '20000' });
    expect(args.filter((a) => a === '--var')).toHaveLength(4);
    expect(args).toContain('DEV:false');
    expect(args).not.toContain('DEV:true');
    expect(args).toContain('SHARED_WINDOW_MS:20000');
    expect(args).toContain(`OPERATOR_SETTINGS:${DEV_VARS.OPERATOR_SETTINGS}`);
  });
});
