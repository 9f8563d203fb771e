/**
 * The game's side of friends, ignore lists and private messages (`social:` events). What the tick
 * can decide without I/O is decided here: a private message's text (as chat's: control characters
 * stripped, 1..255 characters) and its flood limit (as chat's, per account, counted apart). Everything else
 * needs the database and the other processes, so it is handed to the {@link SocialPort} (the
 * social service, src/social), which answers the player later: a `social:list`, a
 * `social:messageSent`, or an `error` naming the event.
 *
 * The ignore list itself is applied here, from `Player.ignored`: chat.ts and the trades leave out
 * whoever the receiving account ignores.
 */
import { CHAT_LIMIT, CHAT_MAX_LENGTH, CHAT_WINDOW_MS, sanitizeChat } from "./chat.ts";
import type { ClientEvent } from "./clientEvents.ts";
import { mutedError } from "./moderation.ts";
import { floodKey } from "./accountWindows.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, World } from "./world/World.ts";

/** The social events that change or read the lists (all but `social:sendMessage`). */
export type SocialCommandEvent =
  "social:getList" | "social:addFriend" | "social:acceptFriend" | "social:declineFriend" | "social:removeFriend" | "social:addIgnore" | "social:removeIgnore";

/** What the game hands the social service; calls return at once, the answers reach the player later. */
export interface SocialPort {
  /** A list command; `name` names the other player (absent for `social:getList`). */
  command(player: Player, event: SocialCommandEvent, name: string | undefined): void;
  /** A private message whose text and rate are already checked. */
  privateMessage(player: Player, to: string, message: string): void;
}

const UNAVAILABLE = { code: "UNAVAILABLE", message: "friends and private messages are not available on this server" } as const;

export function socialCommand(port: SocialPort | undefined, player: Player, event: SocialCommandEvent, data: { name?: string }): HandlerResult {
  if (port === undefined) return UNAVAILABLE;
  port.command(player, event, data.name);
}

export function sendPrivateMessage(world: World, port: SocialPort | undefined, player: Player, data: ClientEvent<"social:sendMessage">): HandlerResult {
  if (port === undefined) return UNAVAILABLE;
  const message = sanitizeChat(data.message);
  if (message.length === 0 || message.length > CHAT_MAX_LENGTH) {
    return { code: "INVALID_PAYLOAD", message: `a private message is 1 to ${CHAT_MAX_LENGTH} characters` };
  }
  const muted = mutedError(player, world.now());
  if (muted !== undefined) return muted;
  if (!world.privateMessageWindows.allow(floodKey(player), world.now(), CHAT_LIMIT, CHAT_WINDOW_MS)) {
    return { code: "RATE_LIMITED", message: `at most ${CHAT_LIMIT} private messages every ${CHAT_WINDOW_MS / 1000} s per account` };
  }
  port.privateMessage(player, data.to, message);
}
