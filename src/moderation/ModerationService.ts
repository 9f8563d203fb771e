/**
 * Moderation (issue 20 item 1): kick, mute, unmute, ban, unban, teleport, broadcast and lookup,
 * from REST (`/api/admin/*`, src/http/routes/admin.ts) and from admins' chat commands
 * (src/game/moderation.ts). The same code does both.
 *
 * - Bans and mutes are rows of `sanctions` (the database is the truth for every process): a login
 *   of a banned account is refused on every door (REST tokens through the auth middleware, `/ws`
 *   and Colyseus through WorldService.admission), and a player's mute is read before it enters.
 * - Every action is one `admin_audit` row, and that table is also how the other processes
 *   sharing the database learn of it: the acting process applies the action to its own players at
 *   once, and every other one reads the rows written since its last look every
 *   {@link MODERATION_POLL_MS} (by id, the primary key) and applies them to its players: a kick or
 *   ban ends the account's sessions there, a mute reaches its players, a teleport moves the player,
 *   a broadcast reaches everyone.
 * - A maintenance restart (`restart`, `restart_cancel` rows) is scheduled on every process that
 *   reads the row: each counts down to it, refuses logins in its last minute and restarts
 *   (RestartSchedule.ts). A second schedule replaces the first.
 * - A player is online when a process holds its character's lease (persistence/leases.ts), which
 *   every process sees in the database.
 */
import { randomUUID } from "node:crypto";
import { AdminAudit, Character, CharacterLease, PlayerSession, Sanction } from "../../entities/index.ts";
import type { Database } from "../db/orm.ts";
import { sanctionInForce, type SanctionInForce } from "../persistence/sanctions.ts";
import type { Logger } from "../logger.ts";
import { systemLine } from "../game/serverEvents.ts";
import { CHAT_MAX_LENGTH } from "../game/clientEvents.ts";
import { nameKey } from "../game/names.ts";
import { sanitizeChat } from "../game/chat.ts";
import { MAX_BAN_MINUTES, MAX_MUTE_MINUTES, type ModerationCommand, type ModerationPort } from "../game/moderation.ts";
import type { Player } from "../game/world/Player.ts";
import { RESTART_MAX_SECONDS, RESTART_MIN_SECONDS, RESTART_REASON_MAX_LENGTH } from "../game/restart.ts";
import { DEFAULT_WORLD } from "../social/SocialService.ts";
import type { WorldHooks, WorldService } from "../sessions/WorldService.ts";
import { RestartSchedule, type ScheduledRestart } from "./RestartSchedule.ts";
import {
  auditJson,
  BannedError,
  checkMinutes,
  LOOKUP_SESSIONS,
  MODERATION_POLL_MS,
  ModerationError,
  noticeOf,
  type Actor,
  type AuditRow,
  type Notice,
  type Target,
} from "./moderationRecords.ts";

export {
  ADMIN_CODE_ACTOR,
  AUDIT_PAGE_MAX,
  BannedError,
  CLOSE_BANNED,
  CLOSE_KICKED,
  LOOKUP_SESSIONS,
  MODERATION_ERROR_STATUS,
  MODERATION_POLL_MS,
  ModerationError,
  type Actor,
  type AuditRow,
  type ModerationErrorCode,
  type Target,
} from "./moderationRecords.ts";

export class ModerationService implements ModerationPort {
  private readonly db: Database;
  private readonly service: WorldService;
  private readonly logger: Logger;
  /** The last admin_audit row this process has applied or skipped. */
  private lastSeen = 0;
  /** Rows this process wrote (and applied itself): skipped when the poll reads them. */
  private readonly own = new Set<number>();
  /** Audit writes under way, and how many have begun: a poll that overlaps one is read again. */
  private writing = 0;
  private writesBegun = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  /** The scheduled maintenance restart of this process (its `onRestart` is set by the server). */
  readonly restarts: RestartSchedule;

  constructor(deps: { db: Database; service: WorldService; logger: Logger }) {
    this.db = deps.db;
    this.service = deps.service;
    this.logger = deps.logger;
    this.restarts = new RestartSchedule(deps.service, deps.logger);
  }

  /** Starts reading other processes' actions (those written from now on). */
  async start(pollMs = MODERATION_POLL_MS): Promise<void> {
    const [last] = await this.db.em().find(AdminAudit, {}, { orderBy: { id: "desc" }, limit: 1, fields: ["id"] });
    this.lastSeen = last?.id ?? 0;
    this.timer = setInterval(() => {
      this.polling ??= this.poll()
        .catch((err: unknown) => this.logger.warn({ err }, "could not read the moderation actions of other processes"))
        .finally(() => (this.polling = undefined));
    }, pollMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.restarts.close();
    await this.polling;
  }

  private async poll(): Promise<void> {
    const begun = this.writesBegun;
    const rows = await this.db.em().find(AdminAudit, { id: { $gt: this.lastSeen } }, { orderBy: { id: "asc" }, limit: 200 });
    // A write of ours overlapped the read: its row may be visible before we know its id. Read again later.
    if (this.writing > 0 || this.writesBegun !== begun) return;
    for (const row of rows) {
      this.lastSeen = row.id;
      if (this.own.delete(row.id)) continue;
      const notice = noticeOf(auditJson(row));
      if (notice !== undefined) this.apply(notice);
    }
  }

  // ---- the database's truth ------------------------------------------------------------

  private sanction(accountId: string, kind: "ban" | "mute"): Promise<SanctionInForce | undefined> {
    return sanctionInForce(this.db, accountId, kind);
  }

  /** The account's ban in force, if any (`until` null: permanent). */
  async banOf(accountId: string): Promise<{ until: Date | null; reason: string | null } | undefined> {
    const row = await this.sanction(accountId, "ban");
    return row && { until: row.endsAt ?? null, reason: row.reason ?? null };
  }

  /** Refuses a login of a banned account (WorldService.admission and the REST auth). */
  readonly admission = async (accountId: string): Promise<void> => {
    const ban = await this.banOf(accountId);
    if (ban !== undefined) throw new BannedError(ban.until, ban.reason);
  };

  /** Wraps the world's hooks: a player's mute is read before it enters. */
  hooks(inner: WorldHooks | undefined): WorldHooks {
    return {
      beforeEnter: async (accountId) => {
        const [then, mute] = await Promise.all([inner?.beforeEnter(accountId), this.sanction(accountId, "mute")]);
        return (player) => {
          then?.(player);
          player.mutedUntil = mute?.endsAt?.getTime() ?? undefined;
        };
      },
      left: (player) => inner?.left(player),
    };
  }

  // ---- actions -------------------------------------------------------------------------

  /** A character by name (any case, any look-alike: its key, game/names.ts): its account, id and name. */
  async target(name: string): Promise<Target> {
    const row = await this.db.em().findOne(Character, { nameKey: nameKey(name) }, { fields: ["id", "accountId", "name"] });
    if (row === null) throw new ModerationError("UNKNOWN_PLAYER", `no player named ${name}`);
    return { accountId: row.accountId, characterId: row.id, name: row.name };
  }

  /** A character of the account that some process holds (its lease, in the database), if any. */
  private async online(accountId: string): Promise<{ characterId: string; world: number } | undefined> {
    for (const p of this.service.world.players.values()) if (p.data.accountId === accountId) return { characterId: p.id, world: DEFAULT_WORLD };
    const em = this.db.em();
    const characters = await em.find(Character, { accountId }, { fields: ["id"] });
    if (characters.length === 0) return undefined;
    const lease = await em.findOne(CharacterLease, { characterId: { $in: characters.map((c) => c.id) }, expiresAt: { $gt: new Date() } });
    return lease === null ? undefined : { characterId: lease.characterId, world: DEFAULT_WORLD };
  }

  /** Writes the action's row and applies it to this process's players (the others read it: see poll). */
  private async audit(
    actor: Actor,
    action: string,
    target: Target | undefined,
    fields: { reason?: string | undefined; minutes?: number | null; endsAt?: Date | null; detail?: Record<string, unknown> },
  ): Promise<AuditRow> {
    this.writing++;
    this.writesBegun++;
    try {
      const row = await this.write(actor, action, target, fields);
      this.own.add(row.id);
      const notice = noticeOf(row);
      if (notice !== undefined) this.apply(notice);
      return row;
    } finally {
      this.writing--;
    }
  }

  private async write(
    actor: Actor,
    action: string,
    target: Target | undefined,
    fields: { reason?: string | undefined; minutes?: number | null; endsAt?: Date | null; detail?: Record<string, unknown> },
  ): Promise<AuditRow> {
    const em = this.db.em();
    const row = em.create(AdminAudit, {
      action,
      actorAccountId: actor.accountId,
      via: actor.via,
      targetAccountId: target?.accountId ?? null,
      targetCharacterId: target?.characterId ?? null,
      targetName: target?.name ?? null,
      reason: fields.reason ?? null,
      durationMinutes: fields.minutes ?? null,
      endsAt: fields.endsAt ?? null,
      detail: fields.detail ?? null,
    });
    await em.flush();
    this.logger.info(
      { action, actor: actor.accountId, via: actor.via, target: target?.accountId, name: target?.name, reason: fields.reason, endsAt: fields.endsAt },
      "admin action",
    );
    return auditJson(row);
  }

  async kick(actor: Actor, name: string, reason?: string): Promise<AuditRow> {
    const target = await this.target(name);
    if ((await this.online(target.accountId)) === undefined) throw new ModerationError("PLAYER_OFFLINE", `${target.name} is not online`);
    return this.audit(actor, "kick", target, { reason });
  }

  async mute(actor: Actor, name: string, minutes: number, reason?: string): Promise<AuditRow> {
    checkMinutes(minutes, MAX_MUTE_MINUTES);
    const target = await this.target(name);
    const endsAt = new Date(Date.now() + minutes * 60_000);
    await this.putSanction(target.accountId, "mute", endsAt, reason, actor);
    return this.audit(actor, "mute", target, { reason, minutes, endsAt });
  }

  async unmute(actor: Actor, name: string, reason?: string): Promise<AuditRow> {
    const target = await this.target(name);
    if ((await this.sanction(target.accountId, "mute")) === undefined) throw new ModerationError("NOT_MUTED", `${target.name} is not muted`);
    await this.db.em().nativeDelete(Sanction, { accountId: target.accountId, kind: "mute" });
    return this.audit(actor, "unmute", target, { reason });
  }

  /** `minutes` undefined: permanent. */
  async ban(actor: Actor, name: string, minutes: number | undefined, reason?: string): Promise<AuditRow> {
    if (minutes !== undefined) checkMinutes(minutes, MAX_BAN_MINUTES);
    const target = await this.target(name);
    const endsAt = minutes === undefined ? null : new Date(Date.now() + minutes * 60_000);
    await this.putSanction(target.accountId, "ban", endsAt, reason, actor);
    return this.audit(actor, "ban", target, { reason, minutes: minutes ?? null, endsAt });
  }

  async unban(actor: Actor, name: string, reason?: string): Promise<AuditRow> {
    const target = await this.target(name);
    if ((await this.sanction(target.accountId, "ban")) === undefined) throw new ModerationError("NOT_BANNED", `${target.name} is not banned`);
    await this.db.em().nativeDelete(Sanction, { accountId: target.accountId, kind: "ban" });
    return this.audit(actor, "unban", target, { reason });
  }

  async teleport(actor: Actor, name: string, x: number, z: number, reason?: string): Promise<AuditRow> {
    const target = await this.target(name);
    if (!Number.isInteger(x) || !Number.isInteger(z) || !this.service.world.collision.isWalkable(x, z)) {
      throw new ModerationError("INVALID_DESTINATION", `(${x}, ${z}) is not a walkable tile of the map`);
    }
    const online = await this.online(target.accountId);
    if (online === undefined || online.characterId !== target.characterId) throw new ModerationError("PLAYER_OFFLINE", `${target.name} is not online`);
    return this.audit(actor, "teleport", target, { reason, detail: { x, z } });
  }

  async broadcast(actor: Actor, raw: string): Promise<AuditRow> {
    const message = sanitizeChat(raw);
    if (message.length === 0 || message.length > CHAT_MAX_LENGTH)
      throw new ModerationError("INVALID_PAYLOAD", `a broadcast is 1 to ${CHAT_MAX_LENGTH} characters`);
    return this.audit(actor, "broadcast", undefined, { detail: { message } });
  }

  /** Schedules a maintenance restart `inSeconds` from now (10..86400), replacing a scheduled one, on every process. */
  async scheduleRestart(actor: Actor, inSeconds: number, raw: string): Promise<AuditRow> {
    if (!Number.isInteger(inSeconds) || inSeconds < RESTART_MIN_SECONDS || inSeconds > RESTART_MAX_SECONDS) {
      throw new ModerationError("INVALID_PAYLOAD", `inSeconds is a whole number from ${RESTART_MIN_SECONDS} to ${RESTART_MAX_SECONDS}`);
    }
    const reason = sanitizeChat(raw);
    if (reason.length === 0 || reason.length > RESTART_REASON_MAX_LENGTH)
      throw new ModerationError("INVALID_PAYLOAD", `a reason is 1 to ${RESTART_REASON_MAX_LENGTH} characters`);
    return this.audit(actor, "restart", undefined, { reason, endsAt: new Date(Date.now() + inSeconds * 1000), detail: { inSeconds } });
  }

  /** Cancels the scheduled restart (NO_RESTART_SCHEDULED when this process has none), on every process. */
  async cancelRestart(actor: Actor): Promise<AuditRow> {
    if (this.restarts.scheduled === undefined) throw new ModerationError("NO_RESTART_SCHEDULED", "no restart is scheduled");
    return this.audit(actor, "restart_cancel", undefined, {});
  }

  /** The scheduled restart of this process, if any. */
  get scheduledRestart(): ScheduledRestart | undefined {
    return this.restarts.scheduled;
  }

  /** A player's account, online state and world, ban and mute, and recent sessions (newest first). */
  async lookup(name: string) {
    const target = await this.target(name);
    const [online, ban, mute, sessions] = await Promise.all([
      this.online(target.accountId),
      this.sanction(target.accountId, "ban"),
      this.sanction(target.accountId, "mute"),
      this.db.em().find(PlayerSession, { accountId: target.accountId }, { orderBy: { loginAt: "desc" }, limit: LOOKUP_SESSIONS }),
    ]);
    const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
    return {
      accountId: target.accountId,
      characterId: target.characterId,
      name: target.name,
      online: online !== undefined,
      world: online?.world ?? null,
      onlineCharacterId: online?.characterId ?? null,
      ban: ban ? { until: iso(ban.endsAt), permanent: ban.endsAt === null || ban.endsAt === undefined, reason: ban.reason ?? null } : null,
      mute: mute ? { until: iso(mute.endsAt), reason: mute.reason ?? null } : null,
      sessions: sessions.map((s) => ({
        characterId: s.characterId,
        transport: s.transport,
        loginAt: iso(s.loginAt),
        logoutAt: iso(s.logoutAt),
        logoutReason: s.logoutReason ?? null,
      })),
    };
  }

  /** The audit, newest first; `target`: one account's rows. */
  async auditLog(page: { limit: number; offset: number; targetAccountId?: string | undefined }): Promise<{ total: number; rows: AuditRow[] }> {
    const where = page.targetAccountId !== undefined ? { targetAccountId: page.targetAccountId } : {};
    const [rows, total] = await this.db.em().findAndCount(AdminAudit, where, { orderBy: { id: "desc" }, limit: page.limit, offset: page.offset });
    return { total, rows: rows.map(auditJson) };
  }

  private async putSanction(accountId: string, kind: "ban" | "mute", endsAt: Date | null, reason: string | undefined, actor: Actor): Promise<void> {
    await this.db.em().transactional(async (em) => {
      await em.nativeDelete(Sanction, { accountId, kind });
      em.create(Sanction, { accountId, kind, endsAt, reason: reason ?? null, byAccountId: actor.accountId });
    });
  }

  // ---- effects, in every process -------------------------------------------------------

  private apply(notice: Notice): void {
    const service = this.service;
    const world = service.world;
    try {
      switch (notice.t) {
        case "kick":
          service.disconnectAccount(notice.accountId, notice.code, notice.error);
          return;
        case "mute":
          for (const p of world.players.values()) {
            if (p.data.accountId !== notice.accountId) continue;
            world.enqueueCommand(p.id, (player) => {
              player.mutedUntil = notice.until ?? undefined;
            });
          }
          return;
        case "teleport":
          world.enqueueCommand(notice.characterId, (player) => {
            if (world.teleport(player, { x: notice.x, z: notice.z })) player.syncDue = true;
          });
          return;
        case "restart":
          this.restarts.schedule(notice.at, notice.reason);
          return;
        case "restart_cancel":
          this.restarts.cancel();
          return;
        case "broadcast": {
          const event = systemLine(randomUUID(), notice.message, Date.now(), "Broadcast");
          for (const p of world.players.values()) service.connectionOf(p.id)?.send("chat:message", event);
          return;
        }
      }
    } catch (err) {
      this.logger.error({ err, notice: notice.t }, "could not apply a moderation notice");
    }
  }

  // ---- in game -------------------------------------------------------------------------

  /** An admin's chat command (ModerationPort): answered with a system line, or an `error`. */
  command(admin: Player, command: ModerationCommand): void {
    // The actor is the principal of the connection that typed it (the chat handler ran in this
    // tick, for the connection controlling the player now), not whoever the character belongs to.
    const acting = this.service.connectionOf(admin.id)?.principal;
    // An agent is never an admin (src/sessions/playerControl.ts); refused here too, as a second lock.
    if (acting === undefined || acting.agentId !== undefined) {
      this.service.connectionOf(admin.id)?.send("error", { code: "FORBIDDEN", message: "moderation commands are for admins", event: "player:chat" });
      return;
    }
    const actor: Actor = { accountId: acting.accountId, via: "game" };
    const reply = (message: string) => this.service.connectionOf(admin.id)?.send("chat:message", systemLine(randomUUID(), message, Date.now()));
    const run = async (): Promise<string> => {
      switch (command.action) {
        case "kick":
          await this.kick(actor, command.name, command.reason);
          return `Kicked ${command.name}.`;
        case "mute": {
          const row = await this.mute(actor, command.name, command.minutes, command.reason);
          return `Muted ${row.targetName} until ${row.endsAt}.`;
        }
        case "unmute":
          await this.unmute(actor, command.name, command.reason);
          return `Unmuted ${command.name}.`;
        case "ban": {
          const row = await this.ban(actor, command.name, command.minutes, command.reason);
          return `Banned ${row.targetName} ${row.endsAt === null ? "permanently" : `until ${row.endsAt}`}.`;
        }
        case "unban":
          await this.unban(actor, command.name, command.reason);
          return `Unbanned ${command.name}.`;
        case "teleport":
          await this.teleport(actor, command.name, command.x, command.z, command.reason);
          return `Teleported ${command.name} to (${command.x}, ${command.z}).`;
        case "broadcast":
          await this.broadcast(actor, command.message);
          return "Broadcast sent.";
        case "restart": {
          if (command.seconds === undefined) {
            await this.cancelRestart(actor);
            return "Restart cancelled.";
          }
          const row = await this.scheduleRestart(actor, command.seconds, command.reason);
          return `Restart scheduled at ${row.endsAt} (${row.reason}).`;
        }
        case "lookup": {
          const l = await this.lookup(command.name);
          const state = l.online ? `online on world ${l.world}` : "offline";
          const last = l.sessions[0];
          return `${l.name} (account ${l.accountId}): ${state}${l.ban ? `, banned until ${l.ban.until ?? "forever"}` : ""}${l.mute ? `, muted until ${l.mute.until}` : ""}${last ? `, last login ${last.loginAt}` : ""}.`;
        }
      }
    };
    run().then(reply, (err: unknown) => {
      const conn = this.service.connectionOf(admin.id);
      if (err instanceof ModerationError) conn?.send("error", { code: err.code, message: err.message, event: "player:chat" });
      else {
        this.logger.error({ err, action: command.action }, "moderation command failed");
        conn?.send("error", { code: "INTERNAL_ERROR", message: "the command failed", event: "player:chat" });
      }
    });
  }
}
