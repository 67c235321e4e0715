/**
 * <punto-banco-table table="…"> at a pb-shared-2 shared table (FAIRNESS.md part IV): when the close
 * (signed with the fake Worker's key, committing to the bets) and the player's inclusion proof
 * arrive, the widget checks its own signed bet against them and says so in the fairness details —
 * and says plainly when the proof does not check. With the shoe's first close come the signed
 * start (committing to the seated players' start requests) and the player's start proof: the
 * widget checks its own seed and cut are in it, and a failure shows as a bad bet proof does. In
 * every language the widget speaks.
 */
import { expect } from 'chai';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { FakeSharedTable } from './fake-shared-table.ts';
import { action, boxButton, centre, chipButton, FakeWorker, mountTable, settle, shadow, unmountAll, until } from './helpers.ts';

const click = async (el: Element): Promise<void> => sendMouse({ type: 'click', position: centre(el) });
const q = (el: Element, selector: string) => shadow(el).querySelector<HTMLElement>(selector);

async function betAtMerkleTable(lang = 'en') {
  const worker = new FakeWorker();
  const table = new FakeSharedTable(worker);
  const mounted = await mountTable({ worker, attrs: { table: 'hall-1/a', lang }, setup: (el) => (el.socketFactory = table.socketFactory) });
  const { el } = mounted;
  await until(() => q(el, '.shared-clock.open'), 'the betting window to show');
  // Two others bet too: the player's bet is one leaf of three.
  table.otherBet('AAAAother-one', [{ sector: 2, box: 'tie', amount: 500 }]);
  table.otherBet('zzzzother-two', [{ sector: 3, box: 'player', amount: 1000 }]);
  await click(chipButton(el, 1000));
  await click(boxButton(el, 1, 'banker'));
  await settle(el);
  await click(action(el, 'deal'));
  await until(() => table.sent('bet').length === 1, 'the bet request');
  await until(() => el.balance !== null && q(el, '[part="status"]')!.textContent.length > 0, 'the acceptance');
  await until(() => table.bets.size === 3, 'three bets at the table');
  return { ...mounted, table };
}

describe('<punto-banco-table table="…"> checks its own bet in a pb-shared-2 close', () => {
  afterEach(async () => {
    unmountAll();
    await resetMouse();
  });

  it('the proof checks: the fairness details say the bet is in the signed close, which of how many', async () => {
    const { el, table } = await betAtMerkleTable();
    await table.closeMerkle();
    await until(() => q(el, '.shared-fair .proof[data-proof="ok"]'), 'the checked proof');
    const line = q(el, '.shared-fair .proof')!.textContent;
    expect(line).to.contain('Round 1');
    expect(line).to.match(/bet [123] of 3/);
    expect(line).to.contain('Merkle proof checked');
    // Its own start request (seed and cut) is in the shoe's signed start: that check passed too.
    await until(() => q(el, '.shared-fair .proof[data-start-proof="ok"]'), 'the checked start proof');
  });

  it('a start proof that does not lead to the signed start root is shown as a failure of the shoe, with its code', async () => {
    const { el, table } = await betAtMerkleTable();
    await table.closeMerkle(undefined, (p) => ({ ...p, leaf: p.leaf + 1 }));
    await until(() => q(el, '.shared-fair .proof[data-proof="failed"]'), 'the failed start check');
    const line = q(el, '.shared-fair .proof')!.textContent;
    expect(line).to.contain('Shoe 1');
    expect(line).to.match(/start_not_included|bad_proof/);
    expect(q(el, '.shared-fair .proof')!.dataset.startProof).to.equal('failed');
  });

  it("after a reload the start proof in the table's state is checked with the table's copy of the request: a bad one fails", async () => {
    const { el, table, worker } = await betAtMerkleTable();
    await table.closeMerkle();
    await until(() => q(el, '.shared-fair .proof[data-start-proof="ok"]'), 'the checked start proof');
    el.remove(); // the reload: the tab no longer holds the start request it signed
    table.stateStartProof = (p) => ({ ...p, path: [...p.path, 'ab'.repeat(32)] });
    const again = await mountTable({ worker, attrs: { table: 'hall-1/a' }, setup: (e) => (e.socketFactory = table.socketFactory) });
    await until(() => q(again.el, '.shared-fair .proof[data-start-proof="failed"]'), 'the start proof of the state checked');
    // The table's copy is this player's signed request: the proof, not the request, is what fails.
    expect(q(again.el, '.shared-fair .proof')!.textContent).to.contain('start_not_included');
  });

  it('a proof that does not lead to the signed root is shown as a failure, with its code', async () => {
    const { el, table } = await betAtMerkleTable();
    await table.closeMerkle((p) => ({ ...p, path: p.path.map((h) => (h[0] === '0' ? '1' : '0') + h.slice(1)) }));
    await until(() => q(el, '.shared-fair .proof[data-proof="failed"]'), 'the failed check');
    expect(q(el, '.shared-fair .proof')!.textContent).to.contain('bet_not_included');
  });

  it('a proof for another leaf fails too: the bet at that place is not this player’s', async () => {
    const { el, table } = await betAtMerkleTable();
    await table.closeMerkle((p) => ({ ...p, leaf: (p.leaf + 1) % 3 }));
    await until(() => q(el, '.shared-fair .proof[data-proof="failed"]'), 'the failed check');
    expect(q(el, '.shared-fair .proof')!.textContent).to.contain('bet_not_included');
  });

  for (const [lang, word] of [
    ['ru', 'доказательство Меркла проверено'],
    ['it', 'prova di Merkle verificata'],
    ['el', 'απόδειξη Merkle ελέγχθηκε'],
  ] as const) {
    it(`says it in ${lang}`, async () => {
      const { el, table } = await betAtMerkleTable(lang);
      await table.closeMerkle();
      await until(() => q(el, '.shared-fair .proof[data-proof="ok"]'), 'the checked proof');
      expect(q(el, '.shared-fair .proof')!.textContent).to.contain(word);
    });
  }
});
