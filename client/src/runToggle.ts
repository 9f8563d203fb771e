/**
 * The run toggle in the HUD: a button that says the run energy ("Run (100% energy)") and, pressed
 * (aria-pressed), that walks run. A click sends `player:setRun`; the server answers with the
 * synced `runMode` and `runEnergy` (owner fields of the player's state), which this shows. Below
 * 1 % the server refuses to switch it on, and the refusal shows in the chat as every error does.
 */
import type { PlayerState } from "../../schema/WorldState.ts";
import type { Send } from "./worldMenu.ts";

export function mountRunToggle(send: Send): (me: PlayerState) => void {
  const button = document.getElementById("run-toggle") as HTMLButtonElement;
  let running = false;
  button.hidden = false;
  button.addEventListener("click", () => send("player:setRun", { run: !running }));
  return (me) => {
    running = me.runMode;
    const label = `Run (${me.runEnergy}% energy)`;
    if (button.textContent !== label) button.textContent = label;
    const pressed = String(me.runMode);
    if (button.getAttribute("aria-pressed") !== pressed) button.setAttribute("aria-pressed", pressed);
  };
}
