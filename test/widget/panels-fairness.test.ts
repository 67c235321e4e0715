import { expect } from 'chai';
import type { Commitment, FairnessFile, Signed } from '../../shared/fairness/index.ts';
import {
  type PbCutStack,
  type PbFairness,
  type PbVerifyReport,
  type ShoeStartDetail,
  type TableSource,
  type VerifiedDetail,
} from '../../widget/panels/index.ts';
import type { ShoeChoiceDetail } from '../../widget/element/emit.ts';
import { playTable } from './panels-fixture.ts';
import { $, $$, mount, nextEvent, type, unmountAll, until } from './panels-helpers.ts';

/** A played pb-fair-2 table: its first commitment, and the table as the panel reads it (the player's copy; the operator's file, maybe changed). */
async function table(options: { rounds?: number; end?: 'open' | 'player'; theirs?: (file: FairnessFile) => FairnessFile } = {}) {
  const { file, jwks } = await playTable(options);
  const commitment = file.records[0] as Signed<Commitment>;
  const theirs: FairnessFile = options.theirs ? options.theirs(structuredClone(file)) : file;
  const source: TableSource = {
    playerKey: commitment.body.playerKey,
    copy: () => structuredClone(file),
    transcript: async () => ({ ok: true, text: JSON.stringify({ version: theirs.version, records: theirs.records }) }),
  };
  return { file, jwks, commitment, source };
}

async function verified(panel: PbFairness, button = '.verify-table-button'): Promise<{ detail: VerifiedDetail; view: PbVerifyReport }> {
  const done = nextEvent<VerifiedDetail>(panel, 'pb-verified');
  $<HTMLButtonElement>(panel, button).click();
  const { detail } = await done;
  await panel.updateComplete;
  const view = $<PbVerifyReport>(panel, 'pb-verify-report-v2');
  await view.updateComplete;
  return { detail, view };
}

async function startEvents(panel: PbFairness): Promise<ShoeStartDetail[]> {
  const seen: ShoeStartDetail[] = [];
  panel.addEventListener('pb-shoe-start', (e) => seen.push((e as CustomEvent<ShoeStartDetail>).detail));
  return seen;
}

describe('<pb-fairness>', () => {
  afterEach(unmountAll);

  describe('before the shoe', () => {
    it('shows the signed commitment and checks its signature against the JWKS', async () => {
      const { commitment, jwks } = await table({ rounds: 1 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'awaiting-start', jwks });
      const text = $(panel, '.commitment').textContent;
      expect(text).to.contain(commitment.body.serverSeedHash);
      expect(text).to.contain('6 decks').and.to.contain('burn on').and.to.contain('cut card 16 from the end');
      expect(text).to.contain(commitment.body.keyId);
      expect(text).to.contain(commitment.body.playerKey); // the player's own key, which every request is signed with
      await until(() => panel.shadowRoot!.querySelector('.signature.ok'), 'the commitment signature check');
      // A commitment altered after signing is called out.
      const forged = structuredClone(commitment);
      forged.body.params.decks = 8;
      panel.commitment = forged;
      await until(() => panel.shadowRoot!.querySelector('.signature.fail'), 'the forged commitment to fail');
    });

    it('emits pb-shoe-start with the seed and the cut chosen on the slider, inside cutRange', async () => {
      const { commitment } = await table({ rounds: 1 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'awaiting-start', cutRange: { min: 10, max: 40 } });
      const seen = await startEvents(panel);
      const stack = $<PbCutStack>(panel, 'pb-cut-stack');
      const range = $<HTMLInputElement>(stack, 'input[type=range]');
      expect(range.min).to.equal('10');
      expect(range.max).to.equal('40');
      expect(panel.cut).to.be.within(10, 40);
      type(range, '25');
      await panel.updateComplete;
      type($<HTMLInputElement>(panel, '#seed'), 'my own seed');
      $<HTMLButtonElement>(panel, '.start-button').click();
      expect(seen).to.deep.equal([{ clientSeed: 'my own seed', cut: 25 }]);
    });

    it('reports the seed and cut with pb-shoe-choice as they change, and why a seed cannot be used', async () => {
      const { commitment } = await table({ rounds: 1 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'awaiting-start', cutRange: { min: 10, max: 40 } });
      const seen: ShoeChoiceDetail[] = [];
      panel.addEventListener('pb-shoe-choice', (e) => seen.push((e as CustomEvent<ShoeChoiceDetail>).detail));
      type($<HTMLInputElement>($<PbCutStack>(panel, 'pb-cut-stack'), 'input[type=range]'), '25');
      type($<HTMLInputElement>(panel, '#seed'), 'my own seed');
      const shoe = commitment.body.shoe;
      // At once, not at the next render: a Deal in the same task uses them.
      expect(seen.at(-1)).to.deep.equal({ shoe, choice: { ok: true, value: { clientSeed: 'my own seed', cut: 25 } } });
      type($<HTMLInputElement>(panel, '#seed'), '');
      const refused = seen.at(-1)!;
      expect(refused.shoe).to.equal(shoe);
      expect(refused.choice.ok).to.equal(false);
      await panel.updateComplete;
      // Nothing said under the field until the table refuses the seed.
      expect($(panel, '#seed-error').textContent).to.equal('');
      panel.seedRefused = true;
      await panel.updateComplete;
      expect($(panel, '#seed-error').textContent).to.contain('1 to 128 characters');
      const count = seen.length;
      await panel.updateComplete;
      expect(seen).to.have.length(count); // a render alone reports nothing new
    });

    it('clamps a typed cut and a click on the drawing to the allowed range', async () => {
      const { commitment } = await table({ rounds: 1 });
      const range = { min: 1, max: 6 * 52 - 1 }; // any position inside the six-deck stack
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'awaiting-start' }, 'width: 600px');
      const seen = await startEvents(panel);
      const stack = $<PbCutStack>(panel, 'pb-cut-stack');
      type($<HTMLInputElement>(stack, 'input[type=number]'), '99999', 'change');
      await panel.updateComplete;
      $<HTMLButtonElement>(panel, '.start-button').click();
      expect(seen.at(-1)!.cut).to.equal(range.max);
      // Pointer down at the far left of the drawn stack: the smallest cut.
      const svg = $<SVGSVGElement>(stack, 'svg.stack');
      const box = svg.getBoundingClientRect();
      svg.dispatchEvent(new PointerEvent('pointerdown', { clientX: box.left + 1, clientY: box.top + 60, pointerId: 1, bubbles: true }));
      await panel.updateComplete;
      expect(stack.value).to.equal(range.min);
      // And the middle of it: about half the stack.
      svg.dispatchEvent(new PointerEvent('pointerdown', { clientX: box.left + box.width / 2, clientY: box.top + 60, pointerId: 1, bubbles: true }));
      await panel.updateComplete;
      expect(stack.value).to.be.within(150, 162);
      $<HTMLButtonElement>(panel, '.start-button').click();
      expect(seen.at(-1)!.cut).to.equal(stack.value);
    });

    it('offers a random client seed, a new one on demand, and refuses an invalid one', async () => {
      const { commitment } = await table({ rounds: 1 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'awaiting-start' });
      const seen = await startEvents(panel);
      const input = $<HTMLInputElement>(panel, '#seed');
      const first = input.value;
      // The widget's one kind of client seed (shoe-start.ts): 128 random bits in hex.
      expect(first).to.match(/^[0-9a-f]{32}$/);
      $<HTMLButtonElement>(panel, '.new-seed').click();
      await panel.updateComplete;
      expect(input.value)
        .to.match(/^[0-9a-f]{32}$/)
        .and.not.equal(first);
      type(input, '');
      await panel.updateComplete;
      $<HTMLButtonElement>(panel, '.start-button').click();
      await panel.updateComplete;
      expect(seen).to.have.length(0);
      expect($(panel, '#seed-error').textContent).to.contain('1 to 128 characters');
      expect(input.getAttribute('aria-invalid')).to.equal('true');
    });
  });

  describe('during the shoe', () => {
    it('shows the round count and the seed and cut in use; the table so far checks as pending', async () => {
      const { commitment, jwks, source } = await table({ rounds: 9, end: 'open' });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'in-play', rounds: 9, table: source, jwks });
      expect($(panel, '.round-count').textContent).to.contain('Round 9');
      expect($(panel, '.during').textContent).to.contain('a player seed').and.to.contain('100');
      const { detail, view } = await verified(panel);
      expect(detail.check.result.code).to.equal('ok');
      expect(detail.check.result.version === 'pb-fair-2' && detail.check.result.report.pending).to.equal(true);
      expect($$(view, '.chip.pending')).to.have.length(9);
    });

    it('asks to end the shoe early when allowed', async () => {
      const { commitment } = await table({ rounds: 2, end: 'open' });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'in-play', rounds: 2, allowEndShoe: true });
      const ended = nextEvent(panel, 'pb-shoe-end');
      $<HTMLButtonElement>(panel, '.end-button').click();
      await ended;
    });
  });

  describe('after the reveal', () => {
    it('verifies the table in the browser, every round verified', async () => {
      const { commitment, jwks, source, file } = await table({ rounds: 6 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'ended', rounds: 6, table: source, jwks });
      const reveal = file.records.at(-1)!.body as { serverSeed: string };
      expect($(panel, '.after').textContent).to.contain(reveal.serverSeed);
      const { detail, view } = await verified(panel);
      expect(detail.check.result.code).to.equal('ok');
      expect(detail.check.findings).to.equal(null); // "Verify" alone does not compare
      expect($$(view, '.chip')).to.have.length(6);
      expect($$(view, '.chip.verified')).to.have.length(6);
      expect($(view, '.headline').textContent).to.contain('1 shoe, 6 rounds');
    });

    it('shows the failing round and why when the transcript was tampered with', async () => {
      const { commitment, jwks, source } = await table({
        rounds: 12,
        // Round 5's receipt (commitment, start, then acceptance and receipt per round) changed after signing.
        theirs: (f) => (((f.records[11]!.body as { balanceAfter: number }).balanceAfter += 1_000), f),
      });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'ended', rounds: 12, table: source, jwks });
      const { detail, view } = await verified(panel);
      const r = detail.check.result;
      expect(r.code).to.equal('hash_mismatch');
      expect(r.version === 'pb-fair-2' && r.report.failure!.round).to.equal(5);
      expect($(view, '.shoe').dataset.verdict).to.equal('fail');
      expect($(view, '.headline').textContent).to.contain('shoe 1, round 5').and.to.contain('hash_mismatch');
      // Rounds before it verify; nothing after the first failure is judged.
      expect($$(view, '.chip.verified').map((c) => c.dataset.round)).to.deep.equal(['1', '2', '3', '4']);
    });

    it("compares the operator's transcript with the player's copy: a changed round is flagged", async () => {
      const { commitment, jwks, source } = await table({
        rounds: 3,
        // The operator's copy leaves out round 2's receipt.
        theirs: (f) => ({ ...f, records: f.records.filter((_, i) => i !== 5) }),
      });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'ended', rounds: 3, table: source, jwks });
      const { detail, view } = await verified(panel, '.compare-button');
      expect(detail.check.findings!.map((f) => [f.code, f.round, f.type])).to.deep.equal([['missing_in_operator_copy', 2, 'receipt']]);
      expect($(view, '.findings li').dataset.code).to.equal('missing_in_operator_copy');
      expect($(view, '.findings').textContent).to.contain('Shoe 1, round 2');
    });

    it("downloads the player's copy as the pb-fair-2 file the CLI compares (--mine)", async () => {
      const { commitment, jwks, source, file } = await table({ rounds: 3 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment, status: 'ended', rounds: 3, table: source, jwks });
      const clicked: HTMLAnchorElement[] = [];
      panel.shadowRoot!.addEventListener(
        'click',
        (e) => {
          const target = e.target as HTMLElement;
          if (target instanceof HTMLAnchorElement) {
            clicked.push(target);
            e.preventDefault();
          }
        },
        { capture: true },
      );
      $<HTMLButtonElement>(panel, '.download-copy-button').click();
      expect(clicked).to.have.length(1);
      expect(clicked[0]!.download).to.equal('punto-banco-table-test-my-copy.json');
      expect(clicked[0]!.href).to.match(/^blob:/);
      const mine = JSON.parse(await (await fetch(clicked[0]!.href)).text());
      expect(mine).to.deep.equal(JSON.parse(JSON.stringify(file)));
    });
  });
});
