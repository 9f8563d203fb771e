/** A JSON request to a test server or runtime, with an optional bearer: the status and the parsed body. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function callJson(base: string, method: string, p: string, token?: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(base + p, {
    method,
    headers: { ...(token !== undefined ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** The `Authorization` value of an admin's HTTP Basic login (any user name; the password is the admin code). */
export function adminBasic(code: string, user = "ops"): string {
  return `Basic ${Buffer.from(`${user}:${code}`).toString("base64")}`;
}
