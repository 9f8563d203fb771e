/**
 * Agent control over REST in a cluster: `POST /api/agents/:agentId/goal`, `…/stop`, `…/message`,
 * `GET …/quick-actions` and the rest act on the live character (its goal pushed on its connection,
 * its path cancelled, what is near it), which only the process holding the character has. A request
 * that reaches another process is passed on to the holder (the character's lease names its process;
 * the processes' HTTP addresses are a hash in the presence), and its answer passed back as it is.
 * The token is checked here before anything is passed on, so a bad one is refused (401) by the
 * process the client reached, counted against the client's own address; the holder checks it
 * again with access to the agent, and counts the request against the client's address too, which
 * the request carries signed for it alone (forwarded.ts), not against this process's.
 * A character that is live nowhere is answered here (its stored goal state).
 */
import type { Presence } from "@colyseus/core";
import type { Request, RequestHandler, Response } from "express";
import { AgentMapping } from "../../entities/index.ts";
import type { Database } from "../db/orm.ts";
import type { Logger } from "../logger.ts";
import type { CharacterLeases } from "../persistence/leases.ts";
import { FORWARDED_HEADER, type ForwardedAddress } from "./forwarded.ts";

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
  /** Signs the client's address for the holder. */
  forwarded: ForwardedAddress;
  logger: Logger;
}

/** Runs an Express guard (requireAuth) as a step: resolves once it lets the request through, rejects with what it refused. */
function passes(guard: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    Promise.resolve(guard(req, res, (err?: unknown) => (err === undefined ? resolve() : reject(err as Error)))).catch(reject);
  });
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

  /** Where the agent's character is live, when that is another process: its lease owner id and HTTP base. */
  private async holder(agentId: string): Promise<{ owner: string; url: string } | undefined> {
    const agent = await this.deps.db.em().findOne(AgentMapping, { agentId }, { fields: ["characterId"] });
    if (agent === null || this.deps.isLocal(agent.characterId)) return undefined;
    const owner = await this.deps.leases.holder(agent.characterId);
    if (owner === undefined) return undefined;
    const url = (await this.deps.presence().hget(PROCESSES_KEY, owner)) ?? undefined;
    return url === undefined || url === this.deps.httpUrl ? undefined : { owner, url };
  }

  /** The middleware, for `/api/agents/:agentId/…` (mounted before the agent routes); `auth` is requireAuth's guard. */
  middleware(auth: RequestHandler): RequestHandler {
    return (req, res, next) => {
      const m = /^\/api\/agents\/([^/]+)\//.exec(req.path);
      if (m === null || m[1] === "mapping" || req.headers[ROUTED_HEADER] !== undefined) return next();
      void (async () => {
        let target;
        try {
          target = await this.holder(decodeURIComponent(m[1]!));
        } catch (err) {
          this.deps.logger.warn({ err, path: req.path }, "could not find the process holding an agent's character: answered here");
          return next();
        }
        if (target === undefined) return next();
        // A local request is authenticated by its route; one passed on, here first.
        try {
          await passes(auth, req, res);
        } catch (err) {
          return next(err);
        }
        await this.passOn(req, res, target).catch((err: unknown) => {
          this.deps.logger.warn({ err, path: req.path }, "could not pass an agent request on to the process holding its character");
          if (!res.headersSent) next();
        });
      })();
    };
  }

  private async passOn(req: Request, res: Response, target: { owner: string; url: string }): Promise<void> {
    const headers: Record<string, string> = { [ROUTED_HEADER]: "1", [FORWARDED_HEADER]: this.deps.forwarded.sign(req.ip ?? "", target.owner) };
    for (const h of ["authorization", "content-type", "accept"]) {
      const v = req.headers[h];
      if (typeof v === "string") headers[h] = v;
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.body !== undefined;
    const answer = await fetch(`${target.url}${req.originalUrl}`, {
      method: req.method,
      headers,
      ...(hasBody ? { body: JSON.stringify(req.body) } : {}),
      signal: AbortSignal.timeout(ROUTE_TIMEOUT_MS),
    });
    res.status(answer.status);
    const type = answer.headers.get("content-type");
    if (type !== null) res.type(type);
    res.send(Buffer.from(await answer.arrayBuffer()));
  }
}
