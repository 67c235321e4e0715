/**
 * The table's sound as the element uses it: the synthesized effects and the dealer's voice
 * (widget/sound), loaded lazily after the table boots — never part of the loader. No audio context
 * exists before the player's first gesture on the table (browsers refuse one anyway): `unlock`
 * makes it then. The player's mute choice is remembered in `localStorage`.
 */
import type { Outcome } from '../../shared/round.ts';
import type { Language } from '../i18n/languages.ts';
import type { SceneCue } from '../scene/types.ts';
import type { DealerVoice, TableSound } from '../sound/index.ts';

type SoundModule = typeof import('../sound/index.ts');

/** The page's localStorage, or null where reading it throws (sandboxed iframe, blocked storage). */
function localStore(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export class TableAudio {
  #module: SoundModule | null = null;
  #sound: TableSound | null = null;
  #voice: DealerVoice | null = null;
  #muted = false;
  #language: Language;
  /** The player touched the table before the module arrived: unlock as soon as it does. */
  #wantsUnlock = false;

  constructor(language: Language) {
    this.#language = language;
  }

  /** The player's remembered choice, once the module is here (null before: the page decides). */
  rememberedMuted(): boolean | null {
    return this.#module ? this.#module.loadMuted(localStore()) : null;
  }

  /** Loads the sound module and makes the (silent, context-less) players. */
  async load(muted: boolean): Promise<void> {
    if (this.#module) return;
    const m = (this.#module = await import('../sound/index.ts'));
    this.#muted = muted;
    this.#sound = new m.TableSound({ muted });
    this.#voice = new m.DealerVoice({ language: this.#language, muted });
    if (this.#wantsUnlock) this.unlock();
  }

  /**
   * Loads the module; returns true when the table should be muted: the player's remembered choice,
   * unless the page set `muted` itself (`pageMuted`). No sound chunk: silent, and false.
   */
  async start(muted: boolean, pageMuted: boolean): Promise<boolean> {
    try {
      await this.load(muted);
    } catch {
      return false;
    }
    const mute = muted || (!pageMuted && this.rememberedMuted() === true);
    this.setMuted(mute, false);
    return mute && !muted;
  }

  /** From a gesture (pointerdown, keydown): the audio context may now be made. */
  unlock(): void {
    this.#wantsUnlock = true;
    if (!this.#muted) this.#sound?.unlock();
  }

  get muted(): boolean {
    return this.#muted;
  }

  /** Mutes or unmutes; `remember`: the player chose it (kept for the next visit). */
  setMuted(muted: boolean, remember: boolean): void {
    this.#muted = muted;
    if (this.#sound) this.#sound.muted = muted;
    if (this.#voice) {
      this.#voice.muted = muted;
      if (muted) this.#voice.stop();
    }
    if (!muted && this.#wantsUnlock) this.#sound?.unlock();
    if (remember) this.#module?.saveMuted(localStore(), muted);
  }

  setLanguage(language: Language): void {
    this.#language = language;
    if (this.#voice) {
      this.#voice.stop();
      this.#voice.language = language;
    }
  }

  /** The scene reached a sound's moment: 'result' is the dealer's call, the rest are effects. */
  cue(cue: SceneCue, outcome: Outcome | null): void {
    if (cue === 'result') {
      if (outcome) this.#voice?.callResult(outcome);
    } else this.#sound?.play(cue);
  }

  /** The dealer calls the deal. */
  callDeal(): void {
    this.#voice?.callDeal();
  }

  destroy(): void {
    this.#voice?.stop();
    this.#sound?.destroy();
    this.#sound = null;
    this.#voice = null;
    this.#module = null;
  }
}
