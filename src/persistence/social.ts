/**
 * Friends, friend requests and ignore lists in the database (`friendships`, `friend_requests`,
 * `ignore_lists`): the truth about who is whose friend, whatever a process holds in memory. A
 * friendship is two rows, one per direction, written and deleted together.
 *
 * Every change to a pair of accounts is one transaction that first locks both accounts' `users`
 * rows in id order (`SELECT … FOR UPDATE` on PostgreSQL; SQLite serialises writers), so that the
 * pair's rows and the limits are checked by one writer at a time, in every process. A refused
 * change throws a {@link SocialError} and writes nothing.
 *
 * Rules: an account's friends plus the requests it has sent are at most FRIENDS_LIMIT, requests
 * waiting for it at most INCOMING_REQUESTS_LIMIT, its ignore list at most IGNORE_LIMIT. Friends and
 * ignored are apart: a friend must be removed before being ignored, an ignored account unignored
 * before being asked, and ignoring an account drops the requests between the two. Asking an account
 * that has asked you accepts its request. A request not answered within {@link FRIEND_REQUEST_TTL_MS}
 * lapses: it is no longer shown nor counted, and its row is deleted when either account asks or
 * accepts, and by the social service's hourly sweep ({@link deleteExpiredRequests}).
 */
import { LockMode } from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sqlite";
import { Character, FriendRequest, Friendship, IgnoreEntry, User } from "../../entities/index.ts";
import { CodedError } from "../codedError.ts";
import type { Database } from "../db/orm.ts";
import { selectRows } from "../db/rawSql.ts";
import { FRIENDS_LIMIT, IGNORE_LIMIT, INCOMING_REQUESTS_LIMIT } from "../game/clientEvents.ts";
import { nameKey } from "../game/names.ts";

export type SocialErrorCode =
  | "UNKNOWN_PLAYER"
  | "SELF"
  | "NO_CHARACTER"
  | "ALREADY_FRIENDS"
  | "REQUEST_PENDING"
  | "NO_REQUEST"
  | "NOT_FRIENDS"
  | "ALREADY_IGNORED"
  | "NOT_IGNORED"
  | "FRIENDS_FULL"
  | "THEIR_FRIENDS_FULL"
  | "THEIR_REQUESTS_FULL"
  | "IGNORE_FULL"
  | "IGNORED"
  | "IGNORING"
  | "PLAYER_OFFLINE"
  | "RATE_LIMITED";

export class SocialError extends CodedError<SocialErrorCode> {}

/** A friend request lapses after 30 days unanswered (throwaway accounts cannot hold a player's slots for good). */
export const FRIEND_REQUEST_TTL_MS = 30 * 24 * 3600 * 1000;
/** Requests made after this are live. */
const requestCutoff = (now = Date.now()) => new Date(now - FRIEND_REQUEST_TTL_MS);
const live = () => ({ createdAt: { $gt: requestCutoff() } });

export interface NamedAccount {
  accountId: string;
  name: string;
}

/** An account's relationships, as account ids, oldest first. */
export interface SocialRows {
  friends: string[];
  incoming: string[];
  outgoing: string[];
  ignored: string[];
}

/**
 * The account of the character whose name reads as `name` (any case, any look-alike: its key,
 * game/names.ts, unique in the database): one character at most, never a look-alike's.
 */
export async function findAccountByName(db: Database, name: string): Promise<NamedAccount | undefined> {
  const row = await db.em().findOne(Character, { nameKey: nameKey(name) }, { fields: ["accountId", "name"] });
  return row === null ? undefined : { accountId: row.accountId, name: row.name };
}

/** Each account's name: its character played last, else its first; accounts without a character are left out. */
export async function accountNames(db: Database, accountIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (accountIds.length === 0) return out;
  const rows = await db
    .em()
    .find(
      Character,
      { accountId: { $in: [...new Set(accountIds)] } },
      { fields: ["accountId", "name", "lastLoginAt"], orderBy: { createdAt: "asc", id: "asc" } },
    );
  const lastLogin = new Map<string, number>();
  for (const r of rows) {
    const at = r.lastLoginAt?.getTime() ?? -1;
    if (!out.has(r.accountId) || at > lastLogin.get(r.accountId)!) {
      out.set(r.accountId, r.name);
      lastLogin.set(r.accountId, at);
    }
  }
  return out;
}

export async function loadSocial(db: Database, accountId: string): Promise<SocialRows> {
  const order = { orderBy: { createdAt: "asc", id: "asc" } } as const;
  const [friends, incoming, outgoing, ignored] = await Promise.all([
    db.em().find(Friendship, { accountId }, order),
    db.em().find(FriendRequest, { toAccountId: accountId, ...live() }, order),
    db.em().find(FriendRequest, { fromAccountId: accountId, ...live() }, order),
    db.em().find(IgnoreEntry, { accountId }, order),
  ]);
  return {
    friends: friends.map((r) => r.friendAccountId),
    incoming: incoming.map((r) => r.fromAccountId),
    outgoing: outgoing.map((r) => r.toAccountId),
    ignored: ignored.map((r) => r.ignoredAccountId),
  };
}

/** The account's friends (raw: read at every login and logout, src/db/rawSql.ts). */
export async function friendsOf(db: Database, accountId: string): Promise<string[]> {
  return (await selectRows<{ friendAccountId: string }>(db.statements, `select "friendAccountId" from "friendships" where "accountId" = ?`, [accountId])).map(
    (r) => r.friendAccountId,
  );
}

/** The accounts the account ignores (raw: read at every login, src/db/rawSql.ts). */
export async function ignoredBy(db: Database, accountId: string): Promise<Set<string>> {
  return new Set(
    (await selectRows<{ ignoredAccountId: string }>(db.statements, `select "ignoredAccountId" from "ignore_lists" where "accountId" = ?`, [accountId])).map(
      (r) => r.ignoredAccountId,
    ),
  );
}

/** Runs `fn` in a transaction holding both accounts' `users` rows, locked in id order. */
function pairTransaction<T>(db: Database, a: string, b: string, fn: (em: SqlEntityManager) => Promise<T>): Promise<T> {
  return db.em().transactional(async (em) => {
    await em.find(User, { id: { $in: [a, b] } }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: "asc" }, fields: ["id"] });
    return fn(em);
  });
}

const areFriends = async (em: SqlEntityManager, a: string, b: string) => (await em.count(Friendship, { accountId: a, friendAccountId: b })) > 0;
const ignores = async (em: SqlEntityManager, who: string, whom: string) => (await em.count(IgnoreEntry, { accountId: who, ignoredAccountId: whom })) > 0;
const asked = async (em: SqlEntityManager, from: string, to: string) =>
  (await em.count(FriendRequest, { fromAccountId: from, toAccountId: to, ...live() })) > 0;
/** Friends plus the requests it has sent: what FRIENDS_LIMIT bounds. */
const commitments = async (em: SqlEntityManager, a: string) =>
  (await em.count(Friendship, { accountId: a })) + (await em.count(FriendRequest, { fromAccountId: a, ...live() }));

/** Deletes the lapsed requests the pair's limits would count: between them, sent by either, or waiting for either. */
async function dropExpired(em: SqlEntityManager, a: string, b: string): Promise<void> {
  const pair = [a, b];
  await em.nativeDelete(FriendRequest, { createdAt: { $lte: requestCutoff() }, $or: [{ fromAccountId: { $in: pair } }, { toAccountId: { $in: pair } }] });
}

/** Deletes every lapsed friend request; how many. */
export function deleteExpiredRequests(db: Database, now = Date.now()): Promise<number> {
  return db.em().nativeDelete(FriendRequest, { createdAt: { $lte: requestCutoff(now) } });
}

/** `a` accepts `b`'s request (which must exist): both become friends, the requests between them go. */
async function befriend(em: SqlEntityManager, a: string, b: string): Promise<void> {
  if ((await commitments(em, a)) >= FRIENDS_LIMIT)
    throw new SocialError("FRIENDS_FULL", `your friends list is full (${FRIENDS_LIMIT}, requests you sent included)`);
  if ((await em.count(Friendship, { accountId: b })) >= FRIENDS_LIMIT) throw new SocialError("THEIR_FRIENDS_FULL", "their friends list is full");
  await em.nativeDelete(FriendRequest, {
    $or: [
      { fromAccountId: a, toAccountId: b },
      { fromAccountId: b, toAccountId: a },
    ],
  });
  await em.insertMany(Friendship, [
    { accountId: a, friendAccountId: b },
    { accountId: b, friendAccountId: a },
  ]);
}

/** `a` asks `b` to be friends: "requested", or "accepted" when `b` had asked `a`. */
export function addFriend(db: Database, a: string, b: string): Promise<"requested" | "accepted"> {
  return pairTransaction(db, a, b, async (em) => {
    await dropExpired(em, a, b);
    if (await areFriends(em, a, b)) throw new SocialError("ALREADY_FRIENDS", "you are already friends");
    if (await ignores(em, a, b)) throw new SocialError("IGNORING", "you are ignoring that player: remove them from your ignore list first");
    if (await ignores(em, b, a)) throw new SocialError("IGNORED", "that player is ignoring you");
    if (await asked(em, a, b)) throw new SocialError("REQUEST_PENDING", "you have already asked that player");
    if (await asked(em, b, a)) {
      await befriend(em, a, b);
      return "accepted";
    }
    if ((await commitments(em, a)) >= FRIENDS_LIMIT)
      throw new SocialError("FRIENDS_FULL", `your friends list is full (${FRIENDS_LIMIT}, requests you sent included)`);
    if ((await em.count(FriendRequest, { toAccountId: b, ...live() })) >= INCOMING_REQUESTS_LIMIT) {
      throw new SocialError("THEIR_REQUESTS_FULL", "that player has too many friend requests waiting");
    }
    await em.insertMany(FriendRequest, [{ fromAccountId: a, toAccountId: b }]);
    return "requested";
  });
}

/** `a` accepts the request `b` sent. */
export function acceptFriend(db: Database, a: string, b: string): Promise<void> {
  return pairTransaction(db, a, b, async (em) => {
    await dropExpired(em, a, b);
    if (await areFriends(em, a, b)) throw new SocialError("ALREADY_FRIENDS", "you are already friends");
    if (!(await asked(em, b, a))) throw new SocialError("NO_REQUEST", "that player has not asked you");
    await befriend(em, a, b);
  });
}

/** `a` declines the request `b` sent. */
export async function declineFriend(db: Database, a: string, b: string): Promise<void> {
  const n = await db.em().nativeDelete(FriendRequest, { fromAccountId: b, toAccountId: a, ...live() });
  if (n === 0) throw new SocialError("NO_REQUEST", "that player has not asked you");
}

/** `a` removes friend `b` (both sides), or withdraws the request it sent `b`. */
export function removeFriend(db: Database, a: string, b: string): Promise<"removed" | "withdrawn"> {
  return pairTransaction(db, a, b, async (em) => {
    const n = await em.nativeDelete(Friendship, {
      $or: [
        { accountId: a, friendAccountId: b },
        { accountId: b, friendAccountId: a },
      ],
    });
    if (n > 0) return "removed";
    if ((await em.nativeDelete(FriendRequest, { fromAccountId: a, toAccountId: b, ...live() })) > 0) return "withdrawn";
    throw new SocialError("NOT_FRIENDS", "that player is not your friend");
  });
}

/** `a` ignores `b`; true when requests between them were dropped with it. */
export function addIgnore(db: Database, a: string, b: string): Promise<boolean> {
  return pairTransaction(db, a, b, async (em) => {
    if (await ignores(em, a, b)) throw new SocialError("ALREADY_IGNORED", "you are already ignoring that player");
    if (await areFriends(em, a, b)) throw new SocialError("ALREADY_FRIENDS", "that player is your friend: remove them from your friends first");
    if ((await em.count(IgnoreEntry, { accountId: a })) >= IGNORE_LIMIT) throw new SocialError("IGNORE_FULL", `your ignore list is full (${IGNORE_LIMIT})`);
    await em.insertMany(IgnoreEntry, [{ accountId: a, ignoredAccountId: b }]);
    const dropped = await em.nativeDelete(FriendRequest, {
      $or: [
        { fromAccountId: a, toAccountId: b },
        { fromAccountId: b, toAccountId: a },
      ],
    });
    return dropped > 0;
  });
}

export async function removeIgnore(db: Database, a: string, b: string): Promise<void> {
  const n = await db.em().nativeDelete(IgnoreEntry, { accountId: a, ignoredAccountId: b });
  if (n === 0) throw new SocialError("NOT_IGNORED", "you are not ignoring that player");
}

/** Whether `from` may send `to` a private message: friends, and neither ignores the other. */
export async function checkMessage(db: Database, from: string, to: string): Promise<void> {
  const em = db.em();
  if (await ignores(em, to, from)) throw new SocialError("IGNORED", "that player is ignoring you");
  if (await ignores(em, from, to)) throw new SocialError("IGNORING", "you are ignoring that player");
  if (!(await areFriends(em, from, to))) throw new SocialError("NOT_FRIENDS", "you can only send private messages to your friends");
}
