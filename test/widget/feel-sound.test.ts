/** The table's sound and the dealer's voice, on their own. */
import { expect } from 'chai';
import { CUES, DEALER_WORDS, DealerVoice, loadMuted, saveMuted, SOUND_STORAGE_KEY, type Speech, TableSound } from '../../widget/sound/index.ts';
import { FakeUtterance } from './helpers.ts';

/** Renders what `play` scheduled on a fresh offline context; returns the peak sample. */
async function peakOf(play: (sound: TableSound) => void, muted = false): Promise<number> {
  const ctx = new OfflineAudioContext(1, 44_100 * 1.2, 44_100);
  const sound = new TableSound({ muted, createContext: () => ctx });
  sound.unlock();
  play(sound);
  const rendered = await ctx.startRendering();
  let peak = 0;
  for (const v of rendered.getChannelData(0)) peak = Math.max(peak, Math.abs(v));
  return peak;
}

describe('TableSound', () => {
  it('makes no AudioContext before unlock(), and exactly one then', () => {
    const g = globalThis as { AudioContext?: unknown };
    const real = g.AudioContext;
    let made = 0;
    class Counting {
      readonly destination = {};
      readonly state = 'running';
      currentTime = 0;
      constructor() {
        made++;
      }
      createGain() {
        return { gain: { value: 1 }, connect: () => undefined };
      }
    }
    g.AudioContext = Counting;
    try {
      const sound = new TableSound();
      for (const cue of CUES) expect(sound.play(cue), cue).to.equal(false);
      expect(made).to.equal(0);
      expect(sound.unlocked).to.equal(false);
      sound.unlock();
      sound.unlock();
      expect(made).to.equal(1);
      expect(sound.unlocked).to.equal(true);
    } finally {
      g.AudioContext = real;
    }
  });

  for (const cue of CUES) {
    it(`${cue}: schedules audible sound once unlocked`, async () => {
      expect(await peakOf((s) => expect(s.play(cue)).to.equal(true))).to.be.greaterThan(0.01);
    });
  }

  it('plays nothing while muted, and again once unmuted', async () => {
    expect(await peakOf((s) => CUES.forEach((c) => expect(s.play(c)).to.equal(false)), true)).to.equal(0);
    expect(
      await peakOf((s) => {
        s.muted = true;
        s.muted = false;
        s.play('chipPlace');
      }),
    ).to.be.greaterThan(0.01);
  });

  it('keeps the mute choice under its storage key, and survives a blocked storage', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(loadMuted(storage)).to.equal(false);
    saveMuted(storage, true);
    expect(store.get(SOUND_STORAGE_KEY)).to.equal('1');
    expect(loadMuted(storage)).to.equal(true);
    saveMuted(storage, false);
    expect(loadMuted(storage)).to.equal(false);
    const blocked = {
      getItem: (): string => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: (): void => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    expect(loadMuted(blocked)).to.equal(false);
    expect(() => saveMuted(blocked, true)).to.not.throw();
    expect(loadMuted(null)).to.equal(false);
  });
});

/** A speechSynthesis that records what it is asked to say. */
function fakeSpeech(voices: { lang: string; name: string }[] = []): Speech & { said: SpeechSynthesisUtterance[]; cancels: number } {
  const Utterance = FakeUtterance;
  const fake = {
    said: [] as SpeechSynthesisUtterance[],
    cancels: 0,
    synth: {
      speak: (u: SpeechSynthesisUtterance) => void fake.said.push(u),
      cancel: () => void fake.cancels++,
      getVoices: () => voices as unknown as SpeechSynthesisVoice[],
    },
    Utterance: Utterance as unknown as Speech['Utterance'],
  };
  return fake;
}

describe('DealerVoice', () => {
  it('calls «Пунто – банко» and the result in the table language', () => {
    const speech = fakeSpeech([
      { lang: 'en-US', name: 'en' },
      { lang: 'ru-RU', name: 'ru' },
    ]);
    const voice = new DealerVoice({ language: 'ru', speech });
    expect(voice.callDeal()).to.equal(true);
    expect(voice.callResult('banker')).to.equal(true);
    expect(speech.said.map((u) => [u.text, u.lang])).to.deep.equal([
      ['Пунто – банко, пунто – банко', 'ru-RU'],
      ['Выиграл Банкир', 'ru-RU'], // the felt's words: «Банкир», not «Банко»
    ]);
    expect((speech.said[0]!.voice as unknown as { name: string }).name).to.equal('ru');
    voice.language = 'el';
    voice.callResult('tie');
    expect(speech.said.at(-1)!.text).to.equal(DEALER_WORDS.el.result.tie);
    expect(speech.said.at(-1)!.lang).to.equal('el-GR');
    voice.language = 'it';
    voice.callResult('player');
    expect(speech.said.at(-1)!.text).to.equal('Vince Punto');
  });

  it('says nothing while muted, and nothing (without failing) where speechSynthesis is absent', () => {
    const speech = fakeSpeech();
    const voice = new DealerVoice({ language: 'en', speech, muted: true });
    expect(voice.callDeal()).to.equal(false);
    expect(speech.said).to.have.length(0);
    const none = new DealerVoice({ language: 'ru', speech: null });
    expect(none.callDeal()).to.equal(false);
    expect(() => none.stop()).to.not.throw();
  });

  it('every language has its words', () => {
    for (const words of Object.values(DEALER_WORDS)) {
      expect(words.deal.toLowerCase()).to.match(/punto|пунто/);
      expect(Object.values(words.result).every((w) => w.length > 0)).to.equal(true);
    }
  });
});
