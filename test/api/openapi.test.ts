import assert from "node:assert/strict";
import type { Application } from "express";
import { ROUTES } from "../../src/http/openapi.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every (method, path) mounted on the app, paths in OpenAPI syntax. */
function mountedRoutes(app: Application): Set<string> {
  const out = new Set<string>();
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) {
          const openapi = p.replace(/:(\w+)/g, "{$1}").replace(/\*(\w+)/g, "{$1}");
          for (const [m, on] of Object.entries(layer.route.methods)) if (on && m !== "_all") out.add(`${m} ${openapi}`);
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return out;
}

describe("the OpenAPI document at /api/openapi.json", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it("is served, public, and OpenAPI 3.1", async () => {
    const res = await fetch(`${t.baseUrl}/api/openapi.json`);
    assert.equal(res.status, 200);
    const doc = await res.json();
    assert.equal(doc.openapi, "3.1.0");
    assert.ok(doc.paths["/api/v1/player"].get);
  });

  it("documents every mounted route, and mounts every documented one", () => {
    const mounted = mountedRoutes(t.server.app);
    // The browser client's pages (client/dist: `/` and its index fallback) are not part of the API.
    for (const page of ["get /", "get /{splat}"]) mounted.delete(page);
    const documented = new Set(Object.entries(ROUTES).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)));
    const undocumented = [...mounted].filter((r) => !documented.has(r));
    const unmounted = [...documented].filter((r) => !mounted.has(r));
    assert.deepEqual(undocumented, [], "mounted but missing from the OpenAPI document");
    assert.deepEqual(unmounted, [], "documented but not mounted");
    assert.ok(mounted.size >= 30);
  });
});
