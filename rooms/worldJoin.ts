/**
 * A join of the world room, before and after its login: the world option checked, the token
 * authenticated (or an anonymous identity issued), and every refusal made the status and message
 * the SDK rejects the join with.
 */
import { logger as colyseusLog, ServerError } from "@colyseus/core";
import { AuthUnavailable, TokenError } from "../src/auth/tokens.ts";
import { AgentRevokedError, HopCooldownError, WorldFullError } from "../src/sessions/WorldService.ts";
import { PlayerLoadError } from "../src/persistence/players.ts";
import { BannedError } from "../src/moderation/ModerationService.ts";
import { RestartingError } from "../src/moderation/RestartSchedule.ts";
import { CharacterInUseError } from "../src/persistence/leases.ts";
import { TooManyAttempts } from "../src/auth/attemptLimiter.ts";
import type { WorldAuth } from "./ColyseusConnection.ts";
import type { WorldRoomServices } from "./worldRoomServices.ts";

/**
 * A join's world choice (`{world: n}`; a number, or digits): checked and made a number before the
 * matchmaker filters by it, so that `"2"` finds world 2. Absent: the matchmaker chooses.
 */
export function normaliseWorldOption(options: { world?: unknown } | undefined): void {
  if (options === undefined || options === null || options.world === undefined) return;
  const raw = options.world;
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 9_999)
    throw new ServerError(400, `INVALID_WORLD: world must be a world number from 1 to 9999, got ${JSON.stringify(raw)}`);
  options.world = n;
}

/**
 * Token from the SDK (`client.auth.token`) or, failing that, the `token` join option. `address`:
 * Colyseus' `AuthContext.ip`, read from `X-Real-IP`, which the server sets on every request to the
 * address behind its trusted proxies (src/http/clientAddress.ts).
 */
export async function authenticate(
  services: WorldRoomServices,
  token: string | undefined,
  options: { token?: unknown },
  address: string | undefined,
): Promise<WorldAuth> {
  const raw = token || (typeof options?.token === "string" ? options.token : undefined);
  if (!raw && !services.anonymousMode) throw new ServerError(401, "a bearer token is required");
  return asJoinError(async () => {
    if (!raw) {
      await services.attempts.takeAnonymousIdentity(address);
      const { principal, token: issued } = await services.auth.issueAnonymous();
      return { principal, issuedToken: issued, address };
    }
    return { principal: await services.attempts.checkToken(address, () => services.auth.authenticate(raw)), issuedToken: undefined, address };
  });
}

/**
 * Runs a join's authentication: a bad token is a 401, too many attempts a 429, keys unavailable a
 * 503 (what the SDK rejects the join with); anything else is {@link internalJoinError}.
 */
export async function asJoinError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof TokenError) throw new ServerError(401, err.message);
    if (err instanceof TooManyAttempts) throw new ServerError(429, err.message);
    if (err instanceof AuthUnavailable) throw new ServerError(503, err.message);
    throw internalJoinError(err, "authentication");
  }
}

/**
 * A join that failed on the server (a database error, a bug): logged here, and the client gets
 * 500 "internal error", never the error's own text (Colyseus sends a join error's message as is).
 */
export function internalJoinError(err: unknown, stage: string): ServerError {
  if (err instanceof ServerError) return err;
  colyseusLog.error({ err, stage }, "a join failed on the server");
  return new ServerError(500, "internal error");
}

/** A login's refusal as the join's error: known refusals have their own status and message; anything else is internal. */
export function joinRefusal(err: unknown): ServerError {
  if (err instanceof AgentRevokedError) return new ServerError(401, err.message);
  if (err instanceof BannedError) return new ServerError(403, `BANNED: ${err.message}`);
  if (err instanceof RestartingError) return new ServerError(503, `RESTARTING: ${err.message}`);
  if (err instanceof PlayerLoadError) return new ServerError(err.code === "FORBIDDEN" ? 403 : err.code === "NOT_FOUND" ? 404 : 400, err.message);
  if ((err as { code?: string }).code === "FORBIDDEN") return new ServerError(403, (err as Error).message);
  if (err instanceof CharacterInUseError) return new ServerError(409, err.message);
  if (err instanceof WorldFullError) return new ServerError(503, `WORLD_FULL: ${err.message}`);
  if (err instanceof HopCooldownError) return new ServerError(429, `HOP_COOLDOWN: ${err.message}`);
  return internalJoinError(err, "load");
}
