/**
 * The bridge between connections (Colyseus clients, `/ws` sockets) and one World.
 *
 * - One live copy per character: a second login for a character that is already in the world
 *   takes it over (the old connection is closed with {@link CLOSE_REPLACED}); there are never two.
 *   Logins of one account are serialised, so two at once cannot both load it.
 * - A dropped connection leaves its player in the world for {@link LINGER_MS}; a new connection
 *   within that time continues the same player. After it, the player is saved and removed.
 * - Every input from any transport goes through {@link input}: validation against the shared
 *   event table, then the player's queue for the next tick. (Transports rate-limit before that.)
 * - Saves: autosave every SAVE_INTERVAL through the world's persistence phase, plus an immediate
 *   save when a player leaves, and a full save at shutdown. A player is only loaded after its last
 *   save has completed.
 * - One process per character: a character is loaded only under its lease (persistence/leases.ts),
 *   renewed while it is here and released after its final save; a login of a character another
 *   live process holds is refused (CHARACTER_IN_USE). A character whose lease or save version
 *   another process has taken is lost to this one: its player is disconnected without a save.
 *   In a cluster (REDIS_URL) a login of a character that another process holds asks that process
 *   to let it go ({@link takeover}): the old connection hears SESSION_REPLACED, its player leaves
 *   saved, and the lease is released after the save, so this login loads what was last stored.
 * - One world a process: a login past the world's capacity is refused (WORLD_FULL), and entering
 *   this world within the hop cooldown of entering another is refused (HOP_COOLDOWN).
 *
 * Where each part lives, read in this order: sessionTypes.ts (connections, hooks, errors, close
 * codes), SessionTable.ts (the state: who controls which player, locks, seats), WorldSessions.ts
 * (a session's life: login, takeover, linger, final save, and every way one is ended),
 * WorldDelivery.ts (inputs in, the tick's messages and deltas out), and this file (lease renewal,
 * faults, character deletion, the shutdown). One class, built up in that order.
 */
import { snapshot, type Fault } from "../game/world/World.ts";
import { deleteCharacter } from "../persistence/players.ts";
import { CharacterInUseError } from "../persistence/leases.ts";
import type { WorldServiceDeps } from "./SessionTable.ts";
import { FAULT_LOG_INTERVAL_MS } from "./sessionTypes.ts";
import { WorldDelivery } from "./WorldDelivery.ts";

export {
  AgentRevokedError,
  CLOSE_CHARACTER_LOST,
  CLOSE_FAULTS,
  CLOSE_REPLACED,
  FAULT_LOG_INTERVAL_MS,
  HopCooldownError,
  LINGER_MS,
  TAKEOVER_POLL_MS,
  TAKEOVER_WAIT_MS,
  WorldFullError,
} from "./sessionTypes.ts";
export type { WorldServiceDeps } from "./SessionTable.ts";
export type { AgentGreeting, AttachOptions, Connection, LogoutReason, ServiceEvent, WorldHooks } from "./sessionTypes.ts";

/** The world's sessions (WorldSessions.ts), their traffic (WorldDelivery.ts), and what keeps the process whole: leases renewed, faults counted, the shutdown. */
export class WorldService extends WorldDelivery {
  private readonly renewTimer: NodeJS.Timeout;
  private renewing: Promise<void> | undefined;
  private quiescing: Promise<void> | undefined;
  /** Faults the tick contained, by where they happened (metrics). */
  readonly faultCounts: Record<string, number> = {};
  /** Per kind of fault: when it was last logged and how many were not logged since. */
  private readonly faultLog = new Map<string, { at: number; suppressed: number }>();

  constructor(deps: WorldServiceDeps) {
    super(deps);
    this.world.onFault = (fault) => this.reportFault(fault);
    this.saver.onLost = (characterId) => void this.characterLost(characterId);
    this.renewTimer = setInterval(() => void this.renewLeases(), this.leases.renewMs);
    this.renewTimer.unref();
  }

  /** Extends this process's leases; a character whose lease another process took is lost. */
  renewLeases(): Promise<void> {
    this.renewing ??= (async () => {
      try {
        for (const id of await this.leases.renewAll()) {
          this.logger.error({ characterId: id }, "lost a character lease to another process; the character is lost to this one");
          await this.characterLost(id);
        }
      } catch (err) {
        this.logger.warn({ err }, "renewing the character leases failed; will retry");
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  /**
   * A fault the tick contained (or, for `tick`, the room caught around it): counted, logged (with
   * where and the event name, never the payload; once a minute per kind, with the count in
   * between), and a player who reached the fault limit is disconnected, saved first.
   */
  reportFault(fault: Fault): void {
    this.faultCounts[fault.where] = (this.faultCounts[fault.where] ?? 0) + 1;
    const key = `${fault.where}:${fault.event ?? ""}`;
    const now = Date.now();
    const last = this.faultLog.get(key);
    if (last === undefined || now - last.at >= FAULT_LOG_INTERVAL_MS) {
      this.faultLog.set(key, { at: now, suppressed: 0 });
      this.logger.error(
        { err: fault.error, where: fault.where, event: fault.event, playerId: fault.playerId, entityId: fault.entityId, suppressed: last?.suppressed ?? 0 },
        "the tick contained a fault",
      );
    } else {
      last.suppressed++;
    }
    if (fault.disconnect && fault.playerId !== undefined) this.disconnectFaulty(fault.playerId);
  }

  /** The last resort of a process that must stop (an uncaught exception): every player saved now. */
  async saveEveryone(): Promise<void> {
    this.saver.enqueue([...this.world.players.values()].map(snapshot));
    await this.saver.flush();
  }

  /**
   * Deletes an offline character of the account under the account's lock; whatever of it is still
   * queued or being saved (its last session's logout) is written first, so that no save lands
   * after its rows are gone. "online" when it is in the world (nothing is deleted), "missing" when
   * there was no such character.
   */
  deleteCharacter(accountId: string, characterId: string): Promise<"deleted" | "online" | "missing"> {
    return this.withAccount(accountId, async () => {
      if (this.world.players.has(characterId)) return "online";
      await this.saver.settled(characterId);
      // Live in another process: the lease says so, and holding it keeps that process from loading it meanwhile.
      try {
        await this.leases.acquire(characterId);
      } catch (err) {
        if (err instanceof CharacterInUseError) return "online";
        throw err;
      }
      try {
        return (await deleteCharacter(this.db, characterId)) ? "deleted" : "missing";
      } finally {
        await this.leases.release(characterId);
      }
    });
  }

  /** Shutdown: close every connection, save every player, wait for the saves. */
  /**
   * The first phase of a shutdown, while the sockets are still open: no more logins, every open
   * trade cancelled (`server_error`), swaps under way stored or rolled back, and one last tick that
   * delivers all of it to the clients.
   */
  quiesce(): Promise<void> {
    this.quiescing ??= (async () => {
      this.closed = true;
      this.world.trades.cancelAll(this.world);
      await this.onShutdownDrain();
    })();
    return this.quiescing;
  }

  async shutdown(): Promise<void> {
    await this.quiesce();
    for (const timer of this.lingering.values()) clearTimeout(timer);
    this.lingering.clear();
    for (const [, conn] of this.connections) this.endSession(conn, "shutdown");
    this.connections.clear();
    this.saver.enqueue([...this.world.players.values()].map(snapshot));
    await this.saver.flush();
    await Promise.allSettled([...this.accountLocks.values()]);
    await Promise.allSettled([...this.sessionWrites]);
    clearInterval(this.renewTimer);
    await this.renewing;
    // A character whose final save failed keeps its lease until it expires: another process must
    // not load the older rows at once.
    if (this.saver.queued === 0) {
      await this.leases.releaseAll().catch((err: unknown) => this.logger.warn({ err }, "could not release the character leases; they expire on their own"));
    }
  }
}
