/**
 * The Chat panel: a log (named "Chat") of public messages, private messages ("From Ann: …",
 * "To Ann: …"), the server's system messages and errors, and the client's own notes (xp,
 * level-ups, death), with a form to speak. `/msg name text` sends `text` to the friend `name` as a
 * private message (`social:sendMessage`); a name with spaces is read as the longest friend's name
 * the line starts with.
 */
import type { Send } from "../worldMenu.ts";

/** Lines kept in the log. */
const MAX_LINES = 100;

export type ChatKind = "local" | "system" | "error" | "combat" | "levelup" | "private";

export function chatLine(text: string, kind: ChatKind): void {
  const li = document.createElement("li");
  li.className = kind;
  li.textContent = text;
  const log = document.getElementById("chat-log")!;
  log.append(li);
  while (log.children.length > MAX_LINES) log.firstElementChild!.remove();
  log.scrollTop = log.scrollHeight;
}

/** Empties the log (a logout: the next character starts with a clean one). */
export function clearChat(): void {
  document.getElementById("chat-log")!.replaceChildren();
}

/**
 * `/msg name text` read into its addressee and text: `names` (the friends) are tried longest first,
 * in any case, else the first word is the name. Undefined when the line is not a `/msg`; an empty
 * `to` or `message` when a part is missing.
 */
export function parsePrivate(line: string, names: readonly string[]): { to: string; message: string } | undefined {
  const m = /^\/(?:msg|pm|m)(?:\s+|$)(.*)$/i.exec(line);
  if (m === null) return undefined;
  const rest = m[1]!.trim();
  const friend = [...names]
    .sort((a, b) => b.length - a.length)
    .find((n) => rest.toLowerCase() === n.toLowerCase() || rest.toLowerCase().startsWith(`${n.toLowerCase()} `));
  if (friend !== undefined) return { to: rest.slice(0, friend.length), message: rest.slice(friend.length).trim() };
  const space = rest.indexOf(" ");
  return space < 0 ? { to: rest, message: "" } : { to: rest.slice(0, space), message: rest.slice(space + 1).trim() };
}

/** Puts `/msg name ` in the chat box and gives it the keyboard (a friend's Message button). */
export function startPrivate(name: string): void {
  const input = document.getElementById("chat-input") as HTMLInputElement;
  input.value = `/msg ${name} `;
  input.focus();
}

let current: { send: Send; friends: () => readonly string[] } | undefined;

/** Hands the chat form the world room's `send` (again after a hop or a new login: one listener). */
export function mountChat(send: Send, friends: () => readonly string[] = () => []): void {
  const first = current === undefined;
  current = { send, friends };
  if (!first) return;
  document.getElementById("chat-form")!.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = document.getElementById("chat-input") as HTMLInputElement;
    const line = input.value.trim();
    input.value = "";
    if (line === "" || current === undefined) return;
    const pm = parsePrivate(line, current.friends());
    if (pm === undefined) {
      current.send("player:chat", { message: line });
      return;
    }
    if (pm.to === "" || pm.message === "") {
      chatLine("To send a private message: /msg name message", "error");
      input.value = line;
      return;
    }
    current.send("social:sendMessage", pm);
  });
}
