import { expect } from 'chai';
import { computeRoads, parseRoadResults, type RoadResult } from '../../shared/roads.ts';
import { PbScoreboard, roadResultsOf } from '../../widget/panels/index.ts';
import { playShoe } from './panels-fixture.ts';
import { $, $$, mount, unmountAll } from './panels-helpers.ts';

function results(letters: string): RoadResult[] {
  const parsed = parseRoadResults(letters);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** The drawn (column,row) of every mark of one road, from the SVG transforms. */
function cells(board: PbScoreboard, road: string): string[] {
  return $$<SVGGElement>(board, `.road.${road} .mark`).map((g) => {
    const [, x, y] = /translate\((\d+) (\d+)\)/.exec(g.getAttribute('transform') ?? '')!;
    return `${Number(x) / 10},${Number(y) / 10}`;
  });
}

describe('<pb-scoreboard>', () => {
  afterEach(unmountAll);

  it('draws the right number of cells on every road for a known sequence', async () => {
    const board = await mount<PbScoreboard>('pb-scoreboard', { results: results('BBBPPB') });
    // Big Road columns B×3, P×2, B×1. Big Eye Boy starts at column 2 row 2: the second P has a
    // cell level with it in column 1 (3 long): red; the new B column compares 2 with 3: blue.
    // Small Road starts at column 3 row 2 and Cockroach Pig at column 4 row 2: nothing yet.
    expect(cells(board, 'bead')).to.have.length(6);
    expect(cells(board, 'big-road')).to.deep.equal(['0,0', '0,1', '0,2', '1,0', '1,1', '2,0']);
    expect($$(board, '.road.big-eye-boy .eye.red')).to.have.length(1);
    expect($$(board, '.road.big-eye-boy .eye.blue')).to.have.length(1);
    expect(cells(board, 'small-road')).to.have.length(0);
    expect(cells(board, 'cockroach-pig')).to.have.length(0);
    expect($$(board, '.road.bead .letter').map((t) => t.textContent)).to.deep.equal(['B', 'B', 'B', 'P', 'P', 'B']);
  });

  it('matches computeRoads on every road for a real played shoe', async () => {
    const { transcript } = await playShoe();
    const seq = roadResultsOf(transcript.receipts);
    const roads = computeRoads(seq);
    const board = await mount<PbScoreboard>('pb-scoreboard', { results: seq });
    expect(cells(board, 'bead')).to.have.length(transcript.receipts.length);
    expect(cells(board, 'big-road')).to.have.length(roads.bigRoad.drawn.cells.length);
    expect(cells(board, 'big-eye-boy')).to.have.length(roads.bigEyeBoy.marks.length);
    expect(cells(board, 'small-road')).to.have.length(roads.smallRoad.marks.length);
    expect(cells(board, 'cockroach-pig')).to.have.length(roads.cockroachPig.marks.length);
    expect($$(board, '.road.bead .pair.player')).to.have.length(roads.stats.playerPairs);
    expect($$(board, '.road.bead .pair.banker')).to.have.length(roads.stats.bankerPairs);
    expect($$(board, '.road.bead .natural')).to.have.length(roads.stats.naturals);
    const stats = $$(board, '.stat .value').map((v) => Number(v.textContent));
    const s = roads.stats;
    expect(stats).to.deep.equal([s.banker, s.player, s.tie, s.rounds, s.naturals, s.playerPairs, s.bankerPairs]);
    expect($(board, '.top + .sr-only').textContent).to.contain(`Banker ${s.banker}, Player ${s.player}, Tie ${s.tie}`);
  });

  it('draws the dragon tail of B×9 then P×10 where the engine lays it out', async () => {
    const board = await mount<PbScoreboard>('pb-scoreboard', { results: results('BBBBBBBBB PPPPPPPPPP') });
    const banker = ['0,0', '0,1', '0,2', '0,3', '0,4', '0,5', '1,5', '2,5', '3,5'];
    const player = ['1,0', '1,1', '1,2', '1,3', '1,4', '2,4', '3,4', '4,4', '5,4', '6,4'];
    expect(cells(board, 'big-road')).to.deep.equal([...banker, ...player]);
    expect($(board, '.road.big-road svg').dataset.columns).to.equal('7');
    expect($$(board, '.road.big-road .ring.banker')).to.have.length(9);
    expect($$(board, '.road.big-road .ring.player')).to.have.length(10);
  });

  it('marks ties on the Big Road: leading ties on the first cell, a shoe of ties in the first cell', async () => {
    const board = await mount<PbScoreboard>('pb-scoreboard', { results: results('TTBT') });
    expect($$(board, '.road.big-road .ring')).to.have.length(1);
    expect($$(board, '.road.big-road .tie-slash')).to.have.length(1);
    expect($(board, '.road.big-road .tie-count').textContent).to.equal('3');
    board.results = results('TTT');
    await board.updateComplete;
    expect($$(board, '.road.big-road .ring')).to.have.length(0);
    expect($(board, '.road.big-road .tie-count').textContent).to.equal('3');
    expect($(board, '.road.big-road .sr-only').textContent).to.contain('3 ties before the first');
  });

  it('keeps the newest column in view as the shoe grows', async () => {
    const board = await mount<PbScoreboard>('pb-scoreboard', { results: results('BP'.repeat(40)) }, 'width: 320px');
    for (const scroller of $$(board, '.scroller')) {
      if (scroller.scrollWidth <= scroller.clientWidth) continue;
      expect(scroller.scrollLeft, scroller.parentElement!.className).to.be.greaterThan(0);
      expect(scroller.scrollLeft + scroller.clientWidth).to.be.at.least(scroller.scrollWidth - 1);
    }
    const bead = $(board, '.road.bead .scroller');
    expect(bead.scrollWidth).to.be.greaterThan(bead.clientWidth);
  });

  it('"ask banker" flashes the marks a Banker win would add, and says them for screen readers', async () => {
    const board = await mount<PbScoreboard>('pb-scoreboard', { results: results('BBPPBPBB') });
    const roads = computeRoads(results('BBPPBPBB'));
    const ask = $<HTMLButtonElement>(board, '.ask-button.banker');
    expect(ask.getAttribute('aria-pressed')).to.equal('false');
    ask.click();
    await board.updateComplete;
    expect(ask.getAttribute('aria-pressed')).to.equal('true');
    expect($$(board, '.road.bead .mark.ask')).to.have.length(1);
    expect($$(board, '.road.big-road .mark.ask')).to.have.length(1);
    for (const [road, name] of [
      ['big-eye-boy', 'bigEyeBoy'],
      ['small-road', 'smallRoad'],
      ['cockroach-pig', 'cockroachPig'],
    ] as const) {
      expect($$(board, `.road.${road} .mark.ask`), road).to.have.length(roads.predictions.banker[name] ? 1 : 0);
    }
    expect(ask.textContent).to.contain(`Big Eye Boy ${roads.predictions.banker.bigEyeBoy ?? 'nothing yet'}`);
    ask.click();
    await board.updateComplete;
    expect($$(board, '.mark.ask')).to.have.length(0);
  });

  it('gives screen readers a table of rounds and a summary per road', async () => {
    const board = await mount<PbScoreboard>('pb-scoreboard', { results: results('BPT') });
    expect($$(board, '.road.bead table tbody tr')).to.have.length(3);
    expect($(board, '.road.big-road .sr-only').textContent).to.contain('Banker 1; Player 1 with 1 ties');
    for (const svg of $$(board, 'svg')) expect(svg.getAttribute('aria-hidden')).to.equal('true');
  });
});
