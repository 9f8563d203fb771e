/**
 * The agent runtime's HTTP API from the dashboard (agent-runtime/http.ts): its address is the
 * server's public `AGENT_RT_URL` (`window.env.PUBLIC_AGENT_RT_URL`), and every call carries the
 * owner's own bearer token; the runtime checks ownership with the game server. A runtime that does
 * not answer at all (refused, unreachable, blocked) is a {@link RuntimeUnreachable}; an answer
 * with an error is an {@link ApiError}, as from the game server.
 */
import { ApiError } from "../api.ts";

export const DEFAULT_RUNTIME_URL = "http://localhost:4001";
/** How long the health check waits for an answer before the runtime counts as not reachable. */
export const HEALTH_TIMEOUT_MS = 5_000;

export interface Activity {
  at: string;
  kind: "decision" | "action" | "chat" | "event";
  text: string;
}

export interface RuntimeAgent {
  agentId: string;
  characterId: string;
  name: string;
  state: "connecting" | "playing" | "paused" | "error" | "stopped";
  reason?: string;
  brain: string;
  goal: { type: string; description: string; target?: string; progress: number } | null;
  goalsPaused: boolean;
  /** Its owner's standing instruction (agent-runtime/brain/focus.ts): `focus melee` said to it; null: none. */
  focus?: string | null;
  progress: number | null;
  command: string | null;
  position: { x: number; z: number } | null;
  activity: Activity[];
}

export class RuntimeUnreachable extends Error {
  constructor(url: string, cause: unknown) {
    super(`the agent runtime at ${url} did not answer`, { cause });
    this.name = "RuntimeUnreachable";
  }
}

/** The runtime's HTTP address (a `ws:`/`wss:` AGENT_RT_URL names the same host over HTTP). */
export function runtimeUrl(configured: string | undefined = window.env?.PUBLIC_AGENT_RT_URL): string {
  const raw = configured === undefined || configured.trim() === "" ? DEFAULT_RUNTIME_URL : configured.trim();
  return raw.replace(/^ws(s?):/i, "http$1:").replace(/\/+$/, "");
}

/** True when the runtime is playing the agent (or about to). */
export const isActive = (a: RuntimeAgent | undefined) => a !== undefined && (a.state === "playing" || a.state === "connecting" || a.state === "paused");

export class RuntimeClient {
  readonly url: string;

  constructor(url = runtimeUrl()) {
    this.url = url;
  }

  private async call<T>(token: string | undefined, method: "GET" | "POST" | "DELETE", path: string, body?: unknown, timeoutMs?: number): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res: Response;
    try {
      res = await fetch(this.url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new RuntimeUnreachable(this.url, err);
    }
    const data = (await res.json().catch(() => undefined)) as { success?: boolean; error?: { code?: string; message?: string } } | undefined;
    if (!res.ok || data?.success === false)
      throw new ApiError(res.status, data?.error?.code ?? `HTTP_${res.status}`, data?.error?.message ?? `agent runtime: HTTP ${res.status}`);
    return data as T;
  }

  /** Whether the runtime answers its health check (within {@link HEALTH_TIMEOUT_MS}: a silent one does not). */
  async reachable(): Promise<boolean> {
    try {
      await this.call<{ status: string }>(undefined, "GET", "/health", undefined, HEALTH_TIMEOUT_MS);
      return true;
    } catch {
      return false;
    }
  }

  async agents(token: string): Promise<RuntimeAgent[]> {
    return (await this.call<{ agents: RuntimeAgent[] }>(token, "GET", "/agents")).agents;
  }

  /** Hands an agent to the runtime with its scoped token; it starts playing at once. */
  async hand(token: string, agentId: string, agentToken: string): Promise<RuntimeAgent> {
    return (await this.call<{ agent: RuntimeAgent }>(token, "POST", "/agents", { agentId, token: agentToken })).agent;
  }

  /** Stops playing the agent there (it stays registered on the server). */
  async remove(token: string, agentId: string): Promise<void> {
    await this.call(token, "DELETE", `/agents/${encodeURIComponent(agentId)}`);
  }
}
