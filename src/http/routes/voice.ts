/**
 * `POST /api/voice/token`: a voice-room access token (LiveKit-compatible JWT, HS256 with
 * `VOICE_API_SECRET`, issuer `VOICE_API_KEY`) for the room of the area the character stands in.
 * Without the voice configuration: 503 `VOICE_NOT_CONFIGURED`.
 */
import { Router, type RequestHandler } from "express";
import { SignJWT } from "jose";
import { z } from "zod";
import { accessCharacter } from "../characterAccess.ts";
import type { Config } from "../../config/env.ts";
import type { Database } from "../../db/orm.ts";
import type { ContentRegistry } from "../../manifests/registry.ts";
import { listCharacters } from "../../persistence/players.ts";
import type { WorldService } from "../../sessions/WorldService.ts";
import { HttpError, NotFoundError } from "../errors.ts";
import { ok } from "../schemas.ts";
import { parseBody, principal } from "./api.ts";

export const VOICE_TOKEN_TTL_S = 3600;

/** Without `characterId`: the token's character, else the account's first. */
export const VOICE_BODY = z.strictObject({ characterId: z.string().min(1).max(64).optional() });
export const VOICE_RESPONSE = ok({
  token: z.string().min(1).describe("the LiveKit-compatible JWT"),
  url: z.string(),
  room: z.string().startsWith("area-").describe("`area-<area id>`, or `area-wilderness` outside every area"),
  identity: z.string(),
  expiresIn: z.literal(VOICE_TOKEN_TTL_S),
});

export function voiceRoutes(deps: { config: Config; db: Database; world: WorldService; content: ContentRegistry; auth: RequestHandler }): Router {
  const router = Router();
  router.post("/api/voice/token", deps.auth, async (req, res) => {
    const voice = deps.config.voice;
    if (voice === undefined) throw new HttpError(503, "VOICE_NOT_CONFIGURED", "voice chat is not configured on this server");
    const p = principal(req);
    const body = parseBody(VOICE_BODY, req.body);
    const characterId = body.characterId ?? p.characterId ?? (await listCharacters(deps.db, p.accountId))[0]?.id;
    if (characterId === undefined) throw new NotFoundError("this account has no character yet");
    const { data } = await accessCharacter(deps.db, deps.world, p, characterId, "act");
    const area = deps.content.areas.find((a) => data.x >= a.bounds.minX && data.x <= a.bounds.maxX && data.z >= a.bounds.minZ && data.z <= a.bounds.maxZ);
    const room = `area-${area?.id ?? "wilderness"}`;
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ name: data.name, video: { room, roomJoin: true, canPublish: true, canSubscribe: true } })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(voice.apiKey)
      .setSubject(data.characterId)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + VOICE_TOKEN_TTL_S)
      .setJti(data.characterId)
      .sign(new TextEncoder().encode(voice.apiSecret));
    res.json({ success: true, token, url: voice.url, room, identity: data.characterId, expiresIn: VOICE_TOKEN_TTL_S });
  });
  return router;
}
