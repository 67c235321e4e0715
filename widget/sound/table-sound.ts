/**
 * The table's sound effects. Browsers allow audio only after a user gesture, and an AudioContext
 * made earlier starts suspended (and warns): so nothing is created until `unlock()`, which the
 * element calls from its first pointer or key event; `play()` before that is a silent no-op.
 */
import { type Cue, scheduleCue } from './cues.ts';

/** Where the element keeps the player's mute choice (localStorage). */
export const SOUND_STORAGE_KEY = 'punto-banco:sound-muted';

/** The saved mute choice; unmuted when nothing (or nothing readable) is saved. */
export function loadMuted(storage: Pick<Storage, 'getItem'> | null | undefined): boolean {
  try {
    return storage?.getItem(SOUND_STORAGE_KEY) === '1';
  } catch {
    return false; // storage blocked (privacy settings, sandboxed frames)
  }
}

/** Saves the mute choice; a blocked storage only loses the choice. */
export function saveMuted(storage: Pick<Storage, 'setItem'> | null | undefined, muted: boolean): void {
  try {
    storage?.setItem(SOUND_STORAGE_KEY, muted ? '1' : '0');
  } catch {
    // Nothing to do: the choice lasts for this page only.
  }
}

type ContextFactory = () => BaseAudioContext;

/** The page's AudioContext constructor, read when needed (not at import). */
function defaultFactory(): ContextFactory | null {
  const g = globalThis as { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext };
  const Ctor = g.AudioContext ?? g.webkitAudioContext;
  return Ctor ? () => new Ctor({ latencyHint: 'interactive' }) : null;
}

export class TableSound {
  /** While true, play() does nothing (the element persists it with saveMuted). */
  muted: boolean;
  private readonly factory: ContextFactory | null;
  private readonly volume: number;
  private ctx: BaseAudioContext | null = null;
  private master: GainNode | null = null;

  /** `createContext` is for tests (an OfflineAudioContext); the page's AudioContext otherwise. */
  constructor(opts: { muted?: boolean; volume?: number; createContext?: ContextFactory } = {}) {
    this.muted = opts.muted ?? false;
    this.factory = opts.createContext ?? defaultFactory();
    this.volume = opts.volume ?? 0.6;
  }

  /** True once unlock() has made the audio context. */
  get unlocked(): boolean {
    return this.ctx !== null;
  }

  /** Makes (or resumes) the audio context. Call it from a user gesture (pointerdown, keydown). */
  unlock(): void {
    if (!this.ctx) {
      if (!this.factory) return;
      try {
        this.ctx = this.factory();
      } catch {
        return; // no audio on this page (too many contexts, disabled): stay silent
      }
      this.master = this.ctx.createGain();
      this.master.gain.value = this.volume;
      this.master.connect(this.ctx.destination);
    }
    const live = this.ctx as AudioContext;
    if (typeof live.resume === 'function' && live.state === 'suspended' && typeof live.close === 'function') void live.resume().catch(() => undefined);
  }

  /** Plays `cue` now (or `delay` seconds from now). Returns whether anything was scheduled. */
  play(cue: Cue, delay = 0): boolean {
    if (this.muted || !this.ctx || !this.master) return false;
    scheduleCue(this.ctx, this.master, cue, this.ctx.currentTime + Math.max(0, delay));
    return true;
  }

  /** Closes the audio context (the element's disconnect). */
  destroy(): void {
    const live = this.ctx as AudioContext | null;
    this.ctx = null;
    this.master = null;
    if (live && typeof live.close === 'function') void live.close().catch(() => undefined);
  }
}
