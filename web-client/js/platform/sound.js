// Short synthesised sounds (no audio files): the turn chime, a placement, a score and the
// clock's 10-second warning. All behind one mute, which the caller reads from storage.

const SOUNDS = {
  // [frequency Hz, start s, length s, peak gain, wave]
  turn: [[659.25, 0, 0.4, 0.12, 'sine'], [880, 0.16, 0.4, 0.12, 'sine']],
  place: [[196, 0, 0.09, 0.16, 'triangle'], [392, 0, 0.05, 0.05, 'square']],
  score: [[523.25, 0, 0.22, 0.09, 'sine'], [659.25, 0.08, 0.22, 0.09, 'sine'], [783.99, 0.16, 0.3, 0.09, 'sine']],
  warn: [[440, 0, 0.18, 0.07, 'sine'], [440, 0.3, 0.18, 0.07, 'sine']],
};

export const SOUND_NAMES = Object.keys(SOUNDS);

export class Sounds {
  /** isOn(): whether sound is wanted now (the mute button). */
  constructor(isOn) {
    this.isOn = isOn;
    this.ctx = null;
    this.played = []; // names, newest last (the browser tests read it)
  }

  play(name) {
    const notes = SOUNDS[name];
    if (!notes || !this.isOn()) return false;
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    try {
      const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
      if (!Ctx) return false;
      const ctx = (this.ctx ??= new Ctx());
      const now = ctx.currentTime;
      for (const [freq, at, len, peak, wave] of notes) {
        const start = now + at;
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = wave;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(peak, start + 0.015);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + len);
        osc.connect(gain).connect(ctx.destination);
        osc.start(start);
        osc.stop(start + len + 0.05);
      }
      return true;
    } catch {
      return false; // no audio: the banner and the title still tell
    }
  }
}
