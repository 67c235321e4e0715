/**
 * <punto-banco-table table="hall-1/a">: a shared table (API.md "Shared tables") against the fake
 * Worker (the player's session and balance) and a fake shared table over fake WebSockets
 * (fake-shared-table.ts), with real clicks: the countdown, the players, every box's total, one
 * signed bet a round, the deal for all, the player's own result, and a reconnect that resyncs.
 */
import { expect } from 'chai';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { QUICKNET } from '../../shared/beacon-chains.ts';
import { verifySharedRequest } from '../../shared/fairness/pb-shared-1/records.ts';
import { FakeSharedTable } from './fake-shared-table.ts';
import { action, boxButton, centre, chipButton, FakeWorker, mountTable, settle, shadow, toastText, unmountAll, until } from './helpers.ts';

const click = async (el: Element): Promise<void> => sendMouse({ type: 'click', position: centre(el) });

async function sharedTable(attrs: Record<string, string> = {}) {
  const worker = new FakeWorker();
  const table = new FakeSharedTable(worker);
  const mounted = await mountTable({ worker, attrs: { table: 'hall-1/a', ...attrs }, setup: (el) => (el.socketFactory = table.socketFactory) });
  const { el } = mounted;
  await until(() => shadow(el).querySelector('.shared-clock.open'), 'the betting window to show');
  return { ...mounted, table };
}

const q = (el: Element, selector: string) => shadow(el).querySelector<HTMLElement>(selector);

/** Intl's spaces (no-break, narrow no-break) as plain ones, so expectations read as written. */
const plain = (text: string | null | undefined): string => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

/** A credit and a refund the table owes the session of round 1 (its session object was slow). */
const OWED = [
  { transfer: 'tr-credit', kind: 'credit', amount: 19_500, shoe: 1, round: 1 },
  { transfer: 'tr-refund', kind: 'refund', amount: 5000, shoe: 1, round: 1 },
] as const;

describe('<punto-banco-table table="…"> (a shared table)', () => {
  afterEach(async () => {
    unmountAll();
    await resetMouse();
  });

  it('shows the countdown, the players and every box total as bets come in', async () => {
    const { el, table } = await sharedTable();
    const clock = q(el, '.shared-clock')!;
    expect(Number(clock.dataset.left)).to.be.within(1, 15);
    expect(clock.textContent).to.match(/\d+ s to bet/);
    expect(clock.textContent).to.contain('Place your bets');
    expect(q(el, '.shared-players')!.textContent).to.equal('1 at the table');
    expect(q(el, '.shared-name')!.textContent).to.equal('hall-1/a');
    expect(action(el, 'deal').textContent.trim()).to.equal('Place bet');
    expect(q(el, '.tool.mode'), 'the mode is the table id’s, not a switch').to.equal(null);
    table.otherBet('someone-else', [{ sector: 2, box: 'tie', amount: 5000 }]);
    await until(() => q(el, '.box-total[data-sector="2"][data-box="tie"]'), "the other player's total on the tie box");
    expect(q(el, '.box-total[data-sector="2"][data-box="tie"]')!.textContent.trim()).to.equal('All €5.00');
    expect(q(el, '.shared-total')!.textContent).to.contain('€5.00');
    // The player watching and the one who bet: two at the table, as "bettors: 1" beside it implies.
    expect(q(el, '.shared-total')!.textContent).to.contain('bettors: 1');
    expect(q(el, '.shared-players')!.textContent).to.equal('2 at the table');
    table.closeWindow();
    await until(() => q(el, '.shared-clock.closed'), 'the closed state');
    expect(q(el, '.shared-clock')!.textContent).to.contain('Bets closed');
    // Words a player understands on the status line; the beacon's round number in the fairness details.
    expect(q(el, '[part="status"]')!.textContent).to.equal('Bets closed · drawing the public random number…');
    expect(q(el, '.shared-fair')!.textContent).to.contain('beacon round 1001');
  });

  it('Place bet sends one signed request; the chips lock; the deal is drawn for all; the own result and balance show', async () => {
    const { el, table, scene } = await sharedTable();
    const start = el.balance;
    await click(chipButton(el, 1000));
    await click(boxButton(el, 1, 'banker'));
    await settle(el);
    expect(q(el, '[part="status"]')!.textContent).to.contain('Press Place bet');
    await click(action(el, 'deal'));
    await until(() => table.sent('bet').length === 1, 'the bet request');
    const [sent] = table.sent('bet');
    expect(sent.request.body).to.deep.include({ table: 'hall-1/a', shoe: 1, round: 1, bets: [{ sector: 1, box: 'banker', amount: 1000 }] });
    expect(await verifySharedRequest(sent.request)).to.equal(true);
    // The shoe had not started: the player's signed start went first.
    expect(table.sent('start')).to.have.length(1);
    await until(() => q(el, '[part="status"]')!.textContent.includes('is in'), 'the acceptance');
    expect(el.balance).to.equal(start - 1000);
    expect(boxButton(el, 1, 'banker').getAttribute('aria-disabled')).to.equal('true');
    expect(q(el, '.box-total[data-sector="1"][data-box="banker"]')!.textContent.trim()).to.equal('All €1.00');
    await click(action(el, 'deal'));
    await click(boxButton(el, 0, 'player'));
    await settle(el);
    expect(table.sent('bet'), 'one bet a round').to.have.length(1);
    expect(el.bets).to.deep.equal([{ sector: 1, box: 'banker', amount: 1000 }]);
    table.closeWindow();
    // Banker 9 (natural) against Player 7.
    table.deal(['7S', '9H', 'KD', 'KC']);
    await until(() => el.state === 'settled', 'the settled round');
    const drawn = scene!.called('playRound').at(-1)![0] as { cards: { code: string }[]; outcome: string; bets: unknown[] };
    expect(drawn.cards.map((c) => c.code)).to.deep.equal(['7S', '9H', 'KD', 'KC']);
    expect(drawn.outcome).to.equal('banker');
    expect(drawn.bets).to.deep.equal([{ sector: 1, box: 'banker', amount: 1000 }]);
    expect(el.balance).to.equal(start + 950);
    expect(table.opened[0]!.wallet!.balance).to.equal(start + 950);
    expect(q(el, '[part="status"]')!.textContent).to.contain('You win €0.95');
    expect(q(el, '[part="balance"] output')!.textContent).to.equal(
      new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR', maximumFractionDigits: 3 }).format((start + 950) / 1000),
    );
    // The next window is open and the scoreboard has the round.
    await until(() => q(el, '.shared-clock.open'), 'the next window');
    expect(q(el, '.shared-round')!.textContent).to.equal('Shoe 1 · round 2');
    expect(q(el, '.shared-board h3')!.textContent).to.contain('rounds: 1');
  });

  it('a settlement that arrives before its deal waits for it: the round is drawn once, with the own bets, result and balance', async () => {
    const { el, table, scene } = await sharedTable();
    const start = el.balance;
    await click(chipButton(el, 1000));
    await click(boxButton(el, 2, 'player'));
    await click(action(el, 'deal'));
    await until(() => q(el, '[part="status"]')!.textContent.includes('is in'), 'the acceptance');
    table.settlementsFirst = true;
    table.closeWindow();
    const drawnBefore = scene!.called('playRound').length;
    // Player 9 (natural) against Banker 7: the bet wins; a tie would return the stake.
    table.deal(['9S', '7H', 'KD', 'KC']);
    await until(() => el.state === 'settled', 'the settled round');
    expect(scene!.called('playRound').length - drawnBefore, 'drawn once').to.equal(1);
    const drawn = scene!.called('playRound').at(-1)![0] as { outcome: string; bets: unknown[] };
    expect(drawn.outcome).to.equal('player');
    expect(drawn.bets).to.deep.equal([{ sector: 2, box: 'player', amount: 1000 }]);
    expect(el.balance).to.equal(start + 1000);
    expect(q(el, '[part="status"]')!.textContent).to.contain('You win €1.00');
  });

  it('while the last round is still drawn the open window does not invite bets the chips cannot take', async () => {
    const { el, table, scene } = await sharedTable();
    let release!: () => void;
    scene!.hold = new Promise<void>((r) => (release = r));
    table.closeWindow();
    table.deal(['7S', '9H', 'KD', 'KC']);
    await until(() => scene!.called('playRound').length === 1 && q(el, '.shared-clock.open'), 'the next window while the round is drawn');
    await settle(el);
    expect(chipButton(el, 1000).getAttribute('aria-disabled')).to.equal('true');
    expect(q(el, '.shared-clock .clock-text')!.textContent).to.equal('Dealing…');
    release();
    await until(() => el.state === 'settled', 'the round drawn');
    await settle(el);
    expect(chipButton(el, 1000).getAttribute('aria-disabled')).to.equal('false');
    expect(q(el, '.shared-clock .clock-text')!.textContent).to.equal('Place your bets');
  });

  it('chips not confirmed go by themselves before the close; a refusal reads as a message', async () => {
    const worker = new FakeWorker();
    const table = new FakeSharedTable(worker, 'hall-1/a', 2_400);
    const { el } = await mountTable({ worker, attrs: { table: 'hall-1/a' }, setup: (e) => (e.socketFactory = table.socketFactory) });
    await until(() => q(el, '.shared-clock.open'), 'the window');
    el.placeBet(0, 'player');
    await until(() => table.sent('bet').length === 1, 'the automatic bet before the close', 4_000);
    expect(table.sent('bet')[0].request.body.bets).to.deep.equal([{ sector: 0, box: 'player', amount: 100 }]);
    // The table refuses what it cannot take, in words.
    table.sockets[0]!.deliver('bet-refused', { code: 'insufficient_funds', message: 'the session refused the debit', shoe: 1, round: 9 });
    await until(() => toastText(el) !== '', 'the refusal');
    expect(toastText(el)).to.equal('Your balance does not cover this bet.');
  });

  it('a void returns the stake and says so; a reveal brings the next shoe, whose start the player signs', async () => {
    const { el, table } = await sharedTable();
    const start = el.balance;
    el.placeBet(2, 'banker');
    await click(action(el, 'deal'));
    await until(() => el.balance === start - 100, 'the stake taken');
    table.closeWindow();
    table.voidRound();
    await until(() => toastText(el) !== '', 'the void said');
    expect(toastText(el)).to.equal('The round was void (the beacon came too late): your stake was returned.');
    await until(() => el.balance === start, 'the stake back');
    // The chips stay on the felt, unlocked, for the next round.
    await until(() => boxButton(el, 2, 'banker').getAttribute('aria-disabled') === 'false', 'the chips unlocked');
    expect(el.bets).to.deep.equal([{ sector: 2, box: 'banker', amount: 100 }]);
    table.reveal();
    await until(() => q(el, '.shared-round')!.textContent === 'Shoe 2 · round 1', 'the next shoe');
    await until(() => table.sent('start').some((m) => m.request.body.shoe === 2), 'the start of shoe 2');
    const started = table.sent('start').find((m) => m.request.body.shoe === 2);
    expect(started.request.body.commitment).to.equal(table.commitment.hash);
    expect(await verifySharedRequest(started.request)).to.equal(true);
    expect(q(el, '.shared-fair')!.textContent).to.contain('Shoe 2 sealed');
  });

  it('names the beacon chain in the fairness block: quicknet as a known public chain, any other with a warning', async () => {
    const { el, table } = await sharedTable();
    const line = () => q(el, '.shared-fair .chain');
    await until(() => line(), 'the chain line');
    expect(line()!.dataset.known).to.equal('true');
    expect(line()!.classList.contains('unknown')).to.equal(false);
    expect(line()!.textContent.trim()).to.equal('Beacon: drand quicknet, a known public chain (52db9ba70e0cc0f6…)');
    // The next shoe on a chain only its key holder controls (the local development beacon, say).
    table.chain = { ...QUICKNET, hash: 'ab'.repeat(32), publicKey: 'cd'.repeat(96) };
    table.reveal();
    await until(() => line()?.dataset.known === 'false', 'the unknown chain');
    expect(line()!.classList.contains('unknown')).to.equal(true);
    expect(line()!.textContent.trim()).to.equal('Beacon: UNKNOWN chain abababababababab… — whoever holds its key could know rounds before the close');
    el.lang = 'ru';
    await until(() => line()!.textContent.includes('НЕИЗВЕСТНАЯ'), 'the warning in Russian');
  });

  it('without the table attribute the element is the private table again, on a new session', async () => {
    const { el, table } = await sharedTable();
    const shared = el.sessionId;
    el.removeAttribute('table');
    await until(() => !q(el, '.shared-hud') && el.state === 'ready' && el.sessionId !== shared, 'the private table');
    expect(action(el, 'deal').textContent.trim()).to.equal('Deal');
    expect(q(el, '.tool.mode')).to.not.equal(null);
    expect(table.sockets, 'the shared table was left').to.have.length(0);
  });

  it('a table that cannot be reached says so with Retry, keeps trying, and clears once it is back', async () => {
    const { el, table } = await sharedTable();
    el.placeBet(0, 'tie');
    table.refuseNext = 3;
    table.drop(table.opened[0]!);
    await until(() => q(el, '[part="notice"]'), 'the notice', 10_000);
    expect(q(el, '[part="notice"]')!.textContent).to.contain('The shared table cannot be reached');
    expect(el.bets, 'the chips are kept').to.deep.equal([{ sector: 0, box: 'tie', amount: 100 }]);
    await click(q(el, '[part="notice"] .retry')!);
    await until(() => !q(el, '[part="notice"]') && q(el, '.shared-clock.open'), 'the table back');
    expect(el.state).to.equal('ready');
  });

  it("after a reload the table's state puts the bet it holds back on the felt, locked", async () => {
    const { el, table, worker } = await sharedTable();
    el.placeBet(4, 'banker');
    await click(action(el, 'deal'));
    await until(() => q(el, '[part="status"]')!.textContent.includes('is in'), 'the bet in');
    const session = el.sessionId;
    el.remove();
    const again = await mountTable({ worker, attrs: { table: 'hall-1/a' }, setup: (e) => (e.socketFactory = table.socketFactory) });
    await until(() => q(again.el, '[part="status"]')?.textContent.includes('is in'), 'the bet in, from the state');
    expect(again.el.sessionId, 'the same session, resumed').to.equal(session);
    expect(again.el.bets).to.deep.equal([{ sector: 4, box: 'banker', amount: 100 }]);
    expect(boxButton(again.el, 4, 'banker').getAttribute('aria-disabled')).to.equal('true');
    expect(table.sent('bet')).to.have.length(1);
  });

  it('a reload while the round waits for its beacon: the deal is drawn with the own bet, and the next window invites bets, not "Dealing…"', async () => {
    const { el, table, worker } = await sharedTable();
    el.placeBet(4, 'banker');
    await click(action(el, 'deal'));
    await until(() => q(el, '[part="status"]')!.textContent.includes('is in'), 'the bet in');
    table.closeWindow();
    await settle(el);
    el.remove(); // the reload: betting closed, the beacon not yet in
    const again = await mountTable({ worker, attrs: { table: 'hall-1/a' }, setup: (e) => (e.socketFactory = table.socketFactory) });
    const status = (): string => q(again.el, '[part="status"]')?.textContent ?? '';
    await until(() => table.sockets.length === 1 && again.el.state !== 'loading' && status() !== '' && !status().includes('Connecting'), 'rejoined');
    expect(status()).to.not.contain('Dealing');
    table.deal(['7S', '9H', 'KD', 'KC']); // Banker 9 against 7: the deal, the settlement, the next window
    await until(() => again.el.state === 'settled', 'the round drawn');
    expect(status()).to.contain('You win');
    await until(() => q(again.el, '.shared-clock.open'), 'the next window');
    // A bet on the next round is taken at once: the chips are not held by a round still "dealing".
    expect(again.el.state).to.not.equal('dealing');
    expect(again.el.placeBet(1, 'player')).to.equal(true);
    expect(status()).to.not.contain('Dealing');
  });

  it('a start lost on the way: the table asks for it, the widget sends it and the same bet again', async () => {
    const worker = new FakeWorker();
    const table = new FakeSharedTable(worker);
    table.loseNextStart = true;
    const { el } = await mountTable({ worker, attrs: { table: 'hall-1/a' }, setup: (e) => (e.socketFactory = table.socketFactory) });
    await until(() => q(el, '.shared-clock.open'), 'the window');
    await until(() => table.sent('start').length === 1, 'the first start (lost)');
    el.placeBet(1, 'player');
    await click(action(el, 'deal'));
    await until(() => q(el, '[part="status"]')!.textContent.includes('is in'), 'the bet in after the start', 8_000);
    const bets = table.sent('bet');
    expect(table.sent('start').length).to.be.at.least(2);
    expect(bets.length).to.be.at.least(1);
    expect(new Set(bets.map((b) => b.request.signature)).size, 'the same signed bet').to.equal(1);
    expect(table.bets.size).to.equal(1);
    expect(toastText(el)).to.equal('');
  });

  it('a dropped socket rejoins, resyncs from the state and sends the unanswered bet again', async () => {
    const { el, table } = await sharedTable();
    table.loseNextBet = true;
    el.placeBet(3, 'tie');
    await click(action(el, 'deal'));
    await until(() => table.sent('bet').length === 1, 'the bet');
    table.otherBet('someone-else', [{ sector: 4, box: 'player', amount: 2000 }]);
    table.drop(table.opened[0]!);
    await until(() => q(el, '.live.off'), 'the reconnecting state');
    await until(() => table.opened.length === 2 && table.sockets.length === 1, 'the new socket', 5_000);
    await until(() => table.sent('bet').length === 2, 'the bet sent again');
    const [first, again] = table.sent('bet');
    expect(again.request).to.deep.equal(first.request);
    await until(() => q(el, '[part="status"]')!.textContent.includes('is in'), 'the acceptance after the reconnect');
    expect(table.bets.size).to.equal(2);
    // The state's bets (the other player's too) are back on the boxes.
    expect(q(el, '.box-total[data-sector="4"][data-box="player"]')!.textContent.trim()).to.equal('All €2.00');
    expect(q(el, '.box-total[data-sector="3"][data-box="tie"]')!.textContent.trim()).to.equal('All €0.10');
    expect(q(el, '.live.off')).to.equal(null);
  });

  it('a bet the table took but whose answer was lost is not sent twice: the state after the reconnect says it is in', async () => {
    const { el, table } = await sharedTable();
    table.holdAcks = true;
    el.placeBet(3, 'tie');
    await click(action(el, 'deal'));
    await until(() => table.bets.size === 1, 'the bet taken');
    expect(q(el, '[part="status"]')!.textContent).to.contain('Sending');
    table.holdAcks = false;
    table.drop(table.opened[0]!);
    await until(() => table.opened.length === 2 && table.sockets.length === 1, 'the new socket', 5_000);
    await until(() => q(el, '[part="status"]')!.textContent.includes('is in'), 'the bet in, from the state');
    expect(table.sent('bet')).to.have.length(1);
    expect(boxButton(el, 0, 'player').getAttribute('aria-disabled')).to.equal('true');
  });

  it('what the table still owes shows as "Payout pending" beside the balance, not in it; paid, it goes (a balance, or the state asked after a settlement)', async () => {
    const { el, table } = await sharedTable();
    const s = table.sockets[0]!;
    const start = el.balance;
    table.owed.set(s.wallet!, [...OWED]);
    table.sendState(s);
    await until(() => q(el, '[part="pending"]'), 'the pending payout');
    expect(plain(q(el, '[part="pending"] .label')!.textContent)).to.equal('Payout pending');
    expect(plain(q(el, '[part="pending"] output')!.textContent)).to.equal('€24.50');
    expect(plain(q(el, '#pending-detail')!.textContent)).to.equal('€24.50 from the shared table on its way to your balance');
    expect(el.balance, 'never added to the balance').to.equal(start);
    // The session answers for the credit: the table says so with a balance naming it.
    table.pay(s, 'tr-credit');
    await until(() => plain(q(el, '[part="pending"] output')?.textContent) === '€5.00', 'the refund still pending');
    expect(el.balance).to.equal(start + 19_500);
    // The refund is paid too, but its balance message is lost: the state asked after the next settlement says so.
    table.owed.delete(s.wallet!);
    el.placeBet(0, 'player');
    await click(action(el, 'deal'));
    await until(() => q(el, '[part="status"]')!.textContent.includes('is in'), 'the acceptance');
    table.closeWindow();
    const asked = table.sent('state').length;
    table.deal(['9S', '7H', 'KD', 'KC']);
    await until(() => q(el, '[part="pending"]') === null, 'the mark gone');
    expect(table.sent('state').length - asked, 'one state asked, after the settlement').to.equal(1);
  });

  it('"Payout pending" in the player\'s language; a later state without the transfer removes it', async () => {
    const { el, table } = await sharedTable({ lang: 'ru' });
    const s = table.sockets[0]!;
    table.owed.set(s.wallet!, [OWED[0]]);
    table.sendState(s);
    await until(() => q(el, '[part="pending"]'), 'the pending payout');
    expect(plain(q(el, '[part="pending"] .label')!.textContent)).to.equal('Выплата в пути');
    expect(plain(q(el, '[part="pending"] output')!.textContent)).to.equal('19,50 €');
    table.owed.delete(s.wallet!);
    table.sendState(s);
    await until(() => q(el, '[part="pending"]') === null, 'the mark gone');
  });
});
