// Getting the player's attention when the table needs it: "Your turn" at the front of the
// tab's title, and, where the settings ask for them, a short sound (made with Web Audio,
// no file) and a browser notification while the tab is in the background. The same for a
// turn clock running low. Nothing here is on by default except the title.

import {setting} from "./settings.js";

let base = "Pitch";
let audio = null;
let lastSignal = "";

/** Set the title the tab shows when nothing needs the player. */
export function setBaseTitle(title) {
  base = title;
  document.title = base;
}

/** Show in the tab's title whether it is the player's turn, and the seconds left on its clock. */
export function showTurn(mine, secondsLeft = null) {
  const clock = secondsLeft !== null && secondsLeft !== undefined ? `${secondsLeft} s left · ` : "";
  document.title = mine ? `${clock}Your turn · ${base}` : base;
}

/**
 * Call the player once for `key` (a turn or a clock deadline): a sound and a notification
 * when the settings ask for them. `text` is the notification's words.
 */
export function signal(key, text) {
  if (key === lastSignal) return;
  lastSignal = key;
  if (setting("sound")) chime();
  if (setting("notify") && document.visibilityState === "hidden" && typeof Notification !== "undefined"
      && Notification.permission === "granted") {
    try {
      const note = new Notification(base, {body: text, tag: "pitch-turn", icon: "/web/favicon.svg"});
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch {
      // Some browsers allow notifications only from a service worker: the title still says it.
    }
  }
}

/** Play the turn's sound: two short soft notes. */
export function chime() {
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    [[660, 0], [880, 0.16]].forEach(([pitch, at]) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.22);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + at);
      tone.stop(now + at + 0.25);
    });
  } catch {
    // No audio here: the title and the table say it is your turn.
  }
}

// A browser starts sound only after the person has touched the page: wake it at the first touch.
document.addEventListener("pointerdown", () => {
  if (audio && audio.state === "suspended") audio.resume();
}, {passive: true});
