/**
 * What a moderation action is, apart from the service that takes it (ModerationService.ts): its
 * close codes and limits, its errors, who acts on whom, its audit row, and the notice it gives the
 * live players of every process. Moved out of ModerationService.ts, which re-exports them.
 */

/** Close code of a kicked player's connection (`/ws` and Colyseus), after an `error` KICKED. */
export const CLOSE_KICKED = 4011;
/** Close code of a banned player's connection, at the ban or at a refused login, after an `error` BANNED. */
export const CLOSE_BANNED = 4012;
/** How often a process reads the actions other processes wrote (admin_audit rows past the last it saw). */
export const MODERATION_POLL_MS = 1_000;
/** The actor of an action taken with HTTP basic auth (ADMIN_CODE), which names no account. */
export const ADMIN_CODE_ACTOR = "admin-code";
/** Recent sessions a lookup lists. */
export const LOOKUP_SESSIONS = 10;
export const AUDIT_PAGE_MAX = 100;

export type ModerationErrorCode =
  "UNKNOWN_PLAYER" | "PLAYER_OFFLINE" | "NOT_BANNED" | "NOT_MUTED" | "INVALID_DESTINATION" | "INVALID_PAYLOAD" | "NO_RESTART_SCHEDULED";
export const MODERATION_ERROR_STATUS: Record<ModerationErrorCode, number> = {
  UNKNOWN_PLAYER: 404,
  PLAYER_OFFLINE: 409,
  NOT_BANNED: 404,
  NOT_MUTED: 404,
  INVALID_DESTINATION: 400,
  INVALID_PAYLOAD: 400,
  NO_RESTART_SCHEDULED: 404,
};

export class ModerationError extends Error {
  readonly code: ModerationErrorCode;
  constructor(code: ModerationErrorCode, message: string) {
    super(message);
    this.name = "ModerationError";
    this.code = code;
  }
}

/** A login of a banned account; `until` null: permanent. */
export class BannedError extends Error {
  readonly code = "BANNED";
  readonly until: string | null;
  constructor(until: Date | null, reason: string | null) {
    super(`this account is banned ${until === null ? "permanently" : `until ${until.toISOString()}`}${reason ? `: ${reason}` : ""}`);
    this.name = "BannedError";
    this.until = until === null ? null : until.toISOString();
  }
}

/** Who acts, and through which door (`monitor`: the Colyseus monitor's buttons, src/http/monitorCalls.ts). */
export interface Actor {
  accountId: string;
  via: "rest" | "game" | "monitor";
}

export interface Target {
  accountId: string;
  characterId: string;
  name: string;
}

export type Notice =
  | { t: "kick"; accountId: string; code: number; error: { code: string; message: string; until?: string | null } }
  | { t: "mute"; accountId: string; until: number | null }
  | { t: "teleport"; characterId: string; x: number; z: number }
  | { t: "broadcast"; message: string }
  | { t: "restart"; at: number; reason: string }
  | { t: "restart_cancel" };

export interface AuditRow {
  id: number;
  action: string;
  actorAccountId: string;
  via: string;
  targetAccountId: string | null;
  targetCharacterId: string | null;
  targetName: string | null;
  reason: string | null;
  durationMinutes: number | null;
  endsAt: string | null;
  detail: Record<string, unknown> | null;
  createdAt: string;
}

/** What an action does to live players, from its audit row (unban and lookup: nothing). */
export function noticeOf(row: AuditRow): Notice | undefined {
  const accountId = row.targetAccountId;
  switch (row.action) {
    case "kick":
      return accountId === null
        ? undefined
        : { t: "kick", accountId, code: CLOSE_KICKED, error: { code: "KICKED", message: `you were kicked by an admin${row.reason ? `: ${row.reason}` : ""}` } };
    case "ban": {
      if (accountId === null) return undefined;
      const banned = new BannedError(row.endsAt === null ? null : new Date(row.endsAt), row.reason);
      return { t: "kick", accountId, code: CLOSE_BANNED, error: { code: "BANNED", message: banned.message, until: banned.until } };
    }
    case "mute":
      return accountId === null || row.endsAt === null ? undefined : { t: "mute", accountId, until: Date.parse(row.endsAt) };
    case "unmute":
      return accountId === null ? undefined : { t: "mute", accountId, until: null };
    case "teleport": {
      const x = row.detail?.x;
      const z = row.detail?.z;
      return row.targetCharacterId === null || typeof x !== "number" || typeof z !== "number"
        ? undefined
        : { t: "teleport", characterId: row.targetCharacterId, x, z };
    }
    case "broadcast":
      return typeof row.detail?.message === "string" ? { t: "broadcast", message: row.detail.message } : undefined;
    case "restart":
      return row.endsAt === null ? undefined : { t: "restart", at: Date.parse(row.endsAt), reason: row.reason ?? "" };
    case "restart_cancel":
      return { t: "restart_cancel" };
    default:
      return undefined;
  }
}

export function checkMinutes(minutes: number, max: number): void {
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > max) throw new ModerationError("INVALID_PAYLOAD", `minutes are a whole number from 1 to ${max}`);
}

export function auditJson(row: {
  id: number;
  action: string;
  actorAccountId: string;
  via: string;
  targetAccountId?: string | null;
  targetCharacterId?: string | null;
  targetName?: string | null;
  reason?: string | null;
  durationMinutes?: number | null;
  endsAt?: Date | null;
  detail?: Record<string, unknown> | null;
  createdAt: Date;
}): AuditRow {
  return {
    id: row.id,
    action: row.action,
    actorAccountId: row.actorAccountId,
    via: row.via,
    targetAccountId: row.targetAccountId ?? null,
    targetCharacterId: row.targetCharacterId ?? null,
    targetName: row.targetName ?? null,
    reason: row.reason ?? null,
    durationMinutes: row.durationMinutes ?? null,
    endsAt: row.endsAt ? row.endsAt.toISOString() : null,
    detail: row.detail ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
