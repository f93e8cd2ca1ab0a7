// The table's sounds, made on the spot with WebAudio (no sound file is fetched): a card
// dealt, a chip placed, the end of a hand (win, push, lose), a blackjack's fanfare. Off until the player turns
// them on; the choice is kept in the browser.

const KEY = "twentyone.sound";
let context = null;

/** Whether sounds are on (off by default). */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

/** Turn sounds on or off (the first call that turns them on is a click: browsers let a page
 * start audio only from one). */
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* private mode: this page only */
  }
  if (on) audio();
}

function audio() {
  if (!context) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    context = new Ctx();
  }
  if (context.state === "suspended") context.resume();
  return context;
}

function tone(freq, start, length, type = "sine", gain = 0.08) {
  const ctx = audio();
  if (!ctx) return;
  const t = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  amp.gain.setValueAtTime(0.0001, t);
  amp.gain.exponentialRampToValueAtTime(gain, t + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

function swish(start, length, freq, gain) {
  const ctx = audio();
  if (!ctx) return;
  const t = ctx.currentTime + start;
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ctx.destination);
  src.start(t);
}

/** Play one of the table's sounds ("card", "chip", "win", "push", "lose", "blackjack",
 * "big-win") if sounds are on (off until the player turns them on: a click);
 * ``delay`` in seconds (a card dealt later in a row of them). */
export function play(name, delay = 0) {
  if (!soundOn()) return;
  if (name === "card") swish(delay, 0.12, 2400, 0.35);
  else if (name === "chip") {
    tone(2200, delay, 0.05, "triangle", 0.05);
    tone(3100, delay + 0.03, 0.05, "triangle", 0.04);
  } else if (name === "win") {
    [523, 659, 784].forEach((f, i) => tone(f, delay + i * 0.09, 0.22, "triangle", 0.07));
  } else if (name === "blackjack") {
    // a short fanfare: a rising arpeggio and a held chord
    [523, 659, 784, 1047].forEach((f, i) => tone(f, delay + i * 0.08, 0.18, "triangle", 0.07));
    [523, 659, 784].forEach((f) => tone(f, delay + 0.34, 0.5, "sine", 0.04));
  } else if (name === "big-win") {
    [392, 523, 659, 784].forEach((f, i) => tone(f, delay + i * 0.07, 0.2, "square", 0.025));
    tone(1047, delay + 0.3, 0.45, "triangle", 0.06);
  } else if (name === "push") tone(440, delay, 0.25, "sine", 0.05);
  else if (name === "lose") {
    tone(220, delay, 0.3, "sine", 0.06);
    tone(165, delay + 0.15, 0.35, "sine", 0.05);
  }
}
