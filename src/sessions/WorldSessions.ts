/**
 * One session's life, from either transport (`/ws`, Colyseus): its login (load under the account's
 * lock and the character's lease, or take over the live copy), its end (logout, a dropped connection's
 * linger, then the final save and the lease's release), and the ways it is ended from outside (a
 * takeover by another process, a revoked agent, a kick or ban, a lost lease, repeated faults).
 * The state it works on is SessionTable's; WorldService.ts describes the rules as a whole.
 */
import type { Player } from "../game/world/Player.ts";
import { renameNotice } from "../game/names.ts";
import { questList } from "../game/quests.ts";
import { playerSync, snapshot } from "../game/world/World.ts";
import type { Principal } from "../auth/tokens.ts";
import { clearRenamedFrom, lastSession, loadOrCreatePlayer, recordLogin } from "../persistence/players.ts";
import { CharacterInUseError } from "../persistence/leases.ts";
import { controlAs, releaseControl } from "./playerControl.ts";
import { SessionTable } from "./SessionTable.ts";
import {
  AgentRevokedError,
  CLOSE_CHARACTER_LOST,
  CLOSE_FAULTS,
  CLOSE_NOT_AUTHENTICATED,
  CLOSE_REPLACED,
  HopCooldownError,
  LINGER_MS,
  TAKEOVER_POLL_MS,
  TAKEOVER_WAIT_MS,
  WorldFullError,
  type AgentGreeting,
  type AttachOptions,
  type Connection,
  type LogoutReason,
} from "./sessionTypes.ts";

export class WorldSessions extends SessionTable {
  /**
   * A connection's login, the same on both transports: {@link attach}, then at once `welcome`,
   * `player:sync`, for an agent's token, `agent:goal` with the agent's current goal state (read
   * before the attach; the agent's pushes wait until it has been sent), and `quest:list`. Rejects with
   * {@link AgentRevokedError} when the token's agent is gone, and as attach does.
   */
  async login(principal: Principal, options: AttachOptions, conn: Connection, issuedToken: string | undefined): Promise<Player> {
    let greeting: AgentGreeting | undefined;
    if (principal.agentId !== undefined && this.agentGreeting !== undefined) {
      greeting = await this.agentGreeting(principal);
      if (greeting === undefined) throw new AgentRevokedError("this agent was deleted or its token replaced");
    }
    try {
      const player = await this.attach(principal, options, conn);
      conn.send("welcome", this.welcome(player, principal, issuedToken));
      conn.send("player:sync", playerSync(player));
      player.syncDue = false;
      if (greeting !== undefined) conn.send("agent:goal", greeting.state);
      conn.send("quest:list", questList(this.world, player));
      return player;
    } finally {
      greeting?.release();
    }
  }

  /** Puts a connection in control of the account's character, loading it if needed. */
  attach(principal: Principal, options: AttachOptions, conn: Connection): Promise<Player> {
    return this.withAccount(principal.accountId, async () => {
      if (this.closed) throw new Error("the world is shutting down");
      await this.admission?.(principal.accountId);
      if (principal.characterId !== undefined && options.characterId !== undefined && options.characterId !== principal.characterId) {
        throw Object.assign(new Error("this token is scoped to another character"), { code: "FORBIDDEN" });
      }
      const characterId = options.characterId ?? principal.characterId;
      let player = characterId !== undefined ? this.world.players.get(characterId) : this.world.firstPlayerOfAccount(principal.accountId);
      if (player !== undefined && player.data.accountId !== principal.accountId) {
        throw Object.assign(new Error("that character belongs to another account"), { code: "FORBIDDEN" });
      }
      if (player === undefined) {
        if (this.world.players.size >= this.capacity) throw new WorldFullError(this.worldId, this.capacity);
        // Whatever is being saved of this character (or, not knowing which, of the account) is
        // written before it is read: a load must never see rows older than the world last had.
        await (characterId !== undefined ? this.saver.settled(characterId) : this.saver.settledAccount(principal.accountId));
        // What the player must have from its first tick (its ignore list), read before anything is claimed.
        const entered = await this.hooks?.beforeEnter(principal.accountId);
        // The lease is taken before the rows are read (claim): a character another live process
        // holds is refused with CHARACTER_IN_USE and nothing is loaded.
        let claimed: string | undefined;
        const data = await loadOrCreatePlayer(this.db, this.content, {
          accountId: principal.accountId,
          characterId,
          name: options.name,
          claim: async (id) => {
            if (this.world.players.has(id)) return;
            await this.checkHop(id);
            await this.acquireOrTakeOver(id);
            claimed = id;
          },
        }).catch(async (err: unknown) => {
          // Taken, then the load failed: the lease must not outlive the attempt.
          if (claimed !== undefined && !this.world.players.has(claimed)) await this.leases.release(claimed).catch(() => {});
          throw err;
        });
        player = this.world.players.get(data.characterId);
        if (player === undefined) {
          this.saver.track(data.characterId, data.version, data);
          player = this.world.addPlayer(data);
          entered?.(player);
          if (data.renamedFrom !== undefined) this.tellRenamed(player, data.renamedFrom);
        }
        this.onPlayerAdded(player);
      }
      const previous = this.connections.get(player.id);
      if (previous !== undefined && previous !== conn) {
        this.world.trades.cancelFor(this.world, player.id, "disconnected");
        this.world.takeControl(player);
        this.endSession(previous, "replaced");
        try {
          previous.send("error", { code: "SESSION_REPLACED", message: "this character logged in from another connection" });
          previous.close(CLOSE_REPLACED, "replaced by a newer login");
        } catch (err) {
          this.logger.debug({ err }, "closing a replaced connection failed (already gone)");
        }
      }
      this.cancelLinger(player.id);
      player.disconnectedAt = undefined;
      conn.principal = principal;
      // Its rights are this connection's, never the previous one's (an owner's `/admin` grant is not an agent's).
      controlAs(player, principal);
      this.connections.set(player.id, conn);
      conn.session = { characterId: player.id, name: player.data.name, startedAt: Date.now() };
      this.logger.info(
        {
          event: "join",
          characterId: player.id,
          name: player.data.name,
          accountId: principal.accountId,
          agentId: principal.agentId,
          transport: conn.transport,
          remoteAddress: conn.remoteAddress,
          takeover: previous !== undefined && previous !== conn,
        },
        "player joined",
      );
      conn.sessionRowId = recordLogin(this.db, {
        characterId: player.id,
        accountId: principal.accountId,
        transport: conn.transport,
        remoteAddress: conn.remoteAddress,
        world: this.worldId,
      }).catch((err: unknown) => {
        this.logger.warn({ err }, "could not record the login");
        return undefined;
      });
      player.syncDue = true;
      return player;
    });
  }

  /** Tells the player, once, that the name key migration renamed its character (db/nameKeys.ts). */
  protected tellRenamed(player: Player, from: string): void {
    this.world.tell(player.id, renameNotice(from, player.data.name));
    clearRenamedFrom(this.db, player.id).catch((err: unknown) =>
      this.logger.warn({ err, characterId: player.id }, "could not clear the rename notice: it will be given again"),
    );
  }

  /**
   * Entering this world within the hop cooldown of entering another is refused: the character's
   * latest session says where and when it last entered a world (whichever process wrote it).
   */
  protected async checkHop(characterId: string): Promise<void> {
    if (this.hopCooldownMs <= 0) return;
    const last = await lastSession(this.db, characterId);
    if (last === undefined || last.world === this.worldId) return;
    const until = last.loginAt.getTime() + this.hopCooldownMs;
    if (until > Date.now()) throw new HopCooldownError(new Date(until));
  }

  /**
   * Takes the character's lease. Held by another live process: in a cluster, asks that process to
   * let the character go and waits (up to {@link TAKEOVER_WAIT_MS}) for its final save to release
   * the lease; otherwise, or when it does not, CHARACTER_IN_USE.
   */
  protected async acquireOrTakeOver(characterId: string): Promise<void> {
    try {
      await this.leases.acquire(characterId);
      return;
    } catch (err) {
      if (!(err instanceof CharacterInUseError) || this.takeover === undefined) throw err;
    }
    const holder = await this.leases.holder(characterId);
    if (holder !== undefined) await this.takeover(characterId, holder);
    const deadline = Date.now() + TAKEOVER_WAIT_MS;
    for (;;) {
      await new Promise((r) => setTimeout(r, TAKEOVER_POLL_MS));
      try {
        await this.leases.acquire(characterId);
        this.logger.info({ event: "takeover", characterId, from: holder }, "took a character over from another process");
        return;
      } catch (err) {
        if (!(err instanceof CharacterInUseError) || Date.now() >= deadline) throw err;
      }
    }
  }

  /**
   * A connection went away. `logout`: the player leaves now (saved). `disconnect`: it lingers
   * for {@link LINGER_MS} in case the client comes back. `expired`: the transport already waited
   * for a reconnection (Colyseus), so the player leaves now.
   */
  detach(playerId: string, conn: Connection, reason: "logout" | "disconnect" | "expired"): void {
    if (this.connections.get(playerId) !== conn) return;
    this.connections.delete(playerId);
    this.world.trades.cancelFor(this.world, playerId, "disconnected");
    this.endSession(conn, reason === "logout" ? "logout" : "disconnect");
    const player = this.world.players.get(playerId);
    if (player === undefined) return;
    releaseControl(player);
    if (reason !== "disconnect") {
      void this.removeAndSave(playerId);
      return;
    }
    player.disconnectedAt = this.world.now();
    this.lingering.set(
      playerId,
      setTimeout(() => {
        this.lingering.delete(playerId);
        if (!this.connections.has(playerId)) void this.removeAndSave(playerId);
      }, LINGER_MS),
    );
  }

  protected async removeAndSave(playerId: string): Promise<void> {
    // A trade being stored must finish first: its swap, not an older snapshot, is the last word.
    await this.world.trades.settled(playerId);
    if (this.connections.has(playerId)) return;
    const player = this.world.removePlayer(playerId);
    if (player === undefined) return;
    this.onPlayerRemoved(player);
    this.hooks?.left(player);
    this.saver.enqueue([snapshot(player)]);
    await this.saver.flush();
    // The lease goes once the final save is stored (retried until it is), under the account's lock
    // so that a login of the same character in between keeps its lease.
    await this.saver.settled(playerId);
    await this.withAccount(player.data.accountId, async () => {
      if (this.world.players.has(playerId) || this.saver.busy(playerId)) return;
      this.saver.forget(playerId);
      await this.leases.release(playerId);
    }).catch((err: unknown) => this.logger.warn({ err, characterId: playerId }, "could not release a character lease; it expires on its own"));
  }

  /**
   * Another process's login takes this character over (a world hop, or a login elsewhere): as a
   * takeover here, the connection hears SESSION_REPLACED and is closed (4009), its trade is
   * cancelled, and the player leaves saved; the lease is released after the save, which the other
   * process waits for. A character without a player here (its final save under way) needs
   * nothing: its lease goes when the save is stored.
   */
  handOver(characterId: string): void {
    const player = this.world.players.get(characterId);
    if (player === undefined) return;
    this.disconnectAccount(
      player.data.accountId,
      CLOSE_REPLACED,
      { code: "SESSION_REPLACED", message: "this character logged in on another world or server" },
      characterId,
      "replaced",
    );
  }

  /**
   * A deleted agent's live session, or one opened with a replaced token, ends at once (its tokens stop working at the next
   * authentication, but a socket that is already open would otherwise go on): `error`
   * NOT_AUTHENTICATED, close 4001, and the character logs out. A Colyseus client cannot come back
   * through its reconnection window, because the connection no longer controls the character.
   */
  revokeAgent(agentId: string, characterId: string, why = "this agent was deleted"): void {
    const conn = this.connections.get(characterId);
    if (conn === undefined || conn.principal?.agentId !== agentId) return;
    this.closeSeats(conn, CLOSE_NOT_AUTHENTICATED);
    this.detach(characterId, conn, "logout");
    try {
      conn.send("error", { code: "NOT_AUTHENTICATED", message: why });
      conn.close(CLOSE_NOT_AUTHENTICATED, "agent revoked");
    } catch (err) {
      this.logger.debug({ err }, "closing a revoked agent's connection failed (already gone)");
    }
  }

  /**
   * Ends the sessions of an account's characters in this process (all, or `characterId`'s): a kick
   * or a ban. Each connection gets `error` and is closed with `closeCode`; its trade is cancelled
   * and the player leaves the world saved, as at a logout (a character lingering after a dropped
   * connection leaves saved too). Returns the ids of the characters that left.
   */
  disconnectAccount(
    accountId: string,
    closeCode: number,
    error: { code: string; message: string; until?: string | null },
    characterId?: string,
    reason: LogoutReason = "kicked",
  ): string[] {
    const left: string[] = [];
    for (const player of [...this.world.players.values()]) {
      if (player.data.accountId !== accountId || (characterId !== undefined && player.id !== characterId)) continue;
      left.push(player.id);
      this.cancelLinger(player.id);
      const conn = this.connections.get(player.id);
      if (conn !== undefined) {
        this.closeSeats(conn, closeCode);
        this.connections.delete(player.id);
        this.world.trades.cancelFor(this.world, player.id, "disconnected");
        this.endSession(conn, reason);
        try {
          conn.send("error", error);
          conn.close(closeCode, error.code.toLowerCase());
        } catch (err) {
          this.logger.debug({ err }, "closing a kicked player's connection failed (already gone)");
        }
      }
      void this.removeAndSave(player.id);
    }
    return left;
  }

  /**
   * Another process has taken the character over (its lease, or a save's version check): its
   * player is disconnected (CHARACTER_IN_USE) and leaves the world without a save, since any save
   * of ours would undo the other process's writes.
   */
  async characterLost(characterId: string): Promise<void> {
    this.saver.forget(characterId);
    this.world.trades.cancelFor(this.world, characterId, "disconnected");
    await this.world.trades.settled(characterId);
    this.cancelLinger(characterId);
    const conn = this.connections.get(characterId);
    if (conn !== undefined) {
      this.connections.delete(characterId);
      this.endSession(conn, "kicked");
      try {
        conn.send("error", { code: "CHARACTER_IN_USE", message: "this character was taken over by another server; log in again" });
        conn.close(CLOSE_CHARACTER_LOST, "character taken over by another server");
      } catch (err) {
        this.logger.debug({ err }, "closing a lost character's connection failed (already gone)");
      }
    }
    const player = this.world.removePlayer(characterId);
    if (player !== undefined) {
      this.onPlayerRemoved(player);
      this.hooks?.left(player);
    }
    // Dropped, not saved: and the lease row goes only if it is still ours.
    this.saver.forget(characterId);
    await this.leases.release(characterId).catch((err: unknown) => this.logger.warn({ err, characterId }, "could not release a lost character's lease"));
  }

  /** A player whose commands keep failing on the server leaves the world, saved first. */
  protected disconnectFaulty(playerId: string): void {
    const conn = this.connections.get(playerId);
    if (conn === undefined) {
      this.cancelLinger(playerId);
      void this.removeAndSave(playerId);
      return;
    }
    this.detach(playerId, conn, "logout");
    try {
      conn.send("error", { code: "INTERNAL", message: "disconnected after repeated server errors; your progress is saved" });
      conn.close(CLOSE_FAULTS, "repeated server errors");
      // This happens inside the tick, whose corked sockets are uncorked through `connections`,
      // which no longer holds this one.
      conn.uncork?.();
    } catch (err) {
      this.logger.debug({ err }, "closing a faulty player's connection failed (already gone)");
    }
  }
}
