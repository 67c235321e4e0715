/**
 * <pb-road-glance>: the Bead Plate and Big Road under the felt draw exactly the scoreboard's roads
 * (computeRoads of shared/roads.ts), keep the newest column in view when the shoe outgrows the room,
 * and name the shoe's counts for screen readers.
 */
import { expect } from 'chai';
import { computeRoads, parseRoadResults, type RoadResult } from '../../shared/roads.ts';
import { PbRoadGlance } from '../../widget/panels/road-glance.ts';
import { $$, mount, unmountAll } from './panels-helpers.ts';

function results(letters: string): RoadResult[] {
  const parsed = parseRoadResults(letters);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** The drawn (column,row) of every mark of one board, from the SVG transforms. */
function cells(glance: PbRoadGlance, board: string): string[] {
  return $$<SVGGElement>(glance, `.board.${board} .mark`).map((g) => {
    const [, x, y] = /translate\((\d+) (\d+)\)/.exec(g.getAttribute('transform') ?? '')!;
    return `${Number(x) / 10},${Number(y) / 10}`;
  });
}

describe('<pb-road-glance>', () => {
  afterEach(unmountAll);

  it('draws the scoreboard’s Bead Plate and Big Road, cell for cell, from computeRoads', async () => {
    const seq = results('BBBPPBTPB');
    const glance = await mount<PbRoadGlance>('pb-road-glance', { results: seq });
    const roads = computeRoads(seq);
    expect(cells(glance, 'bead')).to.deep.equal(roads.beadPlate.map((c) => `${c.column},${c.row}`));
    expect(cells(glance, 'big-road')).to.deep.equal(roads.bigRoad.drawn.cells.map((c) => `${c.column},${c.row}`));
    expect(cells(glance, 'big-road')).to.deep.equal(['0,0', '0,1', '0,2', '1,0', '1,1', '2,0', '3,0', '4,0']);
    // The tie is a slash on the Big Road (the second P's predecessor B), a disc on the Bead Plate.
    expect($$(glance, '.big-road .tie-slash')).to.have.length(1);
    expect($$(glance, '.bead .disc.tie')).to.have.length(1);
    const label = glance.shadowRoot!.querySelector('[role="img"]')!.getAttribute('aria-label')!;
    expect(label).to.contain('9 rounds').and.to.contain('Banker 5').and.to.contain('Player 3').and.to.contain('Tie 1');
  });

  it('an empty shoe still shows both boards, and says there are no rounds', async () => {
    const glance = await mount<PbRoadGlance>('pb-road-glance', { results: [] });
    expect($$(glance, '.board')).to.have.length(2);
    expect($$(glance, '.mark')).to.have.length(0);
    expect(glance.shadowRoot!.querySelector('[role="img"]')!.getAttribute('aria-label')).to.contain('No rounds yet');
  });

  it('keeps the newest column in view when the shoe outgrows its room', async () => {
    // 60 alternating results: 60 Big Road columns, far wider than 200 px of 6 px cells.
    const seq = results('BP'.repeat(30));
    const glance = await mount<PbRoadGlance>('pb-road-glance', { results: seq });
    glance.style.width = '200px';
    await glance.updateComplete;
    const board = glance.shadowRoot!.querySelector<HTMLElement>('.board.big-road')!;
    const box = board.getBoundingClientRect();
    const marks = $$<SVGGElement>(glance, '.board.big-road .mark');
    expect(marks).to.have.length(60);
    const last = marks[marks.length - 1]!.getBoundingClientRect();
    const first = marks[0]!.getBoundingClientRect();
    expect(last.right, 'the newest mark inside the board').to.be.at.most(box.right + 0.5);
    expect(last.left).to.be.at.least(box.left - 0.5);
    expect(first.right, 'the oldest cut off on the left').to.be.at.most(box.left);
    // Drawn at the glance's cell size: six rows of 6 px.
    const svg = board.querySelector('svg')!.getBoundingClientRect();
    expect(svg.height).to.be.closeTo(36, 0.5);
  });
});
