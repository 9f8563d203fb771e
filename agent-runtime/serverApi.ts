/**
 * The game server's REST interface, as the runtime uses it: with an owner's bearer token (to check
 * that the owner owns an agent) or an agent's scoped token (its own goal routes). Errors keep the
 * server's status and error body so the runtime can pass them on.
 */
export class ServerError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = "ServerError";
    this.status = status;
    this.code = code;
  }
}

/** How long a REST call to the game server may take. */
export const SERVER_TIMEOUT_MS = 10_000;

export interface AgentListEntry {
  agentId: string;
  characterId: string;
  name: string | null;
  goalsPaused: boolean;
}

export class ServerApi {
  readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
  }

  async call<T = Record<string, unknown>>(method: string, path: string, token: string | undefined, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers: {
          ...(token !== undefined ? { Authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(SERVER_TIMEOUT_MS),
      });
    } catch (err) {
      throw new ServerError(502, "SERVER_UNREACHABLE", `the game server at ${this.baseUrl} did not answer: ${(err as Error).message}`);
    }
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      // Not JSON: reported below by status.
    }
    if (!res.ok) {
      const e = (json.error ?? {}) as { code?: string; message?: string };
      throw new ServerError(res.status, e.code ?? "SERVER_ERROR", e.message ?? `the game server answered ${res.status}`);
    }
    return json as T;
  }

  /** The bearer's own agents (`GET /api/agent`): 401 bad token, 403 an agent token. */
  async agentsOf(ownerToken: string): Promise<AgentListEntry[]> {
    const r = await this.call<{ agents: AgentListEntry[] }>("GET", "/api/agent", ownerToken);
    return r.agents;
  }

  /** The agent's mapping, read with the agent's own token: proves the token is that agent's. */
  mapping(
    agentId: string,
    token: string,
  ): Promise<{ agentId: string; accountId: string; characterId: string; characterName: string | null; name: string | null; ownerCharacterIds: string[] }> {
    return this.call("GET", `/api/agents/mapping/${encodeURIComponent(agentId)}`, token);
  }

  stop(agentId: string, token: string): Promise<unknown> {
    return this.call("POST", `/api/agents/${encodeURIComponent(agentId)}/goal/stop`, token);
  }

  resume(agentId: string, token: string): Promise<unknown> {
    return this.call("POST", `/api/agents/${encodeURIComponent(agentId)}/goal/resume`, token);
  }

  /** A goal the agent was told to pursue (a chat command): `manual`, allowed while paused. */
  setGoal(agentId: string, token: string, goal: { type: string; target?: string | undefined }): Promise<unknown> {
    return this.call("POST", `/api/agents/${encodeURIComponent(agentId)}/goal`, token, { ...goal, source: "manual" });
  }

  goal(
    agentId: string,
    token: string,
  ): Promise<{ goal: unknown; goalsPaused: boolean; availableGoals: { type: string; description: string; targets: string[] }[] }> {
    return this.call("GET", `/api/agents/${encodeURIComponent(agentId)}/goal`, token);
  }
}
