// The host page's own glue: language, room, table and mode pickers, and a log of settled rounds from the
// element's events. Nothing here is needed to embed the table.
const table = document.getElementById('table');
const lang = document.getElementById('lang-select');
const room = document.getElementById('room-select');
const mode = document.getElementById('mode-select');
const shared = document.getElementById('table-select');
const log = document.getElementById('round-log');

lang.addEventListener('change', () => {
  table.lang = lang.value;
  document.documentElement.lang = lang.value;
});
room.addEventListener('change', () => table.setAttribute('room', room.value));
// A new mode is a new session, as a new room is; the player can also switch it on the table.
mode.addEventListener('change', () => table.setAttribute('mode', mode.value));
// A shared table (many players, one deal for all) is joined by its id; none: the private table.
shared.addEventListener('change', () => {
  if (shared.value) table.setAttribute('table', shared.value);
  else table.removeAttribute('table');
  if (shared.value) room.value = shared.value.split('/')[0];
  mode.disabled = Boolean(shared.value);
  // At a shared table, Deal is Place bet and the round is dealt for everyone at the close.
  document.getElementById('how-deal').hidden = Boolean(shared.value);
  document.getElementById('how-place').hidden = !shared.value;
});
new MutationObserver(() => (mode.value = table.getAttribute('mode') ?? 'shoe')).observe(table, { attributes: true, attributeFilter: ['mode'] });

const NAMES = { player: 'Player', banker: 'Banker', tie: 'Tie' };
table.addEventListener('pb-round-settled', (event) => {
  const r = event.detail.body;
  const item = document.createElement('li');
  const net = (r.returned - r.staked) / 1000;
  const signed = `${net >= 0 ? '+' : ''}${net.toFixed(2)}`;
  // A shared table's settlement names the round, not its cards (they are in the table's deal).
  if (r.type === 'settlement') item.textContent = `#${r.round} shared table · ${signed}`;
  else {
    item.className = r.outcome;
    item.textContent = `#${r.round} ${NAMES[r.outcome]} ${r.playerTotal}–${r.bankerTotal} · ${signed}`;
  }
  log.querySelector('.empty')?.remove();
  log.prepend(item);
  while (log.children.length > 6) log.lastElementChild.remove();
});
