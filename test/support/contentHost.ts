/**
 * A real content host for loader tests: serves a directory under `/manifests/` with strong
 * ETags and 304s, and records every request (path and If-None-Match) it gets.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface HostRequest {
  path: string;
  ifNoneMatch: string | undefined;
  status: number;
}

export interface ContentHost {
  url: string;
  dir: string;
  requests: HostRequest[];
  close(): Promise<void>;
}

export function etagOf(body: Buffer): string {
  return `"${createHash("sha1").update(body).digest("hex")}"`;
}

export async function startContentHost(dir: string): Promise<ContentHost> {
  const requests: HostRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://host");
    const ifNoneMatch = req.headers["if-none-match"];
    const done = (status: number, body?: Buffer, etag?: string) => {
      requests.push({ path: url.pathname, ifNoneMatch, status });
      res.writeHead(status, etag ? { ETag: etag, "Content-Type": "application/json" } : {});
      res.end(body);
    };
    const rel = decodeURIComponent(url.pathname.replace(/^\/manifests\//, ""));
    const file = path.join(dir, rel);
    if (!url.pathname.startsWith("/manifests/") || rel.includes("..") || !fs.existsSync(file) || !fs.statSync(file).isFile()) return done(404);
    const body = fs.readFileSync(file);
    const etag = etagOf(body);
    if (ifNoneMatch === etag) return done(304, undefined, etag);
    done(200, body, etag);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dir,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A URL where nothing listens (a host that is down). */
export async function deadHostUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
}
