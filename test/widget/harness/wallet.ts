/**
 * The wallet-mode screenshot harness: a launched table (JPY) with the real scene against the fake
 * Worker in wallet mode, two rounds played and a payout pending. `?lang=` picks the language,
 * `?view=table` (default) or `reality` (the reality check up). Sets `data-ready` on <body> when done.
 */
import '../../../widget/index.ts';
import { WalletFake } from '../wallet-fake.ts';

const params = new URLSearchParams(location.search);
const lang = (params.get('lang') ?? 'ru') as 'en' | 'ru' | 'it' | 'el';
const view = params.get('view') ?? 'table';

async function until(check: () => unknown, what: string): Promise<void> {
  const end = performance.now() + 20_000;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function main(): Promise<void> {
  const worker = new WalletFake();
  const token = worker.launch('shot', { currency: 'JPY', lang, balance: 123_456, limits: { realityCheckMinutes: 60 } });
  const table = document.createElement('punto-banco-table');
  table.setAttribute('launch-token', token);
  table.setAttribute('lang', lang);
  table.setAttribute('resume', 'off');
  table.setAttribute('reduced-motion', '');
  table.fetcher = worker.fetch;
  table.autoRetries = 0;
  const ready = new Promise((resolve) => table.addEventListener('pb-ready', resolve, { once: true }));
  document.getElementById('root')!.append(table);
  await ready;
  for (let i = 0; i < 2; i++) {
    table.selectChip(1000);
    table.placeBet(i, 'player');
    table.selectChip(500);
    table.placeBet(i, 'banker');
    if (i === 1)
      worker.walletOf(table.sessionId!).pendingPayments = [
        { kind: 'credit', shoe: 1, round: 2, transaction: 'pbw1-0123456789abcdef0123456789abcdef', amount: 1_950 },
      ];
    await table.deal();
    await until(() => table.state === 'settled', `round ${i + 1}`);
  }
  await until(() => table.shadowRoot!.querySelector('[part="pending"]'), 'payout pending');
  if (view === 'reality') {
    worker.walletOf(table.sessionId!).realityCheck = { playedMs: 61 * 60_000, net: -1_550, wagered: 3_000 };
    table.repeat();
    await table.deal();
    await until(() => table.shadowRoot!.querySelector('[part="reality-check"]'), 'the reality check');
  }
  await new Promise((r) => setTimeout(r, 500));
  document.body.dataset.ready = '1';
}

main().catch((err: unknown) => {
  document.body.textContent = String((err as Error)?.stack ?? err);
  document.body.dataset.ready = 'failed';
});
