/**
 * The dealer's voice: «пунто – банко, пунто – банко» as the cards go out, one word a card (rule
 * text 001: the dealer runs the game by voice, hence the name), then the result in the felt's own
 * words («Выиграл Банкир» where the felt says «Банкир»), in the table's language, through the
 * browser's speechSynthesis. Silent when muted or when the browser has none.
 */
import type { Outcome } from '../../shared/round.ts';
import type { Language } from '../i18n/languages.ts';

export interface DealerWords {
  /** The whole call at once, where the cards land at once (reduced motion). */
  deal: string;
  /** The call of one card as it goes out, by the hand it goes to (text 001's «пунто – банко»). */
  card: Record<'player' | 'banker', string>;
  /** The result, in the words the felt's banner uses. */
  result: Record<Outcome, string>;
  /** Before the deal of the shoe's last hand (the cut card is out, or will be in this round). */
  lastHand: string;
}

/** What the dealer says, per language: the call of text 001, adapted. */
export const DEALER_WORDS: Readonly<Record<Language, DealerWords>> = {
  ru: {
    deal: 'Пунто – банко, пунто – банко',
    card: { player: 'Пунто', banker: 'Банко' },
    result: { player: 'Выиграл Игрок', banker: 'Выиграл Банкир', tie: 'Ничья' },
    lastHand: 'Последняя раздача башмака',
  },
  it: {
    deal: 'Punto – banco, punto – banco',
    card: { player: 'Punto', banker: 'Banco' },
    result: { player: 'Vince Punto', banker: 'Vince Banco', tie: 'Patta' },
    lastHand: 'Ultima mano del sabot',
  },
  el: {
    deal: 'Punto – banco, punto – banco',
    card: { player: 'Punto', banker: 'Banco' },
    result: { player: 'Κερδίζει το Punto', banker: 'Κερδίζει το Banco', tie: 'Ισοπαλία' },
    lastHand: 'Τελευταίο χέρι του σαμπό',
  },
  en: {
    deal: 'Punto – banco, punto – banco',
    card: { player: 'Punto', banker: 'Banco' },
    result: { player: 'Player wins', banker: 'Banker wins', tie: 'Tie' },
    lastHand: 'Last hand of the shoe',
  },
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

  /** The dealer calls the whole deal at once (`queue`: after what is being said). Returns whether anything was said. */
  callDeal(queue = false): boolean {
    return this.say(DEALER_WORDS[this.language].deal, queue);
  }

  /** The dealer calls one card as it goes out («Пунто», «Банко»), after whatever is being said. */
  callCard(hand: 'player' | 'banker'): boolean {
    return this.say(DEALER_WORDS[this.language].card[hand], true);
  }

  /** The dealer announces the shoe's last hand. */
  callLastHand(): boolean {
    return this.say(DEALER_WORDS[this.language].lastHand);
  }

  /** The dealer announces the result. Returns whether anything was said. */
  callResult(outcome: Outcome): boolean {
    return this.say(DEALER_WORDS[this.language].result[outcome]);
  }

  /** Stops whatever is being said (mute, language switch, teardown). */
  stop(): void {
    this.speech?.synth.cancel();
  }

  /** `queue`: after what is being said (the cards' calls follow each other), else instead of it. */
  private say(text: string, queue = false): boolean {
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
    if (!queue) speech.synth.cancel();
    speech.synth.speak(u);
    return true;
  }
}
