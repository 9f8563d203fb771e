/**
 * The Chat panel: a log (named "Chat") of public messages, the server's system messages and
 * errors, and the client's own notes (xp, level-ups, death), with a form to speak.
 */
import type { Send } from "../worldMenu.ts";

/** Lines kept in the log. */
const MAX_LINES = 100;

export type ChatKind = "local" | "system" | "error" | "combat" | "levelup";

export function chatLine(text: string, kind: ChatKind): void {
  const li = document.createElement("li");
  li.className = kind;
  li.textContent = text;
  const log = document.getElementById("chat-log")!;
  log.append(li);
  while (log.children.length > MAX_LINES) log.firstElementChild!.remove();
  log.scrollTop = log.scrollHeight;
}

export function mountChat(send: Send): void {
  document.getElementById("chat-form")!.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = document.getElementById("chat-input") as HTMLInputElement;
    const message = input.value.trim();
    if (message !== "") send("player:chat", { message });
    input.value = "";
  });
}
