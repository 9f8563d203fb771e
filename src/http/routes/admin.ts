/**
 * Moderation over REST (admin role: an admin's bearer token, or basic auth with ADMIN_CODE; see
 * requireAdmin). Targets are character names (any case); bans and mutes apply to its account.
 * - `POST /api/admin/kick {name, reason?}`
 * - `POST /api/admin/mute {name, minutes, reason?}`, `POST /api/admin/unmute {name, reason?}`
 * - `POST /api/admin/ban {name, minutes? | permanent: true, reason?}`, `POST /api/admin/unban {name, reason?}`
 * - `POST /api/admin/teleport {name, x, z, reason?}`
 * - `POST /api/admin/broadcast {message}`
 * - `GET /api/admin/players/:name`: online state, world, ban, mute, recent sessions
 * - `GET /api/admin/audit?limit&offset&name`: the audit, newest first
 * - `POST /api/admin/restart {inSeconds: 10..86400, reason: 1..200 chars}`: a maintenance restart
 *   (a second one replaces the first), `DELETE /api/admin/restart`: cancel it (404
 *   NO_RESTART_SCHEDULED when none is); both answer with the audit row and `restart` (the
 *   scheduled one, or null)
 * Each action answers `{success, action}` with its audit row. Refusals: the common error shape
 * (UNKNOWN_PLAYER 404, PLAYER_OFFLINE 409, NOT_BANNED/NOT_MUTED 404, INVALID_PAYLOAD and
 * INVALID_DESTINATION 400), and nothing changes.
 */
import { Router, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import { CHAT_MAX_LENGTH } from "../../game/clientEvents.ts";
import { RESTART_MAX_SECONDS, RESTART_MIN_SECONDS, RESTART_REASON_MAX_LENGTH } from "../../game/restart.ts";
import { MAX_BAN_MINUTES, MAX_MUTE_MINUTES, REASON_MAX_LENGTH } from "../../game/moderation.ts";
import {
  ADMIN_CODE_ACTOR,
  AUDIT_PAGE_MAX,
  MODERATION_ERROR_STATUS,
  ModerationError,
  type Actor,
  type ModerationService,
} from "../../moderation/ModerationService.ts";
import { BadRequestError, HttpError } from "../errors.ts";
import { isoTime, ok } from "../schemas.ts";
import { parseBody } from "./api.ts";

const name = z.string().trim().min(1).max(64);
const reason = z.string().trim().max(REASON_MAX_LENGTH).optional();

export const ADMIN_BODIES = {
  kick: z.strictObject({ name, reason }),
  mute: z.strictObject({ name, minutes: z.number().int().min(1).max(MAX_MUTE_MINUTES), reason }),
  unmute: z.strictObject({ name, reason }),
  ban: z
    .strictObject({ name, minutes: z.number().int().min(1).max(MAX_BAN_MINUTES).optional(), permanent: z.literal(true).optional(), reason })
    .refine((b) => (b.minutes === undefined) !== (b.permanent === undefined), { message: "give either minutes or permanent: true", path: ["minutes"] }),
  unban: z.strictObject({ name, reason }),
  teleport: z.strictObject({ name, x: z.number().int(), z: z.number().int(), reason }),
  broadcast: z.strictObject({ message: z.string().min(1).max(CHAT_MAX_LENGTH) }),
  restart: z.strictObject({
    inSeconds: z.number().int().min(RESTART_MIN_SECONDS).max(RESTART_MAX_SECONDS),
    reason: z.string().trim().min(1).max(RESTART_REASON_MAX_LENGTH),
  }),
};

/** `GET /api/admin/audit`'s query: a page, newest first, of every row or one player's. */
export const AUDIT_QUERY = z.strictObject({
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  name: z.string().min(1).max(64).optional(),
});

/** One row of the moderation audit (AuditRow): every action, whichever door it came through. */
const auditRow = z.strictObject({
  id: z.int().min(1),
  action: z.enum(["kick", "mute", "unmute", "ban", "unban", "teleport", "broadcast", "restart", "restart_cancel"]),
  actorAccountId: z.string(),
  via: z.enum(["rest", "game", "monitor"]),
  targetAccountId: z.string().nullable(),
  targetCharacterId: z.string().nullable(),
  targetName: z.string().nullable(),
  reason: z.string().nullable(),
  durationMinutes: z.int().nullable(),
  endsAt: isoTime.nullable(),
  detail: z.record(z.string(), z.unknown()).nullable().describe("teleport: `{x, z}`; broadcast: `{message}`; restart: `{inSeconds}`"),
  createdAt: isoTime,
});
const restartAnswer = ok({ action: auditRow, restart: z.strictObject({ at: isoTime, reason: z.string() }).nullable() });

/** What each route answers on success. */
export const ADMIN_RESPONSES = {
  action: ok({ action: auditRow }),
  restart: restartAnswer,
  player: ok({
    player: z.strictObject({
      accountId: z.string(),
      characterId: z.string(),
      name: z.string(),
      online: z.boolean(),
      world: z.int().min(1).nullable(),
      onlineCharacterId: z.string().nullable(),
      ban: z.strictObject({ until: isoTime.nullable(), permanent: z.boolean(), reason: z.string().nullable() }).nullable(),
      mute: z.strictObject({ until: isoTime.nullable(), reason: z.string().nullable() }).nullable(),
      sessions: z.array(
        z.strictObject({
          characterId: z.string(),
          transport: z.string(),
          loginAt: isoTime.nullable(),
          logoutAt: isoTime.nullable(),
          logoutReason: z.string().nullable(),
        }),
      ),
    }),
  }),
  audit: ok({ total: z.int().min(0), limit: z.int().min(1), offset: z.int().min(0), entries: z.array(auditRow) }),
};

function actorOf(req: Request): Actor {
  return { accountId: req.principal?.accountId ?? ADMIN_CODE_ACTOR, via: "rest" };
}

function toHttp(err: unknown): never {
  if (err instanceof ModerationError) throw new HttpError(MODERATION_ERROR_STATUS[err.code], err.code, err.message);
  throw err;
}

export function adminRoutes(moderation: ModerationService, admin: RequestHandler[]): Router {
  const router = Router();
  const action = (run: (req: Request) => Promise<unknown>) => async (req: Request, res: Response) => {
    const row = await run(req).catch(toHttp);
    res.json({ success: true, action: row });
  };
  router.post(
    "/api/admin/kick",
    ...admin,
    action((req) => {
      const b = parseBody(ADMIN_BODIES.kick, req.body);
      return moderation.kick(actorOf(req), b.name, b.reason || undefined);
    }),
  );
  router.post(
    "/api/admin/mute",
    ...admin,
    action((req) => {
      const b = parseBody(ADMIN_BODIES.mute, req.body);
      return moderation.mute(actorOf(req), b.name, b.minutes, b.reason || undefined);
    }),
  );
  router.post(
    "/api/admin/unmute",
    ...admin,
    action((req) => {
      const b = parseBody(ADMIN_BODIES.unmute, req.body);
      return moderation.unmute(actorOf(req), b.name, b.reason || undefined);
    }),
  );
  router.post(
    "/api/admin/ban",
    ...admin,
    action((req) => {
      const b = parseBody(ADMIN_BODIES.ban, req.body);
      return moderation.ban(actorOf(req), b.name, b.minutes, b.reason || undefined);
    }),
  );
  router.post(
    "/api/admin/unban",
    ...admin,
    action((req) => {
      const b = parseBody(ADMIN_BODIES.unban, req.body);
      return moderation.unban(actorOf(req), b.name, b.reason || undefined);
    }),
  );
  router.post(
    "/api/admin/teleport",
    ...admin,
    action((req) => {
      const b = parseBody(ADMIN_BODIES.teleport, req.body);
      return moderation.teleport(actorOf(req), b.name, b.x, b.z, b.reason || undefined);
    }),
  );
  router.post(
    "/api/admin/broadcast",
    ...admin,
    action((req) => {
      const b = parseBody(ADMIN_BODIES.broadcast, req.body);
      return moderation.broadcast(actorOf(req), b.message);
    }),
  );
  router.post("/api/admin/restart", ...admin, async (req, res) => {
    const b = parseBody(ADMIN_BODIES.restart, req.body);
    const row = await moderation.scheduleRestart(actorOf(req), b.inSeconds, b.reason).catch(toHttp);
    res.json({ success: true, action: row, restart: moderation.scheduledRestart ?? null });
  });
  router.delete("/api/admin/restart", ...admin, async (req, res) => {
    const row = await moderation.cancelRestart(actorOf(req)).catch(toHttp);
    res.json({ success: true, action: row, restart: moderation.scheduledRestart ?? null });
  });
  router.get("/api/admin/players/:name", ...admin, async (req, res) => {
    const player = await moderation.lookup(String(req.params.name)).catch(toHttp);
    res.json({ success: true, player });
  });
  router.get("/api/admin/audit", ...admin, async (req, res) => {
    const q = AUDIT_QUERY.safeParse(req.query);
    if (!q.success) throw new BadRequestError(`${q.error.issues[0]!.path.join(".") || "query"}: ${q.error.issues[0]!.message}`, "INVALID_PAYLOAD");
    const targetAccountId = q.data.name === undefined ? undefined : (await moderation.target(q.data.name).catch(toHttp)).accountId;
    const page = await moderation.auditLog({ limit: q.data.limit, offset: q.data.offset, targetAccountId });
    res.json({ success: true, total: page.total, limit: q.data.limit, offset: q.data.offset, entries: page.rows });
  });
  return router;
}
