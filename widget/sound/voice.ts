/**
 * The dealer's voice: «Пунто – банко, пунто – банко» as the cards go out (rule text 001: the dealer
 * runs the game by voice, hence the name), then the result in a word or two, in the table's
 * language, through the browser's speechSynthesis. Silent when muted or when the browser has none.
 */
import type { Outcome } from '../../shared/round.ts';
import type { Language } from '../i18n/languages.ts';

export interface DealerWords {
  /** Called as the four first cards go out. */
  deal: string;
  result: Record<Outcome, string>;
}

/** What the dealer says, per language: the call of text 001, adapted. */
export const DEALER_WORDS: Readonly<Record<Language, DealerWords>> = {
  ru: { deal: 'Пунто – банко, пунто – банко', result: { player: 'Пунто выиграл', banker: 'Банко выиграл', tie: 'Ничья' } },
  it: { deal: 'Punto – banco, punto – banco', result: { player: 'Vince punto', banker: 'Vince banco', tie: 'Patta' } },
  el: { deal: 'Punto – banco, punto – banco', result: { player: 'Κερδίζει το Punto', banker: 'Κερδίζει το Banco', tie: 'Ισοπαλία' } },
  en: { deal: 'Punto – banco, punto – banco', result: { player: 'Player wins', banker: 'Banker wins', tie: 'Tie' } },
};

/** The BCP 47 tag a voice is chosen by. */
const VOICE_LANG: Readonly<Record<Language, string>> = { ru: 'ru-RU', it: 'it-IT', el: 'el-GR', en: 'en-GB' };

/** The parts of the Web Speech API the voice uses (the page's, or a test's). */
export interface Speech {
  synth: Pick<SpeechSynthesis, 'speak' | 'cancel' | 'getVoices'>;
  Utterance: new (text: string) => SpeechSynthesisUtterance;
}

function pageSpeech(): Speech | null {
  const g = globalThis as { speechSynthesis?: SpeechSynthesis; SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance };
  return g.speechSynthesis && g.SpeechSynthesisUtterance ? { synth: g.speechSynthesis, Utterance: g.SpeechSynthesisUtterance } : null;
}

export class DealerVoice {
  muted: boolean;
  language: Language;
  private readonly speech: Speech | null;

  constructor(opts: { language: Language; muted?: boolean; speech?: Speech | null }) {
    this.language = opts.language;
    this.muted = opts.muted ?? false;
    this.speech = opts.speech === undefined ? pageSpeech() : opts.speech;
  }

  /** The dealer calls the deal. Returns whether anything was said. */
  callDeal(): boolean {
    return this.say(DEALER_WORDS[this.language].deal);
  }

  /** The dealer announces the result. Returns whether anything was said. */
  callResult(outcome: Outcome): boolean {
    return this.say(DEALER_WORDS[this.language].result[outcome]);
  }

  /** Stops whatever is being said (mute, language switch, teardown). */
  stop(): void {
    this.speech?.synth.cancel();
  }

  private say(text: string): boolean {
    const speech = this.speech;
    if (this.muted || !speech) return false;
    const u = new speech.Utterance(text);
    const tag = VOICE_LANG[this.language];
    u.lang = tag;
    u.rate = 1.1;
    u.volume = 0.8;
    // A voice of the language if the system has one; else the browser picks by `lang`.
    const voice = speech.synth.getVoices().find((v) => v.lang === tag) ?? speech.synth.getVoices().find((v) => v.lang.startsWith(`${this.language}-`));
    if (voice) u.voice = voice;
    // A new call replaces a call still being spoken: the table never lags behind its own voice.
    speech.synth.cancel();
    speech.synth.speak(u);
    return true;
  }
}
