/**
 * `GET /api/v1/worlds`: every world of the cluster (one a process), by number: its players (both
 * transports), capacity, status (`online`, `full`, `restarting`) and where to join it (`wsUrl`:
 * the `/ws` socket with the world chosen; `httpUrl`: the HTTP base for REST and Colyseus
 * matchmaking, where `joinOrCreate("world", {world})` is routed to it), and `recommended`: the
 * world a join without a choice goes to, and `hopCooldownS`, how long after entering a world another
 * one refuses the character (HOP_COOLDOWN). Public, as a game's world list is.
 */
import { Router } from "express";
import { z } from "zod";
import { chooseWorld, type WorldListing, type WorldStatus } from "../../cluster/worlds.ts";
import { ok } from "../schemas.ts";

export const WORLDS_RESPONSE = ok({
  recommended: z.int().min(1).nullable().describe("the world a join without a choice goes to; null: none is open"),
  hopCooldownS: z.int().min(0).describe("seconds after entering a world before entering another is allowed (HOP_COOLDOWN)"),
  worlds: z.array(
    z.strictObject({
      id: z.int().min(1),
      players: z.int().min(0),
      capacity: z.int().min(1),
      status: z.enum(["online", "full", "restarting"] as const satisfies readonly WorldStatus[]),
      wsUrl: z.string().describe("the `/ws` socket with this world chosen"),
      httpUrl: z.string().describe("the HTTP base for REST and Colyseus matchmaking"),
    }),
  ),
});

export function worldsRoutes(list: () => Promise<WorldListing[]>, hopCooldownS = 0): Router {
  const router = Router();
  router.get("/api/v1/worlds", async (_req, res) => {
    const worlds = await list();
    res.json({
      success: true,
      recommended: chooseWorld(worlds)?.world ?? null,
      hopCooldownS,
      worlds: worlds.map((w) => ({ id: w.world, players: w.players, capacity: w.capacity, status: w.status, wsUrl: w.wsUrl, httpUrl: w.httpUrl })),
    });
  });
  return router;
}
