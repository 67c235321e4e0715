/**
 * Wallet mode in the element (a session a casino launched): the launch token redeemed instead of a
 * play session, money in the session's currency (EUR, JPY, BHD in en and it), every wallet and
 * limit code in all four languages, the reality check blocking bets until Continue, Stop ending the
 * session, "payout pending", the launch refusals, and the session store keeping launched and play
 * sessions apart. Against the fake Worker in wallet mode (wallet-fake.ts).
 */
import { expect } from 'chai';
import { en } from '../../widget/i18n/en.ts';
import { ru } from '../../widget/i18n/ru.ts';
import { it as itCatalog } from '../../widget/i18n/it.ts';
import { el as elCatalog } from '../../widget/i18n/el.ts';
import { SESSION_END_CODES, WALLET_PLAYER_CODES } from '../../widget/element/wallet-view.ts';
import type { PuntoBancoTable } from '../../widget/element/punto-banco-table.ts';
import { chipButton, mountTable, shadow, unmountAll, until } from './helpers.ts';
import { WalletFake } from './wallet-fake.ts';

const CATALOGS = { en, ru, it: itCatalog, el: elCatalog } as const;

/** Intl's spaces (no-break, narrow no-break) as plain ones, so expectations read as written. */
const plain = (text: string | null | undefined): string => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

function meterText(table: Element, part: string): string {
  return plain(shadow(table).querySelector(`[part="${part}"] output`)?.textContent);
}

function notice(table: Element): string {
  return plain(shadow(table).querySelector('[part="notice"]')?.firstElementChild?.textContent);
}

/** Mounts a table launched with a fresh token of `over` (currency, language, balance…). */
async function launched(worker: WalletFake, over: Parameters<WalletFake['launch']>[1] = {}, attrs: Record<string, string> = {}) {
  const token = worker.launch(`tok-${Math.random().toString(36).slice(2)}`, over);
  const mounted = await mountTable({ worker, attrs: { 'launch-token': token, lang: over.lang ?? 'en', ...attrs } });
  const events: CustomEvent[] = [];
  for (const name of ['pb-reality-check', 'pb-session-ended']) mounted.el.addEventListener(name, (e) => events.push(e as CustomEvent));
  return { ...mounted, token, walletEvents: events };
}

/** One round with a chip of `chip` minor units on Player in sector 1. */
async function playOne(table: PuntoBancoTable, chip: number): Promise<void> {
  table.selectChip(chip);
  table.placeBet(0, 'player');
  await table.deal();
  await until(() => table.state === 'settled' || table.state === 'error', 'the round');
}

describe('<punto-banco-table> wallet mode', () => {
  afterEach(unmountAll);

  it('redeems the launch token (launchSession with the player key and operator), never creating a play session', async () => {
    const worker = new WalletFake();
    const { el, token, events } = await launched(worker, { room: 'vip' }, { operator: 'demo', room: 'hall-1' });
    const created = worker.requests('sessions');
    expect(created).to.have.length(1);
    const body = created[0]!.body as Record<string, unknown>;
    expect(body.launchToken).to.equal(token);
    expect(body.operator).to.equal('demo');
    expect(body.playerKey).to.be.a('string').with.length(43);
    expect(body).to.not.have.property('room');
    expect(el.wallet?.currency).to.equal('EUR');
    // The room is the launch's, whatever the page's `room` says; its limits are the currency's.
    expect(events.find((e) => e.type === 'pb-ready')?.detail.room).to.equal('vip');
    expect(el.limits?.min).to.equal(2_500);
    // The mode switch would open a session the launch does not cover: it is not offered.
    expect(shadow(el).querySelector('[data-tool="mode"]')).to.equal(null);
  });

  const AMOUNTS: { currency: string; balance: number; lang: 'en' | 'it'; shown: string; chip: number; chipFace: string; bet: string }[] = [
    { currency: 'EUR', balance: 100_010, lang: 'it', shown: '1.000,10 €', chip: 100, chipFace: '1', bet: '1,00 €' },
    { currency: 'EUR', balance: 100_010, lang: 'en', shown: '€1,000.10', chip: 100, chipFace: '1', bet: '€1.00' },
    { currency: 'JPY', balance: 100_000, lang: 'en', shown: '¥100,000', chip: 1000, chipFace: '1K', bet: '¥1,000' },
    { currency: 'JPY', balance: 100_000, lang: 'it', shown: '100.000 JPY', chip: 1000, chipFace: '1K', bet: '1.000 JPY' },
    { currency: 'BHD', balance: 12_345, lang: 'en', shown: 'BHD 12.345', chip: 100, chipFace: '0.1', bet: 'BHD 0.100' },
    { currency: 'BHD', balance: 12_345, lang: 'it', shown: '12,345 BHD', chip: 100, chipFace: '0,1', bet: '0,100 BHD' },
  ];
  for (const a of AMOUNTS) {
    it(`${a.currency} in ${a.lang}: the balance, chips, limits and bets in the currency's own minor units`, async () => {
      const worker = new WalletFake();
      const { el } = await launched(worker, { currency: a.currency, lang: a.lang, balance: a.balance });
      expect(meterText(el, 'balance')).to.equal(a.shown);
      expect(plain(chipButton(el, a.chip).textContent)).to.contain(a.chipFace);
      el.selectChip(a.chip);
      el.placeBet(0, 'player');
      await el.updateComplete;
      expect(meterText(el, 'bet-total')).to.equal(a.bet);
      await el.deal();
      await until(() => el.state === 'settled', 'the round');
      const receipt = worker
        .transcript(el.sessionId!)!
        .records.filter((r) => r.body.type === 'receipt')
        .at(-1)!.body as { balanceAfter: number };
      // Whatever the round did (a win, a loss, a tie returning the stake), the meter shows the receipt's balance in the currency.
      const expected = new Intl.NumberFormat(a.lang, { style: 'currency', currency: a.currency, useGrouping: 'always' as unknown as boolean }).format(
        receipt.balanceAfter / 10 ** (a.currency === 'JPY' ? 0 : a.currency === 'EUR' ? 2 : 3),
      );
      await until(() => meterText(el, 'balance') === plain(expected), `the balance ${expected}`);
    });
  }

  it('shows every wallet and limit code of the contract in each of the four languages', async () => {
    for (const lang of ['en', 'ru', 'it', 'el'] as const) {
      const worker = new WalletFake();
      const { el } = await launched(worker, { lang });
      const seen = new Set<string>();
      for (const code of WALLET_PLAYER_CODES.filter((c) => !c.startsWith('launch_'))) {
        worker.faults.push({ route: 'rounds', times: 1, kind: code === 'wallet_unavailable' ? 503 : 409, code });
        if (el.bets.length === 0) el.placeBet(0, 'player');
        await el.deal();
        await until(() => el.state === 'error', `${code} refused`);
        const expected = plain(CATALOGS[lang].wallet.errors[code]);
        expect(notice(el), `${lang} ${code}`).to.equal(expected);
        seen.add(expected);
      }
      expect(seen.size, `${lang}: one text per code`).to.equal(WALLET_PLAYER_CODES.length - 4);
      unmountAll();
    }
    for (const lang of ['ru', 'it', 'el'] as const) {
      for (const code of WALLET_PLAYER_CODES) expect(CATALOGS[lang].wallet.errors[code], `${lang} ${code}`).to.not.equal(en.wallet.errors[code]);
      for (const code of SESSION_END_CODES) expect(CATALOGS[lang].wallet.ended[code], `${lang} ${code}`).to.not.equal(en.wallet.ended[code]);
    }
  });

  for (const lang of ['en', 'ru', 'it', 'el'] as const) {
    it(`says each refused launch token in ${lang}, without Retry, with the casino's link back when known`, async () => {
      const worker = new WalletFake();
      const cases = [
        { code: 'launch_token_unknown', token: 'nope', attrs: {} },
        { code: 'launch_token_used', token: worker.launch('used', { state: 'used' }), attrs: {} },
        { code: 'launch_token_expired', token: worker.launch('old', { state: 'expired' }), attrs: {} },
        { code: 'launch_wrong_operator', token: worker.launch('other'), attrs: { operator: 'acme' } },
      ] as const;
      for (const c of cases) {
        const { el, events } = await mountTable({ worker, ready: false, attrs: { 'launch-token': c.token, lang, ...c.attrs } });
        await until(() => el.state === 'error' && notice(el) !== '', `${c.code} refused`);
        expect(notice(el), c.code).to.equal(plain(CATALOGS[lang].wallet.errors[c.code]));
        expect(events.find((e) => e.type === 'pb-error')?.detail.code).to.equal(c.code);
        expect(shadow(el).querySelector('[part~="retry"]'), `${c.code}: no Retry`).to.equal(null);
        const back = shadow(el).querySelector<HTMLAnchorElement>('[part~="back-to-casino"]');
        if (c.code === 'launch_token_used' || c.code === 'launch_token_expired') {
          expect(back?.href).to.equal('https://casino.example/lobby');
          expect(plain(back?.textContent)).to.equal(CATALOGS[lang].wallet.ended.back);
        } else expect(back).to.equal(null);
        unmountAll();
      }
      // No play session was ever opened for a launch.
      expect(worker.requests('sessions').every((r) => 'launchToken' in (r.body as object))).to.equal(true);
    });
  }

  it('the reality check blocks bets until Continue; Stop ends the session with the link back', async () => {
    const worker = new WalletFake();
    const { el, walletEvents } = await launched(worker, { lang: 'en', limits: { realityCheckMinutes: 60 } });
    const wallet = worker.walletOf(el.sessionId!);
    wallet.realityCheck = { playedMs: 62 * 60_000, net: -250, wagered: 4_000 };
    el.placeBet(0, 'player');
    await el.deal();
    // The server refuses the bet; the table asks for the session and shows the check.
    await until(() => shadow(el).querySelector('[part="reality-check"]'), 'the reality check');
    const dialog = shadow(el).querySelector('[part="reality-check"]')!;
    expect(dialog.getAttribute('role')).to.equal('alertdialog');
    expect(plain(dialog.querySelector('[data-reality="played"]')?.textContent)).to.equal('62 min');
    expect(plain(dialog.querySelector('[data-reality="net"]')?.textContent)).to.equal('−€2.50');
    expect(plain(dialog.querySelector('[data-reality="wagered"]')?.textContent)).to.equal('€40.00');
    // The dialog takes the focus (its Continue button), and the status line says why betting waits.
    await until(() => shadow(el).activeElement?.classList.contains('reality-continue'), 'the focus on Continue');
    expect(plain(shadow(el).querySelector('[part="status"]')?.textContent)).to.equal(en.wallet.realityCheck.blocked);
    const check = walletEvents.find((e) => e.type === 'pb-reality-check');
    expect(check?.detail).to.deep.equal({ playedMs: 62 * 60_000, net: -250, wagered: 4_000, currency: 'EUR' });
    // Betting waits: nothing reaches the Worker.
    const before = worker.requests('rounds').length;
    expect(el.placeBet(1, 'banker')).to.equal(false);
    await el.deal();
    expect(worker.requests('rounds').length).to.equal(before);
    dialog.querySelector<HTMLButtonElement>('.reality-continue')!.click();
    await until(() => !shadow(el).querySelector('[part="reality-check"]'), 'the check answered');
    expect((worker.requests('reality-check')[0]!.body as { choice: string }).choice).to.equal('continue');
    await el.deal();
    await until(() => el.state === 'settled', 'a round after Continue');
    expect(worker.requests('rounds').length).to.equal(before + 1);
    // The next check: Stop ends the session.
    wallet.realityCheck = { playedMs: 122 * 60_000, net: 0, wagered: 4_100 };
    el.repeat();
    await el.deal();
    await until(() => shadow(el).querySelector('[part="reality-check"]'), 'the second check');
    shadow(el).querySelector<HTMLButtonElement>('.reality-stop')!.click();
    await until(() => shadow(el).querySelector('[part="session-ended"]'), 'the session ended');
    const ended = shadow(el).querySelector('[part="session-ended"]')!;
    expect(plain(ended.querySelector('#pb-ended-body')?.textContent)).to.equal(en.wallet.ended.player_stopped);
    expect(ended.querySelector<HTMLAnchorElement>('[part~="back-to-casino"]')?.href).to.equal('https://casino.example/lobby');
    expect(walletEvents.find((e) => e.type === 'pb-session-ended')?.detail).to.deep.equal({
      code: 'player_stopped',
      returnUrl: 'https://casino.example/lobby',
    });
    expect(el.placeBet(2, 'tie')).to.equal(false);
  });

  for (const code of SESSION_END_CODES) {
    it(`the session's end (${code}) says why in ru and el`, async () => {
      for (const lang of ['ru', 'el'] as const) {
        const worker = new WalletFake();
        const { el, walletEvents } = await launched(worker, { lang });
        worker.walletOf(el.sessionId!).ended = { code, at: new Date(worker.now).toISOString() };
        el.placeBet(0, 'player');
        await el.deal();
        await until(() => shadow(el).querySelector('[part="session-ended"]'), `${lang} ${code}`);
        const screen = shadow(el).querySelector('[part="session-ended"]')!;
        expect(plain(screen.querySelector('#pb-ended-body')?.textContent)).to.equal(CATALOGS[lang].wallet.ended[code]);
        expect(plain(screen.querySelector('h2')?.textContent)).to.equal(CATALOGS[lang].wallet.ended.title);
        expect(walletEvents.find((e) => e.type === 'pb-session-ended')?.detail.code).to.equal(code);
        unmountAll();
      }
    });
  }

  it('shows "payout pending" beside the balance while the wallet has not confirmed a credit, never another balance', async () => {
    const worker = new WalletFake();
    const { el } = await launched(worker, { currency: 'JPY', balance: 50_000, lang: 'en' });
    expect(shadow(el).querySelector('[part="pending"]')).to.equal(null);
    const wallet = worker.walletOf(el.sessionId!);
    wallet.pendingPayments = [{ kind: 'credit', shoe: 1, round: 1, transaction: 'pbw1-00000000000000000000000000000001', amount: 2_000 }];
    await playOne(el, 1000);
    await until(() => shadow(el).querySelector('[part="pending"]'), 'payout pending');
    expect(plain(shadow(el).querySelector('[part="pending"] .label')?.textContent)).to.equal('Payout pending');
    expect(meterText(el, 'pending')).to.equal('¥2,000');
    expect(plain(shadow(el).querySelector('#pending-detail')?.textContent)).to.equal('¥2,000 on its way to your casino balance');
    // The balance is the session's (the wallet's last answered one), not balance + pending.
    const session = worker.sessionOfToken(`t-${el.sessionId}`)!;
    expect(meterText(el, 'balance')).to.equal(plain(new Intl.NumberFormat('en', { style: 'currency', currency: 'JPY' }).format(session.balance)));
    wallet.pendingPayments = [];
    await playOne(el, 1000);
    await until(() => !shadow(el).querySelector('[part="pending"]'), 'the payment confirmed');
  });

  it('keeps launched and play sessions apart in the session store; a reload resumes the launched one', async () => {
    const worker = new WalletFake();
    const { el, token } = await launched(worker);
    const launchedId = el.sessionId;
    unmountAll();
    // A play table on the same endpoint and room opens its own play session.
    const play = await mountTable({ worker });
    expect(play.el.sessionId).to.not.equal(launchedId);
    expect(play.el.wallet).to.equal(null);
    const creates = worker.requests('sessions');
    expect('launchToken' in (creates.at(-1)!.body as object)).to.equal(false);
    const playId = play.el.sessionId;
    unmountAll();
    // The same launch token again (a reload): the launched session resumes (the token itself is used up).
    const again = await mountTable({ worker, attrs: { 'launch-token': token } });
    expect(again.el.sessionId).to.equal(launchedId);
    expect(again.el.wallet?.currency).to.equal('EUR');
    expect(worker.requests('sessions')).to.have.length(creates.length);
    unmountAll();
    // And the play table resumes its play session, not the launched one.
    const playAgain = await mountTable({ worker });
    expect(playAgain.el.sessionId).to.equal(playId);
  });
});
