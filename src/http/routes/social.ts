/**
 * REST for friends and ignore lists (bearer token; the account's lists, whichever character plays;
 * an agent's token reads them, and its changes are refused: src/http/agentScope.ts):
 * - `GET /api/v1/social`: `{friends, incoming, outgoing, ignored}` as the `social:list` event has them
 * - `POST /api/v1/social/friends {name}`: ask (accepts when they had asked you);
 *   `DELETE /api/v1/social/friends/:name`: remove a friend (both sides), or withdraw your request
 * - `POST /api/v1/social/requests/:name/accept`, `…/decline`
 * - `POST /api/v1/social/ignored {name}`, `DELETE /api/v1/social/ignored/:name`
 *
 * A change answers with the lists after it and reaches the players' live connections as the
 * socket commands do. Refusals use the socket events' codes (see SOCIAL_ERROR_STATUS).
 */
import { Router, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import { NAME_MAX_LENGTH } from "../../game/clientEvents.ts";
import { SERVER_EVENTS } from "../../game/serverEvents.ts";
import { SocialError, type SocialErrorCode } from "../../persistence/social.ts";
import type { SocialChangeEvent, SocialService } from "../../social/SocialService.ts";
import { ownerOnly } from "../agentScope.ts";
import { HttpError } from "../errors.ts";
import { ok } from "../schemas.ts";
import { parseBody, principal } from "./api.ts";

/** The HTTP status of each refusal: unknown names and missing entries 404, limits and duplicates 409. */
export const SOCIAL_ERROR_STATUS: Record<Exclude<SocialErrorCode, "PLAYER_OFFLINE">, number> = {
  UNKNOWN_PLAYER: 404,
  SELF: 400,
  NO_CHARACTER: 409,
  ALREADY_FRIENDS: 409,
  REQUEST_PENDING: 409,
  NO_REQUEST: 404,
  NOT_FRIENDS: 404,
  ALREADY_IGNORED: 409,
  NOT_IGNORED: 404,
  FRIENDS_FULL: 409,
  THEIR_FRIENDS_FULL: 409,
  THEIR_REQUESTS_FULL: 409,
  IGNORE_FULL: 409,
  IGNORED: 403,
  IGNORING: 409,
  RATE_LIMITED: 429,
};

/** The other player's character name (any case), in the body or the path. */
export const SOCIAL_NAME = z.string().trim().min(1).max(NAME_MAX_LENGTH);
/** `POST /api/v1/social/friends` and `…/ignored`; a path's `:name` is checked as this body too. */
export const SOCIAL_BODY = z.object({ name: SOCIAL_NAME });
/** Every answer: the account's lists as `social:list` has them. */
export const SOCIAL_RESPONSE = ok(SERVER_EVENTS["social:list"].schema.shape);

export function socialRoutes(social: SocialService, auth: RequestHandler): Router {
  const router = Router();

  const change = (event: SocialChangeEvent, nameOf: (req: Request) => unknown) => async (req: Request, res: Response) => {
    // The lists are the account's: its owner changes them, not an agent playing one of its characters.
    const accountId = ownerOnly(req, "change the account's friends or ignore list").accountId;
    const other = parseBody(SOCIAL_BODY, { name: nameOf(req) }).name;
    try {
      await social.change(accountId, event, other);
    } catch (err) {
      if (err instanceof SocialError && err.code !== "PLAYER_OFFLINE") throw new HttpError(SOCIAL_ERROR_STATUS[err.code], err.code, err.message);
      throw err;
    }
    res.json({ success: true, ...(await social.lists(accountId)) });
  };
  const fromBody = (req: Request) => (req.body as { name?: unknown } | undefined)?.name;
  const fromPath = (req: Request) => req.params.name;

  router.get("/api/v1/social", auth, async (req, res) => {
    res.json({ success: true, ...(await social.lists(principal(req).accountId)) });
  });
  router.post("/api/v1/social/friends", auth, change("social:addFriend", fromBody));
  router.delete("/api/v1/social/friends/:name", auth, change("social:removeFriend", fromPath));
  router.post("/api/v1/social/requests/:name/accept", auth, change("social:acceptFriend", fromPath));
  router.post("/api/v1/social/requests/:name/decline", auth, change("social:declineFriend", fromPath));
  router.post("/api/v1/social/ignored", auth, change("social:addIgnore", fromBody));
  router.delete("/api/v1/social/ignored/:name", auth, change("social:removeIgnore", fromPath));
  return router;
}
