/**
 * The table's sound: synthesized effects (TableSound) and the dealer's voice (DealerVoice). Loaded
 * lazily by the element, like the scene: never part of the loader.
 */
export { CUES, type Cue } from './cues.ts';
export { loadMuted, saveMuted, SOUND_STORAGE_KEY, TableSound } from './table-sound.ts';
export { DEALER_WORDS, DealerVoice, type DealerWords, type Speech } from './voice.ts';
