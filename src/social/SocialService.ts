/**
 * Friends, ignore lists and private messages, across worlds and processes.
 *
 * - The database is the truth about relationships (persistence/social.ts). The only copy in memory
 *   is each live player's ignore set (`Player.ignored`, read before it enters the world and re-read
 *   whenever its account's lists change), which the tick applies to chat and trade requests.
 * - Who is online, on which world, is one hash in Colyseus' presence ({@link ONLINE_KEY}: account
 *   id → {node, characterId, name, world}), which every process shares with Redis presence and a
 *   single process keeps in LocalPresence (the same API).
 * - Whatever is pushed to an account goes through its presence channel (`social:account:<id>`),
 *   which the process holding the account's character subscribes to while the character is in its
 *   world: a friend's status (`social:status`), "your lists changed" (that process re-reads them and
 *   sends `social:list`), a private message. So a change made on any process, or over REST, reaches
 *   the player wherever it plays, and nothing looks players up in one process's memory.
 * - A private message is checked against the database (friends, neither ignoring the other) and the
 *   online hash, then published to the recipient's channel; the recipient's process hands it to the
 *   player's connection and answers on the sender's process channel (`social:node:<id>`). The sender
 *   gets `social:messageSent` once it is delivered, or an `error` (PLAYER_OFFLINE when no process
 *   answers within {@link PM_ACK_TIMEOUT_MS}). Each account's social work runs in order (one chain
 *   per account), so its messages are published, delivered and confirmed in the order sent.
 * - {@link SocialService.announce} is the one place a status change goes out: login, logout, and a
 *   world hop (which announces the new world from the process that now holds the character).
 */
import { randomUUID } from "node:crypto";
import type { Presence } from "@colyseus/core";
import type { Database } from "../db/orm.ts";
import type { SocialCommandEvent, SocialPort } from "../game/social.ts";
import type { ServerEvent, ServerEventName } from "../game/serverEvents.ts";
import type { Player } from "../game/world/Player.ts";
import type { Logger } from "../logger.ts";
import {
  accountNames,
  checkMessage,
  deleteExpiredRequests,
  findAccountByName,
  friendsOf,
  ignoredBy,
  SocialError,
  type NamedAccount,
} from "../persistence/social.ts";
import type { Connection, WorldHooks } from "../sessions/WorldService.ts";
import { SocialBudgets } from "./socialBudgets.ts";
import { SerialQueues } from "./serialQueues.ts";
import { readLists } from "./socialLists.ts";
import { applyChange, type Tell } from "./socialChanges.ts";
import { ListPacer } from "./listPacer.ts";
import {
  accountChannel,
  DEFAULT_WORLD,
  EXPIRED_REQUESTS_SWEEP_MS,
  ONLINE_KEY,
  PM_ACK_TIMEOUT_MS,
  SHUTDOWN_ANNOUNCE_MS,
  SWEEP_INTERVAL_MS,
  nodeChannel,
  type SocialChangeEvent,
  type SocialLists,
  type Status,
  type Change,
  type OnlineEntry,
  type AccountNotice,
  type NodeNotice,
  type PendingMessage,
} from "./socialChannels.ts";

export {
  accountChannel,
  DEFAULT_WORLD,
  EXPIRED_REQUESTS_SWEEP_MS,
  ONLINE_KEY,
  PM_ACK_TIMEOUT_MS,
  SHUTDOWN_ANNOUNCE_MS,
  SWEEP_INTERVAL_MS,
  type SocialChangeEvent,
  type SocialLists,
  type Status,
} from "./socialChannels.ts";

export interface SocialDeps {
  db: Database;
  /** A player's connection in this process, if it has one (WorldService.connectionOf). */
  connectionOf(playerId: string): Connection | undefined;
  logger: Logger;
  /** The world number told to friends (DEFAULT_WORLD until worlds are numbered). */
  world?: number;
  /** How long a private message waits for the recipient's process (PM_ACK_TIMEOUT_MS). */
  ackTimeoutMs?: number;
}

export class SocialService implements SocialPort {
  /** This service's id in the online hash and its channel's name. */
  readonly node = randomUUID();
  readonly world: number;
  private readonly ackTimeoutMs: number;
  private readonly db: Database;
  private readonly logger: Logger;
  private readonly connectionOf: (playerId: string) => Connection | undefined;
  private presence: Presence | undefined;
  /** Accounts with a character in this process's world, and those characters. */
  private readonly local = new Map<string, Set<Player>>();
  /** Accounts whose channel this process listens to, with the listener. */
  private readonly subscriptions = new Map<string, (notice: AccountNotice) => void>();
  /** Each account's social work, in order (serialQueues.ts). */
  private readonly queues = new SerialQueues();
  private readonly pending = new Map<string, PendingMessage>();
  private readonly onNodeNotice = (notice: NodeNotice) => this.acknowledged(notice);
  private closed = false;
  /** Friend requests and private messages per account (socialBudgets.ts): in memory until the server gives its Redis-backed ones. */
  budgets = new SocialBudgets();
  /** "Your lists changed": at most one `social:list` a second to an account (listPacer.ts). */
  private readonly listUpdates = new ListPacer<Change>(
    (accountId, change) =>
      void this.serial(accountId, async () => {
        const { lists, ignored } = await this.read(accountId);
        for (const p of this.local.get(accountId) ?? []) {
          p.ignored = ignored;
          this.send(p.id, "social:list", change === undefined ? lists : { ...lists, change });
        }
      }).catch((err: unknown) => this.logger.warn({ err, accountId }, "could not refresh an account's social lists")),
  );
  private sweepTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(deps: SocialDeps) {
    this.db = deps.db;
    this.logger = deps.logger;
    this.connectionOf = deps.connectionOf;
    this.world = deps.world ?? DEFAULT_WORLD;
    this.ackTimeoutMs = deps.ackTimeoutMs ?? PM_ACK_TIMEOUT_MS;
  }

  /** Starts listening on the presence (matchMaker.presence, once Colyseus is set up). */
  async start(presence: Presence): Promise<void> {
    this.presence = presence;
    await presence.subscribe(nodeChannel(this.node), this.onNodeNotice);
    this.sweepTimer = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
    this.expiryTimer = setInterval(() => void this.deleteExpired(), EXPIRED_REQUESTS_SWEEP_MS);
    this.expiryTimer.unref();
  }

  /** Deletes the lapsed friend requests (they are neither shown nor counted meanwhile). */
  async deleteExpired(): Promise<void> {
    try {
      const n = await deleteExpiredRequests(this.db);
      if (n > 0) this.logger.info({ requests: n }, "deleted lapsed friend requests");
    } catch (err) {
      this.logger.warn({ err }, "deleting lapsed friend requests failed; will retry");
    }
  }

  /**
   * Players of a process that died (SIGKILL, a lost machine) stay in the online hash, as nobody
   * announced their logout: an entry whose node no longer listens on its channel is removed and its
   * friends are told the player went offline. Every process sweeps; the one whose delete removed
   * the entry announces it, so friends hear it once.
   */
  sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      const presence = this.presence;
      if (presence === undefined || this.closed) return;
      try {
        const all = (await presence.hgetall(ONLINE_KEY)) ?? {};
        const listening = new Set((await presence.channels(nodeChannel("*"))).map((c) => c.slice(nodeChannel("").length)));
        listening.add(this.node);
        for (const [accountId, raw] of Object.entries(all)) {
          const entry = JSON.parse(raw) as OnlineEntry;
          if (listening.has(entry.node)) continue;
          // Read again right before the delete: the player may have logged in elsewhere meanwhile.
          const now = await this.entry(accountId);
          if (now?.node !== entry.node || !(await presence.hdel(ONLINE_KEY, accountId))) continue;
          this.logger.info({ accountId, world: entry.world }, "a gone process's player is offline now");
          const notice: AccountNotice = { t: "status", accountId, name: entry.name, online: false, world: null };
          for (const friend of await friendsOf(this.db, accountId)) this.publish(accountChannel(friend), notice);
        }
      } catch (err) {
        this.logger.warn({ err }, "sweeping the online list failed; will retry");
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }

  /** The WorldService's hooks: a character's ignore list before it enters, its friends told it came and went. */
  readonly hooks: WorldHooks = {
    beforeEnter: async (accountId) => {
      const ignored = await ignoredBy(this.db, accountId);
      return (player) => this.entered(player, ignored);
    },
    left: (player) => this.left(player),
  };

  // ---- status --------------------------------------------------------------------------

  private entered(player: Player, ignored: ReadonlySet<string>): void {
    player.ignored = ignored;
    const accountId = player.data.accountId;
    let players = this.local.get(accountId);
    if (players === undefined) this.local.set(accountId, (players = new Set()));
    players.add(player);
    void this.serial(accountId, async () => {
      if (player.gone || this.closed) return;
      await this.subscribe(accountId);
      await this.announce(accountId, { online: true, characterId: player.id, name: player.data.name, world: this.world });
    });
  }

  private left(player: Player): void {
    const accountId = player.data.accountId;
    const players = this.local.get(accountId);
    players?.delete(player);
    if (players?.size === 0) this.local.delete(accountId);
    void this.serial(accountId, async () => {
      if (this.closed) return;
      const other = this.local.get(accountId)?.values().next().value;
      if (other !== undefined) {
        // Another character of the account is still here: it is the one online now.
        if ((await this.entry(accountId))?.characterId === player.id) {
          await this.announce(accountId, { online: true, characterId: other.id, name: other.data.name, world: this.world });
        }
        return;
      }
      this.unsubscribe(accountId);
      await this.announce(accountId, { online: false, characterId: player.id });
    });
  }

  /**
   * Records an account's status in the online hash and tells its friends (`social:status`), wherever
   * they play. Offline only when this process is the one that holds the character: after a hop or a
   * takeover another process has already announced it online, and says nothing is changed.
   */
  async announce(accountId: string, status: Status): Promise<void> {
    const presence = this.presence;
    if (presence === undefined) return;
    let name: string;
    if (status.online) {
      name = status.name;
      const entry: OnlineEntry = { node: this.node, characterId: status.characterId, name, world: status.world };
      await presence.hset(ONLINE_KEY, accountId, JSON.stringify(entry));
    } else {
      const entry = await this.entry(accountId);
      if (entry === undefined || entry.node !== this.node || entry.characterId !== status.characterId) return;
      await presence.hdel(ONLINE_KEY, accountId);
      name = entry.name;
    }
    const notice: AccountNotice = { t: "status", accountId, name, online: status.online, world: status.online ? status.world : null };
    for (const friend of await friendsOf(this.db, accountId)) this.publish(accountChannel(friend), notice);
  }

  /** Where an account is online, if it is. */
  private async entry(accountId: string): Promise<OnlineEntry | undefined> {
    const raw = await this.presence?.hget(ONLINE_KEY, accountId);
    return raw ? (JSON.parse(raw) as OnlineEntry) : undefined;
  }

  // ---- lists ---------------------------------------------------------------------------

  /** The account's lists as `social:list` shows them (with friends' status), and its ignore set. */
  private read(accountId: string): Promise<{ lists: SocialLists; ignored: Set<string> }> {
    return readLists(this.db, accountId, (id) => this.entry(id));
  }

  /** The account's lists (GET /api/v1/social). */
  async lists(accountId: string): Promise<SocialLists> {
    return (await this.read(accountId)).lists;
  }

  /** The name the account's friends see: its character online, else its last played. */
  private async nameOf(accountId: string): Promise<string | undefined> {
    return (await this.entry(accountId))?.name ?? (await accountNames(this.db, [accountId])).get(accountId);
  }

  /** Another player by name, for a command of `accountId`'s. */
  private async target(accountId: string, name: string): Promise<NamedAccount> {
    const target = await findAccountByName(this.db, name.trim());
    if (target === undefined) throw new SocialError("UNKNOWN_PLAYER", `there is no player named "${name.trim()}"`);
    if (target.accountId === accountId) throw new SocialError("SELF", "that is you");
    return target;
  }

  /**
   * One change to an account's lists, by name of the other player, stored first; then both
   * accounts are told (their processes re-read the lists and send `social:list` with the change).
   * Runs in the account's order; rejects with a SocialError when refused (nothing changed).
   */
  change(accountId: string, event: SocialChangeEvent, name: string): Promise<void> {
    return this.serial(accountId, async () => {
      const myName = await this.nameOf(accountId);
      if (myName === undefined) throw new SocialError("NO_CHARACTER", "create a character first: other players know you by its name");
      const other = await this.target(accountId, name);
      const me = { accountId, name: myName };
      const tell: Tell = (to, kind, about) =>
        this.publish(
          accountChannel(to.accountId),
          kind === undefined ? { t: "refresh" } : { t: "refresh", change: { kind, accountId: about.accountId, name: about.name } },
        );
      await applyChange(this.db, this.budgets, event, me, other, tell);
    });
  }

  // ---- the game's port (commands from either socket transport, in the tick) -------------

  command(player: Player, event: SocialCommandEvent, name: string | undefined): void {
    if (event === "social:getList") {
      void this.serial(player.data.accountId, async () => {
        this.send(player.id, "social:list", await this.lists(player.data.accountId));
      }).catch((err: unknown) => this.refuse(player, event, err));
      return;
    }
    this.change(player.data.accountId, event, name ?? "").catch((err: unknown) => this.refuse(player, event, err));
  }

  privateMessage(player: Player, to: string, message: string): void {
    const accountId = player.data.accountId;
    this.serial(accountId, async () => {
      const other = await this.target(accountId, to);
      await this.budgets.takeMessage(accountId);
      await checkMessage(this.db, accountId, other.accountId);
      const entry = await this.entry(other.accountId);
      if (entry === undefined) throw new SocialError("PLAYER_OFFLINE", `${other.name} is offline`);
      const id = randomUUID();
      const timestamp = Date.now();
      const timer = setTimeout(
        () => this.acknowledged({ t: "ack", id, error: { code: "PLAYER_OFFLINE", message: `${entry.name} is offline` } }),
        this.ackTimeoutMs,
      );
      timer.unref();
      this.pending.set(id, { player, to: entry.name, message, timestamp, timer });
      this.publish(accountChannel(other.accountId), {
        t: "pm",
        id,
        fromAccountId: accountId,
        from: player.data.name,
        message,
        timestamp,
        replyTo: nodeChannel(this.node),
      });
    }).catch((err: unknown) => this.refuse(player, "social:sendMessage", err));
  }

  /** A recipient's process answered (or the wait ran out): the sender is told, once. */
  private acknowledged(notice: NodeNotice): void {
    const sent = this.pending.get(notice.id);
    if (sent === undefined) return;
    this.pending.delete(notice.id);
    clearTimeout(sent.timer);
    if (notice.error !== undefined) this.send(sent.player.id, "error", { ...notice.error, event: "social:sendMessage" });
    else this.send(sent.player.id, "social:messageSent", { id: notice.id, to: sent.to, message: sent.message, timestamp: sent.timestamp });
  }

  // ---- the account channels -----------------------------------------------------------

  private async subscribe(accountId: string): Promise<void> {
    if (this.subscriptions.has(accountId) || this.presence === undefined) return;
    const listener = (notice: AccountNotice) => this.onAccountNotice(accountId, notice);
    this.subscriptions.set(accountId, listener);
    await this.presence.subscribe(accountChannel(accountId), listener);
  }

  private unsubscribe(accountId: string): void {
    const listener = this.subscriptions.get(accountId);
    if (listener === undefined) return;
    this.subscriptions.delete(accountId);
    this.listUpdates.forget(accountId);
    this.presence?.unsubscribe(accountChannel(accountId), listener);
  }

  private onAccountNotice(accountId: string, notice: AccountNotice): void {
    const players = [...(this.local.get(accountId) ?? [])];
    switch (notice.t) {
      case "status":
        for (const p of players)
          this.send(p.id, "social:status", { accountId: notice.accountId, name: notice.name, online: notice.online, world: notice.world });
        return;
      case "refresh":
        // The ignore set is applied by the tick: it cannot wait for a coalesced list.
        if (notice.change?.kind === "ignoreAdded" || notice.change?.kind === "ignoreRemoved") {
          void this.serial(accountId, async () => {
            const ignored = await ignoredBy(this.db, accountId);
            for (const p of this.local.get(accountId) ?? []) p.ignored = ignored;
          }).catch((err: unknown) => this.logger.warn({ err, accountId }, "could not re-read an account's ignore list"));
        }
        this.listUpdates.update(accountId, notice.change);
        return;
      case "pm": {
        // Delivered here, to one connection, or refused; the sender's process hears which.
        const to = players.find((p) => {
          const conn = this.connectionOf(p.id);
          return conn !== undefined && conn.isOpen?.() !== false;
        });
        let error: NodeNotice["error"];
        if (to === undefined) error = { code: "PLAYER_OFFLINE", message: "that player is offline" };
        else if (to.ignored.has(notice.fromAccountId)) error = { code: "IGNORED", message: "that player is ignoring you" };
        else this.send(to.id, "social:message", { id: notice.id, from: notice.from, message: notice.message, timestamp: notice.timestamp });
        this.publish(notice.replyTo, error === undefined ? { t: "ack", id: notice.id } : { t: "ack", id: notice.id, error });
        return;
      }
    }
  }

  // ---- plumbing ------------------------------------------------------------------------

  private publish(channel: string, notice: AccountNotice | NodeNotice): void {
    try {
      const sent = this.presence?.publish(channel, notice) as unknown;
      if (sent instanceof Promise) sent.catch((err: unknown) => this.logger.warn({ err, channel }, "could not publish a social notice"));
    } catch (err) {
      this.logger.warn({ err, channel }, "could not publish a social notice");
    }
  }

  private send<K extends ServerEventName>(playerId: string, type: K, data: ServerEvent<K>): void {
    this.connectionOf(playerId)?.send(type, data);
  }

  /** A refused command: its SocialError as an `error` naming the event; anything else is logged and INTERNAL_ERROR. */
  private refuse(player: Player, event: string, err: unknown): void {
    if (err instanceof SocialError) {
      this.send(player.id, "error", { code: err.code, message: err.message, event });
      return;
    }
    this.logger.error({ err, event }, "a social command failed");
    this.send(player.id, "error", { code: "INTERNAL_ERROR", message: "the server could not handle this event", event });
  }

  /** Runs `fn` after the account's earlier social work. */
  private serial<T>(accountId: string, fn: () => Promise<T>): Promise<T> {
    return this.queues.run(accountId, fn);
  }

  /**
   * Shutdown: every player here is announced offline (for at most SHUTDOWN_ANNOUNCE_MS), the
   * channels are left, and messages still waiting for an answer get none.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    clearInterval(this.expiryTimer);
    this.listUpdates.close();
    await this.sweeping;
    const goodbyes = [...this.local.entries()].map(([accountId, players]) =>
      this.serial(accountId, async () => {
        this.unsubscribe(accountId);
        const player = players.values().next().value;
        if (player !== undefined) await this.announce(accountId, { online: false, characterId: player.id });
      }).catch((err: unknown) => this.logger.warn({ err, accountId }, "could not announce a logout at shutdown")),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(goodbyes), new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_ANNOUNCE_MS)))]);
    clearTimeout(timer);
    for (const accountId of [...this.subscriptions.keys()]) this.unsubscribe(accountId);
    this.presence?.unsubscribe(nodeChannel(this.node), this.onNodeNotice);
    for (const sent of this.pending.values()) clearTimeout(sent.timer);
    this.pending.clear();
  }
}
