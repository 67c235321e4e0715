/**
 * The table's sounds, synthesized with Web Audio (no audio files): short shaped noise for the cards,
 * bright clicks for the chips, a soft two-note chime for a win. Each cue schedules its own nodes on
 * `ctx` from time `at` into `out` and lets them end by themselves (nothing to stop or clean up).
 */
export const CUES = ['cardSlide', 'cardFlip', 'chipPlace', 'chipsPay', 'chipsCollect', 'win'] as const;
export type Cue = (typeof CUES)[number];

/** One second of white noise per context, made once (deterministic: no Math.random). */
const noiseByContext = new WeakMap<BaseAudioContext, AudioBuffer>();
function noise(ctx: BaseAudioContext): AudioBuffer {
  let buffer = noiseByContext.get(ctx);
  if (!buffer) {
    buffer = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
    const data = buffer.getChannelData(0);
    let seed = 0x2545f491;
    for (let i = 0; i < data.length; i++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      data[i] = ((seed >>> 0) / 4294967296) * 2 - 1;
    }
    noiseByContext.set(ctx, buffer);
  }
  return buffer;
}

/** A gain envelope: up to `peak` in `attack` s, then down exponentially over `decay` s. */
function envelope(ctx: BaseAudioContext, out: AudioNode, at: number, peak: number, attack: number, decay: number): GainNode {
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.linearRampToValueAtTime(peak, at + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, at + attack + decay);
  g.connect(out);
  return g;
}

/** Filtered noise: a swish (card on cloth) or a tick (card edge), `from` → `to` Hz. */
function swish(
  ctx: BaseAudioContext,
  out: AudioNode,
  at: number,
  o: { from: number; to: number; q: number; peak: number; attack: number; decay: number; type?: BiquadFilterType },
): void {
  const src = ctx.createBufferSource();
  src.buffer = noise(ctx);
  const filter = ctx.createBiquadFilter();
  filter.type = o.type ?? 'bandpass';
  filter.Q.value = o.q;
  filter.frequency.setValueAtTime(o.from, at);
  filter.frequency.exponentialRampToValueAtTime(o.to, at + o.attack + o.decay);
  src.connect(filter).connect(envelope(ctx, out, at, o.peak, o.attack, o.decay));
  // Start at a different place in the noise each time, so that repeats do not sound stamped.
  src.start(at, (at * 7.31) % 0.5, o.attack + o.decay + 0.02);
}

/** A clay chip hitting another: two inharmonic partials and a click. */
function clack(ctx: BaseAudioContext, out: AudioNode, at: number, pitch: number, peak: number): void {
  for (const [ratio, level] of [
    [1, 1],
    [1.48, 0.5],
  ] as const) {
    const osc = ctx.createOscillator();
    osc.type = 'triangle';
    osc.frequency.setValueAtTime(pitch * ratio, at);
    osc.connect(envelope(ctx, out, at, peak * level, 0.002, 0.05));
    osc.start(at);
    osc.stop(at + 0.08);
  }
  swish(ctx, out, at, { from: 6000, to: 4000, q: 0.8, peak: peak * 0.6, attack: 0.001, decay: 0.02, type: 'highpass' });
}

/** A soft bell note. */
function bell(ctx: BaseAudioContext, out: AudioNode, at: number, hz: number, peak: number): void {
  const osc = ctx.createOscillator();
  osc.type = 'sine';
  osc.frequency.setValueAtTime(hz, at);
  osc.connect(envelope(ctx, out, at, peak, 0.02, 0.9));
  osc.start(at);
  osc.stop(at + 1);
}

/** Schedules `cue` on `ctx` at time `at` (seconds, the context's clock) into `out`. */
export function scheduleCue(ctx: BaseAudioContext, out: AudioNode, cue: Cue, at: number): void {
  switch (cue) {
    case 'cardSlide':
      swish(ctx, out, at, { from: 3200, to: 900, q: 0.9, peak: 0.5, attack: 0.02, decay: 0.16 });
      break;
    case 'cardFlip':
      swish(ctx, out, at, { from: 2500, to: 5000, q: 1.4, peak: 0.45, attack: 0.004, decay: 0.05 });
      swish(ctx, out, at + 0.045, { from: 1800, to: 1200, q: 2, peak: 0.3, attack: 0.002, decay: 0.04 });
      break;
    case 'chipPlace':
      clack(ctx, out, at, 2300, 0.35);
      clack(ctx, out, at + 0.035, 2650, 0.2);
      break;
    case 'chipsPay':
      // A short run of chips counted out onto the felt.
      for (let i = 0; i < 5; i++) clack(ctx, out, at + i * 0.055, 2100 + ((i * 389) % 700), 0.26 - i * 0.02);
      break;
    case 'chipsCollect':
      swish(ctx, out, at, { from: 2200, to: 700, q: 0.7, peak: 0.35, attack: 0.03, decay: 0.25 });
      for (let i = 0; i < 3; i++) clack(ctx, out, at + 0.08 + i * 0.06, 1900 + i * 240, 0.16);
      break;
    case 'win':
      bell(ctx, out, at, 659.25, 0.16);
      bell(ctx, out, at + 0.12, 987.77, 0.13);
      break;
  }
}
