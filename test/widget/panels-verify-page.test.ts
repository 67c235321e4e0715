import { expect } from 'chai';
import { parseJwksText, parseTranscriptText, type PbVerifyPage, type PbFair1VerifyReport } from '../../widget/panels/index.ts';
import { playShoe, playTable, tamperedCopy } from './panels-fixture.ts';
import type { PbVerifyReport } from '../../widget/panels/verify-report.ts';
import type { PanelStrings } from '../../widget/panels/strings.ts';
import { panelsRu } from '../../widget/i18n/panels-ru.ts';
import { $, $$, mount, type, unmountAll, until } from './panels-helpers.ts';

/** Pastes both texts as a person would and presses Verify; resolves once a result is on screen. */
async function pasteAndVerify(page: PbVerifyPage, transcript: string, jwks: string): Promise<void> {
  type($<HTMLTextAreaElement>(page, '#transcript'), transcript);
  type($<HTMLTextAreaElement>(page, '#jwks'), jwks);
  await page.updateComplete;
  $<HTMLButtonElement>(page, 'button.verify').click();
  await until(() => page.shadowRoot!.querySelector('.summary'), 'a verification result');
  await page.updateComplete;
}

describe('<pb-verify-page>', () => {
  afterEach(unmountAll);

  it('fails a tampered transcript with the first failing round and the reason', async () => {
    const { transcript, jwks } = await playShoe({ rounds: 15 });
    const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false });
    await pasteAndVerify(page, JSON.stringify({ transcripts: [tamperedCopy(transcript, 7)] }), JSON.stringify(jwks));
    const first = $(page, '.first-failure');
    expect(first.dataset.round).to.equal('7');
    expect(first.dataset.code).to.equal('hash_mismatch');
    expect(first.textContent).to.contain('shoe 1, round 7').and.to.contain(page.reports[0]!.failure!.message);
    const report = $<PbFair1VerifyReport>(page, 'pb-verify-report');
    await report.updateComplete;
    expect($(report, '.chip[data-round="7"]').dataset.status).to.equal('failed');
    expect($(report, '.chip[data-round="7"]').title).to.contain(page.reports[0]!.failure!.message);
    // The first failure is stated once, above; the report lists the rounds that failed after it.
    expect($(report, '.headline').textContent).to.contain('FAILED at round 7').and.not.contain(page.reports[0]!.failure!.message);
    expect($(report, '.reasons').textContent).to.contain('Round 8').and.not.contain('Round 7');
  });

  it('verifies an honest transcript, given as one Transcript object', async () => {
    const { transcript, jwks } = await playShoe();
    const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false });
    await pasteAndVerify(page, JSON.stringify(transcript), JSON.stringify(jwks));
    expect($(page, '.summary').classList.contains('ok')).to.equal(true);
    expect($(page, '.summary').textContent).to.contain(`1 shoe, ${transcript.receipts.length} rounds`);
    const report = $<PbFair1VerifyReport>(page, 'pb-verify-report');
    await report.updateComplete;
    expect($$(report, '.chip.verified')).to.have.length(transcript.receipts.length);
  });

  it('verifies several shoes of a file and names the first failing one', async () => {
    const a = await playShoe({ rounds: 4 });
    const b = await playShoe({ rounds: 6 });
    const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false });
    const bad = tamperedCopy(b.transcript, 3);
    const jwks = { keys: [...a.jwks.keys, ...b.jwks.keys.map((k) => ({ ...k, kid: 'other-key' }))] };
    for (const r of [bad.commitment, bad.start!, ...bad.receipts, bad.reveal!]) r.keyId = 'other-key';
    await pasteAndVerify(page, JSON.stringify({ transcripts: [a.transcript, bad] }), JSON.stringify(jwks));
    expect(page.reports).to.have.length(2);
    expect(page.reports[0]!.ok).to.equal(true);
    expect($(page, '.first-failure').dataset.round).to.equal('3');
  });

  it('says what is wrong with the input instead of verifying', async () => {
    const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false });
    await pasteAndVerify(page, '{ "transcripts": [', '{"keys": []}');
    expect($(page, '.summary').textContent).to.contain('not valid JSON');
    const { transcript } = await playShoe({ rounds: 1 });
    await pasteAndVerify(page, JSON.stringify(transcript), '');
    expect($(page, '.summary').textContent).to.contain('public keys');
    await pasteAndVerify(page, '{"hello": 1}', '{"keys": []}');
    expect($(page, '.summary').textContent).to.contain('not a transcript');
  });

  it('parses transcript files and key sets in every accepted shape', async () => {
    const { transcript, jwks } = await playShoe({ rounds: 1 });
    const wrapped = parseTranscriptText(JSON.stringify({ transcripts: [transcript], jwks }));
    expect(wrapped.ok && wrapped.value.transcripts.length === 1 && wrapped.value.jwks?.keys.length === 1).to.equal(true);
    const single = parseTranscriptText(JSON.stringify(transcript));
    expect(single.ok && single.value.jwks === null).to.equal(true);
    const bare = parseJwksText(JSON.stringify(jwks.keys[0]));
    expect(bare.ok && bare.value.keys.length === 1).to.equal(true);
    expect(parseJwksText('[]').ok).to.equal(false);
  });

  it('loads the JWKS from this site when served', async () => {
    const { transcript, jwks } = await playShoe({ rounds: 2 });
    const url = URL.createObjectURL(new Blob([JSON.stringify(jwks)], { type: 'application/json' }));
    const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: true, jwksUrl: url });
    await until(() => page.jwksText !== '', 'the JWKS to load');
    await page.updateComplete;
    expect($(page, '.note').textContent).to.contain('Loaded from');
    type($<HTMLTextAreaElement>(page, '#transcript'), JSON.stringify(transcript));
    const reports = await page.verify();
    expect(reports[0]!.ok).to.equal(true);
  });

  it('verifies a pb-fair-2 table file, every round', async () => {
    const { file, jwks } = await playTable({ rounds: 5 });
    const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false });
    await pasteAndVerify(page, JSON.stringify(file), JSON.stringify(jwks));
    expect($(page, '.summary').dataset.code).to.equal('ok');
    expect($(page, '.summary').classList.contains('ok')).to.equal(true);
    // The verdict line says what verified, never a bare mark in an empty box.
    expect($(page, '.summary').textContent.trim()).to.match(/^[✓…] \S.*5 rounds/);
    const report = $<PbVerifyReport>(page, 'pb-verify-report-v2');
    await report.updateComplete;
    expect($$(report, '.chip.verified')).to.have.length(5);
    expect($(report, '.headline').textContent).to.contain('1 shoe, 5 rounds');
  });

  it('names the beacon chain of a shared table file: quicknet as known public, a local beacon with a warning, in the page language', async () => {
    const read = async (name: string) => (await fetch(`/test/vectors/conformance/${name}`)).text();
    const jwks = await read('jwks.json');
    const chainOf = async (name: string, strings?: Partial<PanelStrings>) => {
      const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false, ...(strings ? { strings } : {}) });
      await pasteAndVerify(page, await read(name), jwks);
      expect($(page, '.summary').dataset.code).to.equal('ok');
      const report = $<PbVerifyReport>(page, 'pb-verify-report-v2');
      await report.updateComplete;
      return $$(report, '.chain');
    };
    const [quicknet] = await chainOf('158-shared-ok-quicknet.json');
    expect(quicknet!.dataset.known).to.equal('true');
    expect(quicknet!.textContent).to.contain(
      'Beacon chain (shoes 1): drand quicknet, a known public chain (52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971)',
    );
    const local = await chainOf('156-shared-ok-three-shoes.json');
    expect(local).to.have.length(1);
    expect(local[0]!.dataset.known).to.equal('false');
    expect(local[0]!.classList.contains('unknown')).to.equal(true);
    expect(local[0]!.getAttribute('role')).to.equal('alert');
    expect(local[0]!.textContent).to.contain('Beacon chain (shoes 1, 2, 3): UNKNOWN chain').and.to.contain('could know rounds before the close');
    const [ru] = await chainOf('156-shared-ok-three-shoes.json', panelsRu);
    expect(ru!.textContent).to.contain('НЕИЗВЕСТНАЯ цепочка');
  });

  it("flags a round the player's copy holds and the operator's file lacks (missing_in_operator_copy)", async () => {
    const { file, jwks } = await playTable({ rounds: 4, end: 'open' });
    // The operator's file without the last round (its acceptance and receipt): on its own, it verifies.
    const theirs = { version: file.version, records: file.records.slice(0, -2) };
    const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false });
    type($<HTMLTextAreaElement>(page, '#mine'), JSON.stringify(file));
    await pasteAndVerify(page, JSON.stringify(theirs), JSON.stringify(jwks));
    expect(page.check!.result.code).to.equal('ok');
    expect(page.check!.findings!.map((f) => [f.code, f.round])).to.deep.equal([
      ['missing_in_operator_copy', 4],
      ['missing_in_operator_copy', 4],
    ]);
    expect($(page, '.summary').classList.contains('fail')).to.equal(true);
    expect($(page, '.summary').dataset.findings).to.equal('2');
    const report = $<PbVerifyReport>(page, 'pb-verify-report-v2');
    await report.updateComplete;
    const found = $$(report, '.findings li');
    expect(found.map((li) => li.dataset.code)).to.deep.equal(['missing_in_operator_copy', 'missing_in_operator_copy']);
    expect(found[0]!.textContent).to.contain('Shoe 1, round 4').and.to.contain('missing');
  });

  it('fails a tampered pb-fair-2 file at the first bad record', async () => {
    const { file, jwks } = await playTable({ rounds: 3 });
    const bad = structuredClone(file);
    (bad.records[3]!.body as { balanceAfter: number }).balanceAfter += 5; // round 1's receipt, changed after signing
    const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false });
    await pasteAndVerify(page, JSON.stringify(bad), JSON.stringify(jwks));
    expect($(page, '.summary').dataset.code).to.equal('hash_mismatch');
    expect($(page, '.summary').classList.contains('fail')).to.equal(true);
  });
});
