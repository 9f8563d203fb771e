/**
 * Agent control over REST in a cluster: `POST /api/agents/:agentId/goal`, `…/stop`, `…/message`,
 * `GET …/quick-actions` and the rest act on the live character (its goal pushed on its connection,
 * its path cancelled, what is near it), which only the process holding the character has. A request
 * that reaches another process is passed on to the holder (the character's lease names its process;
 * the processes' HTTP addresses are a hash in the presence), and its answer passed back as it is.
 * Authentication and access are the holder's: the request goes on with its own Authorization header.
 * A character that is live nowhere is answered here (its stored goal state).
 */
import type { Presence } from "@colyseus/core";
import type { RequestHandler } from "express";
import { AgentMapping } from "../../entities/index.ts";
import type { Database } from "../db/orm.ts";
import type { Logger } from "../logger.ts";
import type { CharacterLeases } from "../persistence/leases.ts";

/** Presence hash: lease owner id → the process's HTTP base (its public address). */
export const PROCESSES_KEY = "rsworld:processes";
/** Marks a request passed on by another process: it is answered where it arrives, never passed on again. */
export const ROUTED_HEADER = "x-rsworld-routed";
/** How long a passed-on request may take, ms. */
export const ROUTE_TIMEOUT_MS = 10_000;

export interface AgentRoutingDeps {
  db: Database;
  presence: () => Presence;
  leases: CharacterLeases;
  /** This process's HTTP base, where the others pass requests on to it. */
  httpUrl: string;
  /** Whether the character is live in this process's world. */
  isLocal: (characterId: string) => boolean;
  logger: Logger;
}

export class AgentRouting {
  private readonly deps: AgentRoutingDeps;

  constructor(deps: AgentRoutingDeps) {
    this.deps = deps;
  }

  /** Puts this process in the hash the others route by. */
  async start(): Promise<void> {
    await this.deps.presence().hset(PROCESSES_KEY, this.deps.leases.ownerId, this.deps.httpUrl);
  }

  async close(): Promise<void> {
    await this.deps.presence().hdel(PROCESSES_KEY, this.deps.leases.ownerId);
  }

  /** Where the agent's character is live, when that is another process. */
  private async holderUrl(agentId: string): Promise<string | undefined> {
    const agent = await this.deps.db.em().findOne(AgentMapping, { agentId }, { fields: ["characterId"] });
    if (agent === null || this.deps.isLocal(agent.characterId)) return undefined;
    const owner = await this.deps.leases.holder(agent.characterId);
    if (owner === undefined) return undefined;
    return ((await this.deps.presence().hget(PROCESSES_KEY, owner)) as string | null) ?? undefined;
  }

  /** The middleware, for `/api/agents/:agentId/…` (mounted before the agent routes). */
  readonly middleware: RequestHandler = (req, res, next) => {
    const m = /^\/api\/agents\/([^/]+)\//.exec(req.path);
    if (m === null || m[1] === "mapping" || req.headers[ROUTED_HEADER] !== undefined) return next();
    void (async () => {
      const target = await this.holderUrl(decodeURIComponent(m[1]!));
      if (target === undefined || target === this.deps.httpUrl) return next();
      const headers: Record<string, string> = { [ROUTED_HEADER]: "1" };
      for (const h of ["authorization", "content-type", "accept"]) {
        const v = req.headers[h];
        if (typeof v === "string") headers[h] = v;
      }
      const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.body !== undefined;
      const answer = await fetch(`${target}${req.originalUrl}`, {
        method: req.method,
        headers,
        ...(hasBody ? { body: JSON.stringify(req.body) } : {}),
        signal: AbortSignal.timeout(ROUTE_TIMEOUT_MS),
      });
      res.status(answer.status);
      const type = answer.headers.get("content-type");
      if (type !== null) res.type(type);
      res.send(Buffer.from(await answer.arrayBuffer()));
    })().catch((err: unknown) => {
      this.deps.logger.warn({ err, path: req.path }, "could not pass an agent request on to the process holding its character");
      if (!res.headersSent) next();
    });
  };
}
