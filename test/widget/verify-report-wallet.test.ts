/** The verify page on a wallet table (FAIRNESS.md §B15): every wallet transaction listed, to hold against the casino statement. */
import { expect } from 'chai';
import type { PbVerifyPage } from '../../widget/panels/index.ts';
import type { PbVerifyReport } from '../../widget/panels/verify-report.ts';
import type { PanelStrings } from '../../widget/panels/strings.ts';
import { panelsRu } from '../../widget/i18n/panels-ru.ts';
import { $, $$, mount, type, unmountAll, until } from './panels-helpers.ts';

const read = async (name: string) => (await fetch(`/test/vectors/conformance/${name}`)).text();

/** Verifies a conformance file on the page and returns its pb-fair-2 report element. */
async function reportOf(name: string, strings?: Partial<PanelStrings>): Promise<PbVerifyReport> {
  const page = await mount<PbVerifyPage>('pb-verify-page', { autoFetchJwks: false, ...(strings ? { strings } : {}) });
  type($<HTMLTextAreaElement>(page, '#transcript'), await read(name));
  type($<HTMLTextAreaElement>(page, '#jwks'), await read('jwks.json'));
  await page.updateComplete;
  $<HTMLButtonElement>(page, 'button.verify').click();
  await until(() => page.shadowRoot!.querySelector('.summary'), 'a verification result');
  await page.updateComplete;
  const report = $<PbVerifyReport>(page, 'pb-verify-report-v2');
  await report.updateComplete;
  return report;
}

describe('<pb-verify-report-v2> on a wallet table', () => {
  afterEach(unmountAll);

  it('lists every debit, credit and rollback with its round, amount in the currency and id', async () => {
    const report = await reportOf('246-wallet-ok-eur.json');
    expect($(report, '.wallet').dataset.currency).to.equal('EUR');
    expect($(report, '.wallet p').textContent).to.contain('EUR').and.contain('operator demo').and.contain('player alice');
    const rows = $$(report, '.wallet tbody tr');
    expect(rows).to.have.length(30);
    const first = rows[0]!;
    expect(first.dataset.kind).to.equal('debit');
    expect(first.dataset.transaction).to.equal('pbw1-19003620c529371a1558c2a8154afbf6');
    expect(first.textContent).to.contain('conformance/1/1').and.contain('1.15 EUR').and.contain('debit');
    const rollback = rows.find((r) => r.dataset.kind === 'rollback')!;
    expect(rollback.textContent).to.contain('conformance/1/6').and.contain('3.90 EUR').and.contain('pbw1-b8ebe8c0f0d8cf1b3ba088a6f7128501');
  });

  it('speaks the page language and the currency digits (BHD: three decimals)', async () => {
    const report = await reportOf('248-wallet-ok-bhd.json', panelsRu);
    expect($(report, '.wallet p').textContent).to.contain('Операции кошелька в BHD');
    const first = $$(report, '.wallet tbody tr')[0]!;
    expect(first.textContent).to.contain('0.345 BHD').and.contain('списание');
  });

  it('shows no wallet section for a play-money table', async () => {
    const report = await reportOf('001-ok-three-shoes.json');
    expect(report.shadowRoot!.querySelector('.wallet')).to.equal(null);
  });
});
