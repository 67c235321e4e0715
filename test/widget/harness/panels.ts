/**
 * The screenshot harness: mounts one panel (or all) with a real played shoe. `?view=` picks what:
 * scoreboard, scoreboard-partial, scoreboard-empty, scoreboard-dragon, history, fairness-before, fairness-during,
 * fairness-after, help, verify-page, verify-page-failed, all. Sets `data-ready` on <body> once everything has drawn.
 */
import '../../../widget/panels/index.ts';
import { roadResultsOf } from '../../../widget/panels/index.ts';
import { parseRoadResults } from '../../../shared/roads.ts';
import { cutRange } from '../../../shared/fairness/index.ts';
import { playShoe, roundsOf, tamperedCopy, TEST_LIMITS } from '../panels-fixture.ts';

const view = new URLSearchParams(location.search).get('view') ?? 'all';
const root = document.getElementById('root')!;

function add(tag: string, props: Record<string, unknown>): HTMLElement {
  const el = document.createElement(tag);
  Object.assign(el, props);
  root.append(el);
  return el;
}

async function main(): Promise<void> {
  const played = await playShoe({ decks: 6 });
  const partial = await playShoe({ decks: 6, rounds: 23, reveal: false });
  const { transcript, jwks } = played;
  const euro = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });
  const formatAmount = (minor: number) => euro.format(minor / 1000);
  const show = (name: string) => view === 'all' || view === name;

  if (show('scoreboard')) add('pb-scoreboard', { results: roadResultsOf(transcript.receipts) });
  if (show('scoreboard-partial')) add('pb-scoreboard', { results: roadResultsOf(partial.transcript.receipts) });
  if (show('scoreboard-empty')) add('pb-scoreboard', { results: [] });
  if (show('scoreboard-dragon')) {
    const seq = parseRoadResults('TTBTBBBBBBBBPPPPPPPPPPBTPBPBBPPBT');
    if (seq.ok) add('pb-scoreboard', { results: seq.value });
  }
  if (show('history')) {
    const el = add('pb-history', { rounds: roundsOf(partial.transcript).slice(-7), formatAmount });
    await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    el.shadowRoot?.querySelector('details')?.setAttribute('open', '');
  }
  if (show('fairness-before')) {
    add('pb-fairness', {
      commitment: transcript.commitment,
      status: 'awaiting-start',
      rounds: 0,
      jwks,
      cutRange: cutRange(transcript.commitment.body.params),
    });
  }
  if (show('fairness-during')) {
    add('pb-fairness', {
      commitment: partial.transcript.commitment,
      status: 'in-play',
      rounds: partial.transcript.receipts.length,
      transcript: partial.transcript,
      jwks: partial.jwks,
      allowEndShoe: true,
    });
  }
  if (show('fairness-after')) {
    const el = add('pb-fairness', { commitment: transcript.commitment, status: 'ended', rounds: transcript.receipts.length, transcript, jwks });
    await (el as unknown as { verify(): Promise<unknown> }).verify();
  }
  if (show('help')) add('pb-help', { decks: 8, limits: TEST_LIMITS, roomName: 'Hall 2', formatAmount });
  if (show('verify-page')) add('pb-verify-page', {});
  if (show('verify-page-failed')) {
    const el = add('pb-verify-page', {
      transcriptText: JSON.stringify({ transcripts: [tamperedCopy(partial.transcript, 7)] }, null, 2),
      jwksText: JSON.stringify(partial.jwks, null, 2),
    });
    await (el as unknown as { verify(): Promise<unknown> }).verify();
  }
  await new Promise((r) => setTimeout(r, 100));
  document.body.dataset.ready = '1';
}

main().catch((err) => {
  document.body.dataset.ready = 'error';
  root.textContent = String(err?.stack ?? err);
});
