/**
 * Small pieces of the table's input and fit that the element calls once the table is up (lazy
 * parts chunk, so the loader stays small): the keyboard shortcuts, full screen, and the measure of
 * the controls under the felt that sizes it to the viewport.
 */

/** What a key pressed on the table asks for: put the chip in hand back, repeat and deal, or nothing. */
export function tableShortcut(e: KeyboardEvent): 'drop' | 'repeatDeal' | null {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return null;
  const target = e.composedPath()[0];
  if (!(target instanceof HTMLElement)) return null;
  // Typing in a field (the fairness panel's seed) or reading a panel is not playing.
  if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return null;
  if (e.key === 'Escape') return 'drop';
  if ((e.key === 'r' || e.key === 'R') && !target.closest('dialog')) return 'repeatDeal';
  return null;
}

/** Whether this page lets the table go full screen (null: no button). */
export function fullscreenState(host: HTMLElement): boolean | null {
  return document.fullscreenEnabled && typeof host.requestFullscreen === 'function' ? document.fullscreenElement === host : null;
}

/** Full screen on the host element, or back; a refusal (no gesture, a permissions policy) changes nothing. */
export async function toggleFullscreen(host: HTMLElement): Promise<void> {
  try {
    if (document.fullscreenElement === host) await document.exitFullscreen();
    else await host.requestFullscreen({ navigationUI: 'hide' });
  } catch {
    // refused: the table stays as it is
  }
}

/**
 * The felt takes the height the viewport leaves once the bar and the panels' strip are counted
 * (styles/console.ts reads --pb-chrome), so the whole table fits a laptop or a phone held either way.
 * Returns the felt's new size when it changed.
 */
export function measureChrome(root: ParentNode): { width: number; height: number } | null {
  const table = root.querySelector<HTMLElement>('.table');
  if (!table) return null;
  let measured = 0;
  for (const el of table.querySelectorAll<HTMLElement>(':scope > .bar, :scope > .drawer-bar')) measured += el.offsetHeight;
  // Only ever more at about the same width: a scrollbar coming and going (a shorter felt, a wider
  // bar on one row fewer) would otherwise resize the felt back and forth, and a passing line (the
  // invitation to cut) going away does not make the felt jump.
  const width = table.offsetWidth;
  const sameWidth = Math.abs(width - Number(table.dataset.chromeWidth ?? -1000)) <= 32;
  const chrome = sameWidth ? Math.max(measured, Number(table.dataset.chrome ?? 0)) : measured;
  if (!sameWidth) table.dataset.chromeWidth = String(width);
  table.dataset.chrome = String(chrome);
  const value = `${chrome}px`;
  if (table.style.getPropertyValue('--pb-chrome') === value) return null;
  table.style.setProperty('--pb-chrome', value);
  // The felt's new size now, not at the next resize report: boxes and scene never lag a frame behind.
  const stage = table.querySelector('.stage')?.getBoundingClientRect();
  return stage && stage.width > 0 && stage.height > 0 ? { width: stage.width, height: stage.height } : null;
}

/** The table as its settings buttons change it (the element's public API). */
export interface ToolHost {
  speed: 'normal' | 'fast';
  mode: 'shoe' | 'reshuffle';
  toggleMuted(): void;
  toggleFullscreen(): Promise<void>;
}

/** A settings button: sound, speed, full screen, or the mode (a new session, so only between rounds). */
export function runTool(host: ToolHost, name: 'sound' | 'fast' | 'fullscreen' | 'mode', canBet: boolean): void {
  if (name === 'sound') host.toggleMuted();
  else if (name === 'fast') host.speed = host.speed === 'fast' ? 'normal' : 'fast';
  else if (name === 'fullscreen') void host.toggleFullscreen();
  else if (canBet) host.mode = host.mode === 'reshuffle' ? 'shoe' : 'reshuffle';
}
