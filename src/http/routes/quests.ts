/**
 * `GET /api/characters/:characterId/quests` (a token, as the other character routes: the owner,
 * the character's agent, an admin): every quest of the world with the character's status, stage
 * and progress in it, and its quest points, as `quest:list` carries them (src/game/quests.ts);
 * from the live world when the character is in it, else from its last save.
 */
import { Router, type RequestHandler } from "express";
import { z } from "zod";
import type { ContentRegistry } from "../../manifests/registry.ts";
import { QUEST_SERVER_EVENTS } from "../../game/questEvents.ts";
import { questListOf } from "../../game/quests.ts";
import type { Database } from "../../db/orm.ts";
import type { WorldService } from "../../sessions/WorldService.ts";
import { accessCharacter } from "../characterAccess.ts";
import { ok } from "../schemas.ts";
import { principal } from "./api.ts";

const list = QUEST_SERVER_EVENTS["quest:list"].schema;
export const QUESTS_RESPONSE = ok({ characterId: z.string(), quests: list.shape.quests, questPoints: list.shape.questPoints });

export function questRoutes({ db, world, content, auth }: { db: Database; world: WorldService; content: ContentRegistry; auth: RequestHandler }): Router {
  const router = Router();
  router.get("/api/characters/:characterId/quests", auth, async (req, res) => {
    const id = String(req.params.characterId);
    const { data } = await accessCharacter(db, world, principal(req), id);
    res.json({ success: true, characterId: id, ...questListOf(content, data.quests) });
  });
  return router;
}
