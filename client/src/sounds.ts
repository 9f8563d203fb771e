/**
 * Sound effects made in the browser (WebAudio oscillators and noise: no audio files can be fetched
 * here): a thud for a hit, a soft blip for a miss, a rising fanfare for a level-up, a short pop
 * when your inventory changes (picking up, dropping, eating, burying, cooking, gathering). The
 * **Mute sounds** toggle button (`aria-pressed` while muted) is remembered in this browser
 * (`localStorage` `rsworld.muted`). Nothing is made until the first sound is wanted after a user
 * gesture (browsers start an AudioContext only then), so a muted or silent game costs nothing.
 *
 * For scripts and tests, the button says the last sound played and how many (`data-last-sound`,
 * `data-sounds`).
 */

export const MUTED_KEY = "rsworld.muted";

export type SoundName = "hit" | "miss" | "levelup" | "item";

let ctx: AudioContext | undefined;
let button: HTMLButtonElement | undefined;

export function isMuted(): boolean {
  try {
    return localStorage.getItem(MUTED_KEY) === "1";
  } catch {
    return false;
  }
}

function setMuted(muted: boolean): void {
  try {
    if (muted) localStorage.setItem(MUTED_KEY, "1");
    else localStorage.removeItem(MUTED_KEY);
  } catch {
    // A browser that keeps nothing: the choice lasts this page.
  }
  button?.setAttribute("aria-pressed", String(muted));
}

/** The mute toggle, put after `after` (the HUD's Log out button). */
export function mountMuteToggle(after: HTMLElement): HTMLButtonElement {
  if (button?.isConnected) return button;
  button = document.createElement("button");
  button.id = "mute";
  button.type = "button";
  button.textContent = "Mute sounds";
  button.setAttribute("aria-pressed", String(isMuted()));
  button.addEventListener("click", () => setMuted(button!.getAttribute("aria-pressed") !== "true"));
  after.after(button);
  return button;
}

/** A tone from `from` to `to` Hz over `ms`, starting `at` seconds from now. */
function tone(ac: AudioContext, type: OscillatorType, from: number, to: number, ms: number, gain: number, at = 0): void {
  const t0 = ac.currentTime + at;
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, t0);
  osc.frequency.exponentialRampToValueAtTime(to, t0 + ms / 1000);
  g.gain.setValueAtTime(gain, t0);
  g.gain.exponentialRampToValueAtTime(0.001, t0 + ms / 1000);
  osc.connect(g).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + ms / 1000 + 0.02);
}

/** A burst of noise (a hit's impact), low-passed. */
function noise(ac: AudioContext, ms: number, gain: number): void {
  const length = Math.ceil((ac.sampleRate * ms) / 1000);
  const buffer = ac.createBuffer(1, length, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 2;
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "lowpass";
  filter.frequency.value = 900;
  const g = ac.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(ac.destination);
  src.start();
}

/** Plays a sound unless muted. */
export function play(name: SoundName): void {
  if (isMuted()) return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === "suspended") void ctx.resume().catch(() => {});
    switch (name) {
      case "hit":
        noise(ctx, 120, 0.5);
        tone(ctx, "triangle", 180, 60, 140, 0.35);
        break;
      case "miss":
        tone(ctx, "sine", 420, 300, 90, 0.15);
        break;
      case "levelup":
        [523, 659, 784, 1047].forEach((f, i) => tone(ctx!, "square", f, f, 180, 0.08, i * 0.12));
        break;
      case "item":
        tone(ctx, "sine", 660, 990, 70, 0.12);
        break;
    }
  } catch {
    // No WebAudio here: the game goes on silent.
    return;
  }
  if (button !== undefined) {
    button.dataset.lastSound = name;
    button.dataset.sounds = String(Number(button.dataset.sounds ?? "0") + 1);
  }
}

/** A stable summary of an inventory and coins: a change of it is an item action (its sound). */
export function inventoryKey(inventory: Iterable<{ slot: number; itemId: string; quantity: number }>, coins: number): string {
  const parts: string[] = [String(coins)];
  for (const s of inventory) parts.push(`${s.slot}:${s.itemId}:${s.quantity}`);
  return parts.join(",");
}
