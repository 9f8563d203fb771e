/**
 * Chat (`player:chat` → `chat:message` to players in view) and the in-game admin command.
 * Messages are stripped of control characters, trimmed, and must be 1..255 characters; the
 * server, not the client, says who sent them. Flooding is limited per account (its characters share it).
 */
import { randomUUID } from "node:crypto";
import type { HandlerResult, World } from "./world/World.ts";
import type { Player } from "./world/Player.ts";
import { MODERATION_COMMANDS, moderationCommandOf, mutedError, parseModerationCommand, type ModerationPort } from "./moderation.ts";

export { CHAT_LIMIT, CHAT_MAX_LENGTH, CHAT_WINDOW_MS } from "./clientEvents.ts";
import { CHAT_LIMIT, CHAT_MAX_LENGTH, CHAT_WINDOW_MS } from "./clientEvents.ts";
import { floodKey } from "./accountWindows.ts";

/** The outcome of an admin-code check: `limited` when the player's account or address is out of guesses. */
export type AdminCheck = "granted" | "wrong" | "limited";

// C0/C1 control characters, DEL, and the bidirectional overrides/isolates that can disguise text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function sanitizeChat(raw: string): string {
  return raw.replace(CONTROL, "").trim();
}

/** Counts an event in a sliding window; false when the limit is already reached. */
export function allow(times: number[], now: number, limit: number, windowMs: number): boolean {
  while (times.length > 0 && times[0]! <= now - windowMs) times.shift();
  if (times.length >= limit) return false;
  times.push(now);
  return true;
}

/** `checkAdminCode`: the code check with its guessing budgets (per account and address), kept by the server. */
/** `moderation`: carries out an admin's moderation commands (src/game/moderation.ts); without it they are refused. */
export function handleChat(
  world: World,
  player: Player,
  data: { message: string },
  checkAdminCode: (code: string) => AdminCheck,
  moderation?: ModerationPort,
): HandlerResult {
  const message = sanitizeChat(data.message);
  if (message.length === 0 || message.length > CHAT_MAX_LENGTH) {
    return { code: "INVALID_PAYLOAD", message: `a chat message is 1 to ${CHAT_MAX_LENGTH} characters` };
  }
  const now = world.now();
  const admin = /^\/admin(?:\s+(.*))?$/.exec(message);
  if (admin) {
    // An agent acts for its owner in the world, never as an admin: its words may be a language
    // model's, which anyone nearby can prompt. Refused before the code is checked (no guess is spent).
    if (player.agentControlled) return { code: "FORBIDDEN", message: "an agent cannot become an admin; its owner types /admin from their own connection" };
    const verdict = checkAdminCode(admin[1]?.trim() ?? "");
    if (verdict === "limited") return { code: "RATE_LIMITED", message: "too many admin attempts; try again later" };
    if (verdict === "granted") {
      player.role = "admin";
      world.tell(player.id, "Admin access granted.");
    } else {
      world.tell(player.id, "Wrong admin code.");
    }
    return;
  }
  if (moderationCommandOf(message) !== undefined) {
    if (player.role !== "admin") return { code: "FORBIDDEN", message: "moderation commands are for admins" };
    if (moderation === undefined) return { code: "UNAVAILABLE", message: "moderation is not available" };
    const command = parseModerationCommand(message);
    if ("code" in command) return command;
    moderation.command(player, command);
    return;
  }
  // Any other line starting with "/" is a mistyped or unknown command: said to its sender alone,
  // never to the players near (a typo of "/admin <code>" would have shown everyone the code).
  if (message.startsWith("/")) {
    // Not echoed: it may hold what followed a mistyped command (a code). The moderation commands
    // are named to admins only: to a player they are a list of what it cannot do.
    const commands = player.role === "admin" ? ["/admin <code>", ...MODERATION_COMMANDS.map((c) => `/${c}`)] : ["/admin <code>"];
    return { code: "INVALID_PAYLOAD", message: `That is not a command, so it was not sent. The commands are ${commands.join(", ")}.` };
  }
  const muted = mutedError(player, now);
  if (muted !== undefined) return muted;
  // Per account: its characters share the budget; an agent's has its own (accountWindows.ts).
  if (!world.chatWindows.allow(floodKey(player), now, CHAT_LIMIT, CHAT_WINDOW_MS)) {
    return { code: "RATE_LIMITED", message: `at most ${CHAT_LIMIT} chat messages every ${CHAT_WINDOW_MS / 1000} s per account` };
  }
  const out = { id: randomUUID(), fromId: player.id, fromName: player.data.name, message, timestamp: now, channel: "local" as const };
  // Whoever ignores the sender's account does not hear it.
  for (const p of world.playersNear(player)) if (!p.ignored.has(player.data.accountId)) world.send(p.id, "chat:message", out);
}
