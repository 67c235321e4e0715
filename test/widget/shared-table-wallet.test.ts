/**
 * A launched (wallet-mode) session at a shared table (API.md "Shared tables in wallet mode"): every
 * amount — the balance, the table's totals, the status line, the scene's limits and chips — is in
 * the launched session's currency and its ISO 4217 minor units, as at the private table; a seat the
 * wallet's limits refuse (409 `shared_table_currency`) is said in the player's language and the
 * table stops asking for tickets. Against the fake Worker in wallet mode (wallet-fake.ts) and a fake
 * shared table (fake-shared-table.ts).
 */
import { expect } from 'chai';
import { en } from '../../widget/i18n/en.ts';
import { it as itCatalog } from '../../widget/i18n/it.ts';
import { ROOMS } from '../../shared/table.ts';
import { FakeSharedTable } from './fake-shared-table.ts';
import { mountTable, shadow, toastText, unmountAll, until } from './helpers.ts';
import { WalletFake } from './wallet-fake.ts';

/** Intl's spaces (no-break, narrow no-break) as plain ones, so expectations read as written. */
const plain = (text: string | null | undefined): string => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

const q = (el: Element, selector: string) => shadow(el).querySelector<HTMLElement>(selector);

/** A table launched in `currency` and `lang`, at the shared table hall-1/a. */
async function launchedAtSharedTable(over: Parameters<WalletFake['launch']>[1], worker = new WalletFake()) {
  const table = new FakeSharedTable(worker);
  const token = worker.launch(`tok-${Math.random().toString(36).slice(2)}`, over);
  const mounted = await mountTable({
    worker,
    attrs: { 'launch-token': token, table: 'hall-1/a', lang: over?.lang ?? 'en' },
    setup: (el) => (el.socketFactory = table.socketFactory),
  });
  return { ...mounted, table };
}

describe('<punto-banco-table table="…" launch-token="…"> (a wallet seat at a shared table)', () => {
  afterEach(unmountAll);

  const AMOUNTS = [
    { currency: 'EUR', lang: 'en', balance: 100_010, shown: '€1,000.10', other: 500, total: '€5.00', limits: '€1.00 – €100.00', chip: 100, chipFace: '1' },
    { currency: 'JPY', lang: 'en', balance: 100_000, shown: '¥100,000', other: 5000, total: '¥5,000', limits: '¥100 – ¥10,000', chip: 1000, chipFace: '1K' },
    { currency: 'EUR', lang: 'it', balance: 100_010, shown: '1.000,10 €', other: 500, total: '5,00 €', limits: '1,00 € – 100,00 €', chip: 100, chipFace: '1' },
  ] as const;
  for (const a of AMOUNTS) {
    it(`${a.currency} in ${a.lang}: the balance, the table's totals and the scene's limits and chips in the currency's own minor units`, async () => {
      const { el, table, scene } = await launchedAtSharedTable({ currency: a.currency, lang: a.lang, balance: a.balance });
      await until(() => q(el, '.shared-clock.open'), 'the betting window to show');
      expect(el.wallet?.currency).to.equal(a.currency);
      await until(() => plain(q(el, '[part="balance"] output')?.textContent) === a.shown, `the balance as ${a.shown}`);
      table.otherBet('someone-else', [{ sector: 2, box: 'tie', amount: a.other }]);
      await until(() => q(el, '.box-total[data-sector="2"][data-box="tie"]'), "the other player's total on the tie box");
      expect(plain(q(el, '.box-total[data-sector="2"][data-box="tie"]')!.textContent)).to.contain(a.total);
      expect(plain(q(el, '.shared-total')!.textContent)).to.contain(a.total);
      // The canvas: the limits plaque, the amounts it draws and the chips' faces.
      expect(plain(scene!.options.limitsText)).to.equal(a.limits);
      expect(plain(scene!.options.formatAmount?.(a.other))).to.equal(a.total);
      expect(scene!.options.chipLabel?.(a.chip)).to.equal(a.chipFace);
      // The chips drawn are the table's (its limits are the seat's stakes), not the private room's in that currency.
      expect(scene!.called('setBets').at(-1)![1]).to.deep.equal(ROOMS['hall-1'].limits.chips);
    });
  }

  it("JPY: the player's own result on the status line, and the balance after it, in yen", async () => {
    const { el, table } = await launchedAtSharedTable({ currency: 'JPY', lang: 'en', balance: 100_000 });
    await until(() => q(el, '.shared-clock.open'), 'the betting window to show');
    el.selectChip(1000);
    el.placeBet(0, 'player');
    await el.deal();
    await until(() => table.sent('bet').length === 1 && plain(q(el, '[part="status"]')?.textContent).includes('is in'), 'the accepted bet');
    table.closeWindow();
    // Player 9 (natural) against Banker 7: the bet wins 1:1 (a tie would have returned it; these cards leave none).
    table.deal(['9S', '7H', 'KD', 'KC']);
    await until(() => el.state === 'settled', 'the settled round');
    expect(plain(q(el, '[part="status"]')!.textContent)).to.contain('You win ¥1,000');
    expect(plain(q(el, '[part="balance"] output')!.textContent)).to.equal('¥101,000');
  });

  it("a wallet seat's bet refused with a wallet code reads in the wallet's words (a play seat's in its own)", async () => {
    const { el, table } = await launchedAtSharedTable({ currency: 'EUR', lang: 'en' });
    await until(() => q(el, '.shared-clock.open'), 'the betting window to show');
    table.sockets[0]!.deliver('bet-refused', { code: 'insufficient_funds', message: 'the wallet refused the debit', shoe: 1, round: 1 });
    await until(() => toastText(el) !== '', 'the refusal');
    expect(toastText(el)).to.equal(en.wallet.errors.insufficient_funds);
  });

  for (const lang of ['en', 'it'] as const) {
    it(`a seat refused with 409 shared_table_currency is said in ${lang} and no further ticket is asked for`, async () => {
      const worker = new WalletFake();
      const tickets: string[] = [];
      const fetch = worker.fetch;
      worker.fetch = async (input, init) => {
        const url = String(input);
        if (url.includes('/api/tables/') && url.endsWith('/ticket')) {
          tickets.push(url);
          return new Response(
            JSON.stringify({ error: { code: 'shared_table_currency', message: "the table's stakes do not fit the session's limits in JPY" } }),
            { status: 409, headers: { 'content-type': 'application/json' } },
          );
        }
        return fetch(input, init);
      };
      const { el, table, events } = await launchedAtSharedTable({ currency: 'JPY', lang }, worker);
      const text = (lang === 'en' ? en : itCatalog).wallet.errors.shared_table_currency;
      await until(() => plain(q(el, '[part="notice"]')?.textContent).includes(plain(text)), 'the refusal in the player’s words');
      expect(tickets).to.have.length(1);
      expect(table.opened, 'no socket without a ticket').to.have.length(0);
      // The page hears it too.
      const told = events.find((e) => e.type === 'pb-error');
      expect(told?.detail).to.deep.equal({ code: 'shared_table_currency', message: text });
      // The backoff (first wait 0.5 s, doubling) would have asked again twice by now: it does not.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(tickets).to.have.length(1);
      expect(el.state).to.equal('error');
    });
  }
});
