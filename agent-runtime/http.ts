/**
 * The runtime's HTTP API on AGENT_RT_PORT (JSON, the game server's CORS allowlist and error body):
 *
 * - `GET /health` → `{status: "ok", agents: <running>}`
 * - `POST /agents` (owner's bearer, `{agentId, token}`) → 201: checks with the game server that the
 *   bearer owns the agent and that the token is the agent's, then plays it at once.
 * - `GET /agents` → the bearer's agents known here; `GET /agents/:agentId` → one, with its activity.
 * - `DELETE /agents/:agentId` → it stops playing (leaves the world); it stays registered.
 * These four are the owner's: an agent's scoped token gets 403 AGENT_TOKEN_FORBIDDEN.
 * - `GET /stats` → aggregates for operators and benchmarks: agents by state, the share whose goal
 *   progressed in the last 100 ticks, CPU spent stepping agents, messages sent.
 *
 * Ownership: an agent is handed over only when the game server lists it among the bearer's agents
 * (`GET /api/agent`); it is then kept with its owner's account (`GET /api/v1/player`, cached 10 s
 * per token so a dashboard's polling does not spend the runtime's REST budget at the server), so
 * its owner still sees it after the server deleted it.
 */
import cors from "cors";
import express, { type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import { AGENT_TOKEN_FORBIDDEN } from "../src/auth/agentScope.ts";
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, type OriginCheck } from "../src/http/originCheck.ts";
import type { Agent } from "./Agent.ts";
import type { Runtime } from "./Runtime.ts";
import { ServerError, type ServerApi } from "./serverApi.ts";
import type { Logger } from "pino";

export const OWNERSHIP_CACHE_MS = 10_000;

class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const addBody = z.strictObject({ agentId: z.string().min(1).max(64), token: z.string().min(10).max(4096) });

export function createRuntimeApp(deps: { runtime: Runtime; api: ServerApi; isAllowedOrigin: OriginCheck; logger: Logger }): express.Express {
  const { runtime, api } = deps;
  const app = express();
  app.disable("x-powered-by");
  app.use(
    cors({
      origin: (origin, cb) => cb(null, deps.isAllowedOrigin(origin)),
      credentials: true,
      methods: CORS_ALLOWED_METHODS,
      allowedHeaders: CORS_ALLOWED_HEADERS,
    }),
  );
  app.use(express.json({ limit: "100kb" }));

  /** The bearer's account, or null for an agent's token (the server's `principal`), with when it was asked. */
  const accounts = new Map<string, { accountId: string | null; at: number }>();
  const bearer = (req: Request): string => {
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "");
    if (m === null) throw new ApiError(401, "UNAUTHORIZED", "a bearer token (the agent owner's) is required");
    return m[1]!;
  };
  /**
   * The bearer's account, as the game server says. An agent's token is refused (403
   * AGENT_TOKEN_FORBIDDEN): the server answers it with its owner's account, and these routes are
   * the owner's (an agent's token would list and stop its owner's other agents). Only a token the
   * server calls the account's own (`principal: "user"`) passes.
   */
  const accountOf = async (req: Request): Promise<string> => {
    const token = bearer(req);
    let hit = accounts.get(token);
    if (hit === undefined || Date.now() - hit.at >= OWNERSHIP_CACHE_MS) {
      const me = await api.call<{ account: { id: string }; principal?: string }>("GET", "/api/v1/player", token);
      if (accounts.size > 10_000) accounts.clear();
      hit = { accountId: me.principal === "user" ? me.account.id : null, at: Date.now() };
      accounts.set(token, hit);
    }
    if (hit.accountId === null) throw new ApiError(403, AGENT_TOKEN_FORBIDDEN, "an agent's token cannot manage agents here: use its owner's token");
    return hit.accountId;
  };
  /** An agent run here for the bearer's account: 404 unknown here, 403 someone else's. */
  const ownAgent = async (req: Request): Promise<Agent> => {
    const account = await accountOf(req);
    const agentId = String(req.params.agentId);
    const agent = runtime.agents.get(agentId);
    if (agent === undefined) throw new ApiError(404, "NOT_FOUND", `agent ${agentId} is not run here`);
    if (agent.record.ownerAccountId !== account) throw new ApiError(403, "FORBIDDEN", "not your agent");
    return agent;
  };

  app.get("/health", (_req, res) => {
    res.json({ status: "ok", agents: runtime.running });
  });

  // Aggregates only (no agent, owner or token), for operators and the benches.
  app.get("/stats", (_req, res) => {
    res.json({ success: true, ...runtime.stats() });
  });

  app.post("/agents", async (req, res) => {
    bearer(req);
    const parsed = addBody.safeParse(req.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ApiError(400, "INVALID_PAYLOAD", `${issue.path.join(".") || "body"}: ${issue.message}`);
    }
    const { agentId } = parsed.data;
    const ownerAccountId = await accountOf(req);
    // The game server decides ownership: the agent must be in the bearer's own list.
    if (!(await api.agentsOf(bearer(req))).some((a) => a.agentId === agentId)) throw new ApiError(403, "FORBIDDEN", "not your agent");
    // The token must be this agent's own scoped token: it reads the agent's mapping, and (unlike
    // an account's token) it is refused on the account's agent list.
    const mapping = await api.mapping(agentId, parsed.data.token).catch((err: unknown) => {
      if (err instanceof ServerError && (err.status === 401 || err.status === 403))
        throw new ApiError(400, "INVALID_PAYLOAD", "token: not a valid token of this agent");
      throw err;
    });
    const accountToken = await api.agentsOf(parsed.data.token).then(
      () => true,
      () => false,
    );
    if (mapping.agentId !== agentId || accountToken) throw new ApiError(400, "INVALID_PAYLOAD", "token: not this agent's scoped token");
    const agent = runtime.play({
      agentId,
      token: parsed.data.token,
      characterId: mapping.characterId,
      name: mapping.characterName ?? mapping.name ?? agentId,
      ownerAccountId,
      running: true,
    });
    deps.logger.info({ agentId }, "agent handed to the runtime");
    res.status(201).json({ success: true, agent: agent.toJSON() });
  });

  app.get("/agents", async (req, res) => {
    const account = await accountOf(req);
    res.json({ success: true, agents: [...runtime.agents.values()].filter((a) => a.record.ownerAccountId === account).map((a) => a.toJSON()) });
  });

  app.get("/agents/:agentId", async (req, res) => {
    res.json({ success: true, agent: (await ownAgent(req)).toJSON() });
  });

  app.delete("/agents/:agentId", async (req, res) => {
    const agent = await ownAgent(req);
    runtime.stopAgent(agent.record.agentId);
    res.json({ success: true, agent: agent.toJSON() });
  });

  app.use((_req, _res, next) => next(new ApiError(404, "NOT_FOUND", "no such route")));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    let e: ApiError;
    if (err instanceof ApiError) e = err;
    else if (err instanceof ServerError) e = new ApiError(err.status >= 500 ? 502 : err.status, err.code, err.message);
    else if ((err as { type?: string }).type === "entity.parse.failed") e = new ApiError(400, "MALFORMED_JSON", "the body is not valid JSON");
    else if ((err as { type?: string }).type === "entity.too.large") e = new ApiError(413, "PAYLOAD_TOO_LARGE", "the body is over 100 kB");
    else {
      deps.logger.error({ err }, "runtime request failed");
      e = new ApiError(500, "INTERNAL_ERROR", "internal server error");
    }
    res.status(e.status).json({ success: false, error: { code: e.code, message: e.message } });
  });
  return app;
}
