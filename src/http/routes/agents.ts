/**
 * Agents:
 * - `/api/agent` (register an agent for one of your characters and get its scoped token; list;
 *   `DELETE /api/agent/:agentId`; `POST /api/agent/:agentId/token` for a new token)
 * - agent control (the spec's table): `GET|POST /api/agents/:agentId/goal`, `POST …/goal/stop`,
 *   `POST …/goal/resume`, `POST …/message`, `GET …/quick-actions`, `GET /api/agents/mapping/:agentId`.
 * Control is open to the owner's account, the agent's own token, and admins.
 */
import { Router, type RequestHandler } from "express";
import { z } from "zod";
import { QUICK_COMMANDS, type AgentService } from "../../agents/AgentService.ts";
import { SERVER_EVENTS } from "../../game/serverEvents.ts";
import { ownerOnly } from "../agentScope.ts";
import { isoTime, ok } from "../schemas.ts";
import { parseBody, principal } from "./api.ts";

export const AGENT_MESSAGE_MAX = 500;

/** The request bodies, as the handlers validate them. */
export const AGENT_BODIES = {
  register: z.strictObject({ characterId: z.string().min(1).max(64), name: z.string().trim().min(1).max(64).optional() }),
  goal: z.strictObject({
    type: z.string().min(1).max(32),
    target: z.string().min(1).max(64).optional(),
    description: z.string().trim().min(1).max(200).optional(),
    source: z.enum(["manual", "autonomous"]).optional().describe('goals the agent picks itself are "autonomous"; the default is a manual goal'),
  }),
  message: z.strictObject({ message: z.string().trim().min(1).max(AGENT_MESSAGE_MAX) }),
};

const goalEvent = SERVER_EVENTS["agent:goal"].schema;
const sync = SERVER_EVENTS["player:sync"].schema.shape;
/** The goal state as `agent:goal` carries it, without the agent's id. */
const goalState = ok(goalEvent.omit({ agentId: true }).shape);
/** An entry of quick-actions' `nearby` (NearbyEntry). */
const nearby = z.strictObject({
  kind: z.enum(["npc", "resource", "station", "place"]),
  id: z.string().min(1),
  ref: z.string().min(1),
  type: z.string(),
  x: z.int(),
  z: z.int(),
  depleted: z.boolean().optional(),
});

/** What each route answers on success. */
export const AGENT_RESPONSES = {
  registered: ok({ agent: z.strictObject({ agentId: z.string(), characterId: z.string(), name: z.string().nullable() }), token: z.string().min(1) }),
  list: ok({ agents: z.array(z.strictObject({ agentId: z.string(), characterId: z.string(), name: z.string().nullable(), goalsPaused: z.boolean() })) }),
  deleted: ok({ deleted: z.string() }),
  token: ok({ token: z.string().min(1) }),
  mapping: ok({
    agentId: z.string(),
    accountId: z.string(),
    characterId: z.string(),
    characterName: z.string().nullable(),
    name: z.string().nullable(),
    /** Every character of the agent's owner (its own included): whose chat commands it obeys. */
    ownerCharacterIds: z.array(z.string()),
    createdAt: isoTime,
  }),
  goal: goalState,
  message: ok({ delivered: z.boolean(), id: z.string() }),
  quickActions: ok({
    agentId: z.string(),
    position: sync.position,
    nearby: z.array(nearby),
    availableGoals: goalEvent.shape.availableGoals,
    quickCommands: z.array(z.strictObject({ id: z.enum(QUICK_COMMANDS.map((c) => c.id)), label: z.string(), description: z.string() })),
    inventory: sync.inventory,
  }),
};

export function agentRoutes(agents: AgentService, auth: RequestHandler): Router {
  const router = Router();
  const owner = (req: Parameters<RequestHandler>[0]) => ownerOnly(req, "manage agents");

  router.post("/api/agent", auth, async (req, res) => {
    const p = owner(req);
    const body = parseBody(AGENT_BODIES.register, req.body);
    const { agent, token } = await agents.register(p, body.characterId, body.name);
    res.status(201).json({ success: true, agent: { agentId: agent.agentId, characterId: agent.characterId, name: agent.name ?? null }, token });
  });

  router.get("/api/agent", auth, async (req, res) => {
    const p = owner(req);
    const list = await agents.list(p.accountId);
    res.json({
      success: true,
      agents: list.map((a) => ({ agentId: a.agentId, characterId: a.characterId, name: a.name ?? null, goalsPaused: a.goalsPaused })),
    });
  });

  router.delete("/api/agent/:agentId", auth, async (req, res) => {
    const agent = await agents.access(owner(req), String(req.params.agentId));
    await agents.remove(agent);
    res.json({ success: true, deleted: agent.agentId });
  });

  router.post("/api/agent/:agentId/token", auth, async (req, res) => {
    const agent = await agents.access(owner(req), String(req.params.agentId));
    res.json({ success: true, token: await agents.newToken(agent) });
  });

  router.get("/api/agents/mapping/:agentId", auth, async (req, res) => {
    res.json(await agents.mappingView(await agents.access(principal(req), String(req.params.agentId))));
  });

  router.get("/api/agents/:agentId/goal", auth, async (req, res) => {
    res.json(await agents.goalResponse(await agents.access(principal(req), String(req.params.agentId))));
  });

  router.post("/api/agents/:agentId/goal", auth, async (req, res) => {
    const p = principal(req);
    const agent = await agents.access(p, String(req.params.agentId));
    const body = parseBody(AGENT_BODIES.goal, req.body);
    await agents.setGoal(agent, { type: body.type, target: body.target, description: body.description, lockedBy: body.source ?? "manual" });
    res.json(await agents.goalResponse(agent));
  });

  router.post("/api/agents/:agentId/goal/stop", auth, async (req, res) => {
    const agent = await agents.access(principal(req), String(req.params.agentId));
    await agents.stop(agent);
    res.json(await agents.goalResponse(agent));
  });

  router.post("/api/agents/:agentId/goal/resume", auth, async (req, res) => {
    const agent = await agents.access(principal(req), String(req.params.agentId));
    await agents.resume(agent);
    res.json(await agents.goalResponse(agent));
  });

  router.post("/api/agents/:agentId/message", auth, async (req, res) => {
    const p = principal(req);
    const agent = await agents.access(p, String(req.params.agentId));
    const body = parseBody(AGENT_BODIES.message, req.body);
    res.json({ success: true, ...agents.message(agent, p, body.message) });
  });

  router.get("/api/agents/:agentId/quick-actions", auth, async (req, res) => {
    res.json(await agents.quickActions(await agents.access(principal(req), String(req.params.agentId))));
  });

  return router;
}
