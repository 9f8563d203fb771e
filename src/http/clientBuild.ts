/**
 * Serves a built client when one is present (`CLIENT_BUILD_DIR`, with an
 * `index.html`), with an index fallback for client-side routes that never shadows the server's
 * own paths.
 */
import fs from "node:fs";
import path from "node:path";
import express, { Router } from "express";

export const RESERVED_PREFIXES = ["/api", "/ws", "/manifests", "/colyseus", "/health", "/status", "/env.js", "/matchmake"];

export function isReserved(p: string): boolean {
  return RESERVED_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`) || (prefix === "/env.js" && p.startsWith(prefix)));
}

/** Whether `dir` holds a client build to serve (its index page). */
export function hasClientBuild(dir: string): boolean {
  return fs.existsSync(path.join(dir, "index.html"));
}

export function clientBuildRoutes(dir: string): Router | undefined {
  if (!hasClientBuild(dir)) return undefined;
  const index = path.join(dir, "index.html");
  const router = Router();
  const statics = express.static(dir, { index: false, fallthrough: true, maxAge: "1h" });
  router.use((req, res, next) => (isReserved(req.path) ? next() : statics(req, res, next)));
  router.get("/*splat", (req, res, next) => {
    // Only a request that names HTML (a browser's navigation) gets the index: a script's fetch
    // (`Accept: */*`) of an unknown path still gets the JSON 404.
    if (isReserved(req.path) || !/\btext\/html\b/.test(req.get("accept") ?? "")) return next();
    res.set("Cache-Control", "no-cache").sendFile(index);
  });
  router.get("/", (_req, res) => res.set("Cache-Control", "no-cache").sendFile(index));
  return router;
}
