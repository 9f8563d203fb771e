/**
 * The server's REST API from the page (same origin: the server serves the client, and Vite's dev
 * server proxies `/api`). Answers are `{ success, … }` or `{ success: false, error: { code,
 * message } }` (src/http/errors.ts); a refusal becomes an {@link ApiError} with the status and code.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export async function api<T>(token: string | undefined, method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = (await res.json().catch(() => undefined)) as { success?: boolean; error?: { code?: string; message?: string } } | undefined;
  if (!res.ok || data?.success === false) {
    throw new ApiError(res.status, data?.error?.code ?? `HTTP_${res.status}`, data?.error?.message ?? `${method} ${path}: HTTP ${res.status}`);
  }
  return data as T;
}

export interface CharacterSummary {
  id: string;
  name: string;
  combatLevel: number;
  online: boolean;
}

export interface Template {
  id: string;
  name: string;
  description: string;
}
