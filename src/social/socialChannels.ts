/**
 * The social service's names and messages across processes (SocialService.ts): its constants,
 * the presence key and channels, who is online, and what is published to an account's and to a
 * process's channel. Moved out of SocialService.ts, which re-exports the public ones.
 */
import type { SocialCommandEvent } from "../game/social.ts";
import type { ServerEvent, SOCIAL_CHANGES } from "../game/serverEvents.ts";
import type { Player } from "../game/world/Player.ts";
import type { NamedAccount } from "../persistence/social.ts";

/** The world this process's players are on until worlds are numbered (issue 19, part 1). */
export const DEFAULT_WORLD = 1;
/** The presence hash of who is online: account id → {@link OnlineEntry} (JSON). */
export const ONLINE_KEY = "social:online";
/** A private message no process has confirmed within this long is answered PLAYER_OFFLINE. */
export const PM_ACK_TIMEOUT_MS = 5_000;
/**
 * How often a process looks for online entries of processes that are gone (killed: nothing said
 * goodbye for their players), ms. A process is gone when its node channel has no listener.
 */
export const SWEEP_INTERVAL_MS = 5_000;
/** At shutdown, friends are told of the players' logout for at most this long. */
export const SHUTDOWN_ANNOUNCE_MS = 2_000;
/** How often lapsed friend requests are deleted (persistence/social.ts FRIEND_REQUEST_TTL_MS); every process does it, harmlessly. */
export const EXPIRED_REQUESTS_SWEEP_MS = 3_600_000;

export const accountChannel = (accountId: string): string => `social:account:${accountId}`;
export const nodeChannel = (node: string): string => `social:node:${node}`;

/** The social events that change the lists (the REST routes call these too). */
export type SocialChangeEvent = Exclude<SocialCommandEvent, "social:getList">;
export type SocialLists = ServerEvent<"social:list">;
export type Change = { kind: (typeof SOCIAL_CHANGES)[number] } & NamedAccount;

export interface OnlineEntry {
  /** The SocialService (one per process) that holds the character. */
  node: string;
  characterId: string;
  name: string;
  world: number;
}

/** An account's status: online with a character on a world, or gone offline from one. */
export type Status = { online: true; characterId: string; name: string; world: number } | { online: false; characterId: string };

/** What is published to an account's channel. */
export type AccountNotice =
  | { t: "status"; accountId: string; name: string; online: boolean; world: number | null }
  | { t: "refresh"; change?: Change }
  | { t: "pm"; id: string; fromAccountId: string; from: string; message: string; timestamp: number; replyTo: string };
/** What is published to a process's channel: a recipient's process confirms (or refuses) a private message. */
export type NodeNotice = { t: "ack"; id: string; error?: { code: string; message: string } };

export interface PendingMessage {
  player: Player;
  to: string;
  message: string;
  timestamp: number;
  timer: NodeJS.Timeout;
}
