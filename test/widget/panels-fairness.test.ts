import { expect } from 'chai';
import { cutRange } from '../../shared/fairness/index.ts';
import { type PbCutStack, type PbFairness, type PbVerifyReport, type ShoeStartDetail, transcriptBlob, type VerifiedDetail } from '../../widget/panels/index.ts';
import type { ShoeChoiceDetail } from '../../widget/element/emit.ts';
import { playShoe, tamperedCopy } from './panels-fixture.ts';
import { $, $$, mount, nextEvent, type, unmountAll, until } from './panels-helpers.ts';

async function startEvents(panel: PbFairness): Promise<ShoeStartDetail[]> {
  const seen: ShoeStartDetail[] = [];
  panel.addEventListener('pb-shoe-start', (e) => seen.push((e as CustomEvent<ShoeStartDetail>).detail));
  return seen;
}

describe('<pb-fairness>', () => {
  afterEach(unmountAll);

  describe('before the shoe', () => {
    it('shows the signed commitment and checks its signature against the JWKS', async () => {
      const { transcript, jwks } = await playShoe({ rounds: 1 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment: transcript.commitment, status: 'awaiting-start', jwks });
      const text = $(panel, '.commitment').textContent!;
      expect(text).to.contain(transcript.commitment.body.serverSeedHash);
      expect(text).to.contain('6 decks').and.to.contain('burn on').and.to.contain('cut card 16 from the end');
      expect(text).to.contain(transcript.commitment.keyId);
      await until(() => panel.shadowRoot!.querySelector('.signature.ok'), 'the commitment signature check');
      // A commitment altered after signing is called out.
      const forged = structuredClone(transcript.commitment);
      forged.body.params.decks = 8;
      panel.commitment = forged;
      await until(() => panel.shadowRoot!.querySelector('.signature.fail'), 'the forged commitment to fail');
    });

    it('emits pb-shoe-start with the seed and the cut chosen on the slider, inside cutRange', async () => {
      const { transcript } = await playShoe({ rounds: 1 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment: transcript.commitment, status: 'awaiting-start', cutRange: { min: 10, max: 40 } });
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
      const { transcript } = await playShoe({ rounds: 1 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment: transcript.commitment, status: 'awaiting-start', cutRange: { min: 10, max: 40 } });
      const seen: ShoeChoiceDetail[] = [];
      panel.addEventListener('pb-shoe-choice', (e) => seen.push((e as CustomEvent<ShoeChoiceDetail>).detail));
      type($<HTMLInputElement>($<PbCutStack>(panel, 'pb-cut-stack'), 'input[type=range]'), '25');
      type($<HTMLInputElement>(panel, '#seed'), 'my own seed');
      const shoe = transcript.commitment.body.shoe;
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
      const { transcript } = await playShoe({ rounds: 1 });
      const range = cutRange(transcript.commitment.body.params);
      const panel = await mount<PbFairness>('pb-fairness', { commitment: transcript.commitment, status: 'awaiting-start' }, 'width: 600px');
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
      const { transcript } = await playShoe({ rounds: 1 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment: transcript.commitment, status: 'awaiting-start' });
      const seen = await startEvents(panel);
      const input = $<HTMLInputElement>(panel, '#seed');
      const first = input.value;
      // The widget's one kind of client seed (shoe-start.ts): 128 random bits in hex.
      expect(first).to.match(/^[0-9a-f]{32}$/);
      $<HTMLButtonElement>(panel, '.new-seed').click();
      await panel.updateComplete;
      expect(input.value).to.match(/^[0-9a-f]{32}$/).and.not.equal(first);
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
    it('shows the round count and the seed and cut in use; the receipts so far check as pending', async () => {
      const { transcript, jwks } = await playShoe({ rounds: 9, reveal: false, clientSeed: 'seed during' });
      const panel = await mount<PbFairness>('pb-fairness', { commitment: transcript.commitment, status: 'in-play', rounds: 9, transcript, jwks });
      expect($(panel, '.round-count').textContent).to.contain('Round 9');
      expect($(panel, '.during').textContent).to.contain('seed during').and.to.contain('137');
      $<HTMLButtonElement>(panel, '.verify-button').click();
      const { detail } = await nextEvent<VerifiedDetail>(panel, 'pb-verified');
      expect(detail.report.ok).to.equal(true);
      expect(detail.report.pending).to.equal(true);
      await panel.updateComplete;
      const report = $<PbVerifyReport>(panel, 'pb-verify-report');
      await report.updateComplete;
      expect($$(report, '.chip.pending')).to.have.length(9);
    });

    it('asks to end the shoe early when allowed', async () => {
      const { transcript } = await playShoe({ rounds: 2, reveal: false });
      const panel = await mount<PbFairness>('pb-fairness', { commitment: transcript.commitment, status: 'in-play', rounds: 2, transcript, allowEndShoe: true });
      const ended = nextEvent(panel, 'pb-shoe-end');
      $<HTMLButtonElement>(panel, '.end-button').click();
      await ended;
    });
  });

  describe('after the reveal', () => {
    it('verifies the revealed shoe in the browser, every round verified', async () => {
      const { transcript, jwks, serverSeed } = await playShoe();
      const panel = await mount<PbFairness>('pb-fairness', { commitment: transcript.commitment, status: 'ended', rounds: transcript.receipts.length, transcript, jwks });
      expect($(panel, '.after').textContent).to.contain(serverSeed);
      $<HTMLButtonElement>(panel, '.verify-button').click();
      const { detail } = await nextEvent<VerifiedDetail>(panel, 'pb-verified');
      expect(detail.report.ok).to.equal(true);
      expect(detail.report.pending).to.equal(false);
      await panel.updateComplete;
      const report = $<PbVerifyReport>(panel, 'pb-verify-report');
      await report.updateComplete;
      expect($$(report, '.chip')).to.have.length(transcript.receipts.length);
      expect($$(report, '.chip.verified')).to.have.length(transcript.receipts.length);
      expect($(report, '.headline').textContent).to.contain(`all ${transcript.receipts.length} rounds verified`);
    });

    it('shows the failing round and why when the transcript was tampered with', async () => {
      const { transcript, jwks } = await playShoe({ rounds: 12 });
      const bad = tamperedCopy(transcript, 5);
      const panel = await mount<PbFairness>('pb-fairness', { commitment: bad.commitment, status: 'ended', rounds: 12, transcript: bad, jwks });
      const report = await panel.verify();
      expect(report!.ok).to.equal(false);
      expect(report!.failure!.round).to.equal(5);
      await panel.updateComplete;
      const view = $<PbVerifyReport>(panel, 'pb-verify-report');
      await view.updateComplete;
      expect($(view, '.headline').textContent).to.contain('FAILED at round 5').and.to.contain(report!.failure!.message);
      expect($(view, '.chip[data-round="5"]').dataset.status).to.equal('failed');
      // Rounds before it verify; its balance also breaks the next round's balance before.
      expect($$(view, '.chip.verified').map((c) => c.dataset.round)).to.include.members(['1', '2', '3', '4']);
      expect($$(view, '.chip.verified')).to.have.length(report!.rounds.filter((r) => r.status === 'verified').length);
    });

    it('downloads the transcript as the { transcripts } JSON file the CLI verifies', async () => {
      const { transcript, jwks } = await playShoe({ rounds: 3 });
      const panel = await mount<PbFairness>('pb-fairness', { commitment: transcript.commitment, status: 'ended', rounds: 3, transcript, jwks });
      const clicked: HTMLAnchorElement[] = [];
      panel.shadowRoot!.addEventListener('click', (e) => {
        const target = e.target as HTMLElement;
        if (target instanceof HTMLAnchorElement) {
          clicked.push(target);
          e.preventDefault();
        }
      }, { capture: true });
      $<HTMLButtonElement>(panel, '.download-button').click();
      expect(clicked).to.have.length(1);
      expect(clicked[0]!.download).to.equal('punto-banco-table-test-shoe-1.json');
      expect(clicked[0]!.href).to.match(/^blob:/);
      const file = JSON.parse(await (await fetch(clicked[0]!.href)).text());
      expect(file.transcripts[0].reveal.hash).to.equal(transcript.reveal!.hash);
      const blob = JSON.parse(await transcriptBlob(transcript).text());
      expect(blob).to.deep.equal(file);
    });
  });
});
