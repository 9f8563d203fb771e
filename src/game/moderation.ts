/**
 * The in-game moderation commands an admin types in chat (an admin: a token with the admin role,
 * or `/admin <code>` granted): parsed here, carried out by the server's moderation service
 * (src/moderation) through {@link ModerationPort}, since they need the database. Names with
 * spaces go in double quotes (`/kick "Bob Smith" spam`).
 *
 * - `/kick <name> [reason]`
 * - `/mute <name> <minutes> [reason]`, `/unmute <name> [reason]`
 * - `/ban <name> <minutes|permanent> [reason]`, `/unban <name> [reason]`
 * - `/teleport <name> <x> <z> [reason]`
 * - `/broadcast <message>`
 * - `/lookup <name>`
 * - `/restart <seconds> [reason]` (10..86400 s; a new one replaces the scheduled one), `/restart cancel`
 */
import { RESTART_DEFAULT_REASON, RESTART_MAX_SECONDS, RESTART_MIN_SECONDS, RESTART_REASON_MAX_LENGTH } from "./restart.ts";
import type { Player } from "./world/Player.ts";

/** Mutes last 1 minute to 1 year, timed bans 1 minute to 10 years; longer is refused (a ban can be permanent). */
export const MAX_MUTE_MINUTES = 365 * 24 * 60;
export const MAX_BAN_MINUTES = 10 * 365 * 24 * 60;
export const REASON_MAX_LENGTH = 255;

export type ModerationCommand =
  | { action: "kick"; name: string; reason?: string }
  | { action: "mute"; name: string; minutes: number; reason?: string }
  | { action: "unmute"; name: string; reason?: string }
  /** `minutes` undefined: permanent. */
  | { action: "ban"; name: string; minutes: number | undefined; reason?: string }
  | { action: "unban"; name: string; reason?: string }
  | { action: "teleport"; name: string; x: number; z: number; reason?: string }
  | { action: "broadcast"; message: string }
  | { action: "lookup"; name: string }
  /** `seconds` undefined: cancel the scheduled restart. */
  | { action: "restart"; seconds: number | undefined; reason: string };

export type ModerationAction = ModerationCommand["action"];
export const MODERATION_COMMANDS: readonly ModerationAction[] = ["kick", "mute", "unmute", "ban", "unban", "teleport", "broadcast", "lookup", "restart"];

/** Carries out an admin's command off the tick and answers the admin (a system chat line or an `error`). */
export interface ModerationPort {
  command(admin: Player, command: ModerationCommand): void;
}

export interface ParseError {
  code: "INVALID_PAYLOAD";
  message: string;
}

const USAGE: Record<ModerationAction, string> = {
  kick: "/kick <name> [reason]",
  mute: "/mute <name> <minutes> [reason]",
  unmute: "/unmute <name> [reason]",
  ban: "/ban <name> <minutes|permanent> [reason]",
  unban: "/unban <name> [reason]",
  teleport: "/teleport <name> <x> <z> [reason]",
  broadcast: "/broadcast <message>",
  lookup: "/lookup <name>",
  restart: "/restart <seconds> [reason] | /restart cancel",
};

/** Whether a chat line is one of the moderation commands (its name, or undefined). */
export function moderationCommandOf(message: string): ModerationAction | undefined {
  const m = /^\/([a-z]+)(?:\s|$)/.exec(message);
  return m && (MODERATION_COMMANDS as readonly string[]).includes(m[1]!) ? (m[1] as ModerationAction) : undefined;
}

/** A whole number of minutes in 1..max, or undefined. */
export function validMinutes(raw: string, max: number): number | undefined {
  if (!/^\d{1,9}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : undefined;
}

/** Splits off the first word, or a double-quoted name. */
function firstWord(rest: string): [string, string] | undefined {
  const s = rest.trimStart();
  if (s.startsWith('"')) {
    const end = s.indexOf('"', 1);
    if (end < 0) return undefined;
    return [s.slice(1, end).trim(), s.slice(end + 1).trim()];
  }
  const m = /^(\S+)\s*([\s\S]*)$/.exec(s);
  return m ? [m[1]!, m[2]!.trim()] : undefined;
}

/** Parses a moderation command (the message must start with one, see moderationCommandOf). */
export function parseModerationCommand(message: string): ModerationCommand | ParseError {
  const action = moderationCommandOf(message);
  if (action === undefined) return { code: "INVALID_PAYLOAD", message: "not a moderation command" };
  const usage = (why: string): ParseError => ({ code: "INVALID_PAYLOAD", message: `${why}; usage: ${USAGE[action]}` });
  const rest = message.slice(action.length + 1).trim();
  if (action === "broadcast") return rest.length > 0 ? { action, message: rest } : usage("a broadcast needs a message");
  if (action === "restart") {
    if (/^cancel$/i.test(rest)) return { action, seconds: undefined, reason: "" };
    const m = /^(\d{1,9})(?:\s+([\s\S]*))?$/.exec(rest);
    const seconds = m ? Number(m[1]) : NaN;
    if (!(seconds >= RESTART_MIN_SECONDS && seconds <= RESTART_MAX_SECONDS))
      return usage(`seconds are a whole number from ${RESTART_MIN_SECONDS} to ${RESTART_MAX_SECONDS}`);
    const reason = m![2]?.trim() || RESTART_DEFAULT_REASON;
    if (reason.length > RESTART_REASON_MAX_LENGTH) return usage(`a reason is at most ${RESTART_REASON_MAX_LENGTH} characters`);
    return { action, seconds, reason };
  }
  const first = firstWord(rest);
  if (first === undefined || first[0].length === 0) return usage("name a player");
  const [name, after] = first;
  const withReason = (reason: string) => (reason.length > REASON_MAX_LENGTH ? undefined : reason.length > 0 ? { reason } : {});
  const reasonOf = (text: string) => withReason(text) ?? null;
  switch (action) {
    case "lookup":
      return { action, name };
    case "kick":
    case "unmute":
    case "unban": {
      const r = reasonOf(after);
      return r === null ? usage(`a reason is at most ${REASON_MAX_LENGTH} characters`) : { action, name, ...r };
    }
    case "mute":
    case "ban": {
      const next = firstWord(after);
      if (next === undefined) return usage(action === "mute" ? "give the minutes" : "give the minutes or permanent");
      const r = reasonOf(next[1]);
      if (r === null) return usage(`a reason is at most ${REASON_MAX_LENGTH} characters`);
      if (action === "ban" && /^perm(anent)?$/i.test(next[0])) return { action, name, minutes: undefined, ...r };
      const max = action === "mute" ? MAX_MUTE_MINUTES : MAX_BAN_MINUTES;
      const minutes = validMinutes(next[0], max);
      if (minutes === undefined) return usage(`minutes are a whole number from 1 to ${max}`);
      return { action, name, minutes, ...r };
    }
    case "teleport": {
      const m = /^(-?\d{1,6})\s+(-?\d{1,6})\s*([\s\S]*)$/.exec(after);
      if (!m) return usage("give whole-number x and z");
      const r = reasonOf(m[3]!.trim());
      return r === null ? usage(`a reason is at most ${REASON_MAX_LENGTH} characters`) : { action, name, x: Number(m[1]), z: Number(m[2]), ...r };
    }
  }
}

/** The refusal a muted player gets for public chat and private messages, with the mute's end. */
export function mutedError(player: Player, now: number): { code: "MUTED"; message: string; until: string } | undefined {
  if (player.mutedUntil === undefined || player.mutedUntil <= now) return undefined;
  const until = new Date(player.mutedUntil).toISOString();
  return { code: "MUTED", message: `you are muted until ${until}`, until };
}
