import assert from "node:assert/strict";
import type { Application } from "express";
import { pino } from "pino";
import { z } from "zod";
import { NAME_MAX_LENGTH } from "../../src/game/clientEvents.ts";
import { answersByOperation, ROUTES } from "../../src/http/openapi.ts";
import { answerMismatch, RESPONSE_SCHEMA_MISMATCH, schemaMismatch } from "../../src/http/responseCheck.ts";
import { PLAYER_RESPONSES } from "../../src/http/routes/api.ts";
import { bareApp } from "../support/bareApp.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/** The Express app alone (createApp) over real HTTP, with documented routes that answer as given. */
async function appAnswering(env: Record<string, string>): Promise<{ url: string; errors: unknown[]; close(): Promise<void> }> {
  const errors: unknown[] = [];
  const logger = pino({ level: "error" }, { write: (line: string) => errors.push(JSON.parse(line)) });
  const app = await bareApp(
    env,
    (a) => {
      // A player without its name: not what the document says.
      a.get("/api/player/online", (_req, res) => {
        res.json({ success: true, players: [{ id: "c1", x: 1, z: 2, combatLevel: 3 }] });
      });
      a.get("/api/template", (_req, res) => {
        res.json({ success: true, templates: [] });
      });
    },
    logger,
  );
  return { ...app, errors };
}

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
    // Nor is the API reference page that renders this document (src/http/apiReference.ts).
    for (const page of ["get /", "get /{splat}", "get /api/reference", "get /api/reference/init.js", "get /api/reference/{file}"]) mounted.delete(page);
    const documented = new Set(Object.entries(ROUTES).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)));
    const undocumented = [...mounted].filter((r) => !documented.has(r));
    const unmounted = [...documented].filter((r) => !mounted.has(r));
    assert.deepEqual(undocumented, [], "mounted but missing from the OpenAPI document");
    assert.deepEqual(unmounted, [], "documented but not mounted");
    assert.ok(mounted.size >= 30);
  });

  it("generates request bodies and queries from the schemas that validate them, limits included", async () => {
    const doc = await (await fetch(`${t.baseUrl}/api/openapi.json`)).json();
    const character = doc.paths["/api/character"].post.requestBody;
    assert.equal(character.required, true);
    const body = character.content["application/json"].schema;
    assert.deepEqual(body.required, ["name"]);
    assert.equal(body.additionalProperties, false);
    assert.equal(body.properties.name.minLength, 3);
    assert.equal(body.properties.name.maxLength, 16);
    const goal = doc.paths["/api/agents/{agentId}/goal"].post.requestBody.content["application/json"].schema;
    assert.deepEqual(goal.properties.source.enum, ["manual", "autonomous"]);
    assert.equal(goal.properties.description.maxLength, 200);
    const mute = doc.paths["/api/admin/mute"].post.requestBody.content["application/json"].schema;
    assert.equal(mute.properties.minutes.type, "integer");
    // A body of optional fields may be left out (parseBody reads it as {}).
    assert.equal(doc.paths["/api/voice/token"].post.requestBody.required, false);
    const audit = Object.fromEntries(doc.paths["/api/admin/audit"].get.parameters.map((p: { name: string }) => [p.name, p]));
    assert.deepEqual(Object.keys(audit).sort(), ["limit", "name", "offset"]);
    assert.equal(audit.limit.in, "query");
    assert.equal(audit.limit.schema.maximum, 100);
    assert.equal(audit.limit.required, false);
    const friend = doc.paths["/api/v1/social/friends/{name}"].delete.parameters[0];
    assert.deepEqual([friend.in, friend.required, friend.schema.maxLength], ["path", true, NAME_MAX_LENGTH]);
  });

  it("gives every operation a real success schema and its refusals with their codes", async () => {
    /** A refusal's codes: the common error body (a reference) with its `code` an enum. */
    const codes = (response: unknown): string[] =>
      (response as { content: Record<string, { schema: { allOf: [unknown, { properties: { error: { properties: { code: { enum: string[] } } } } }] } }> })
        .content["application/json"]!.schema.allOf[1].properties.error.properties.code.enum;
    const doc = await (await fetch(`${t.baseUrl}/api/openapi.json`)).json();
    for (const [p, ops] of Object.entries(
      doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }>>,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        const at = `${method} ${p}`;
        const success = op.responses["200"] ?? op.responses["201"];
        assert.ok(success?.content, `${at}: a 200 or 201 with a body`);
        const schema = Object.values(success.content)[0]!.schema;
        assert.ok(
          Object.keys(schema).some((k) => k !== "type") && JSON.stringify(schema) !== JSON.stringify({ type: "object" }),
          `${at}: more than {type: "object"}`,
        );
        // /health's 503 is its own body (degraded), not a refusal.
        const refusals = Object.keys(op.responses).filter((s) => Number(s) >= 400 && !(p === "/health" && s === "503"));
        assert.ok(refusals.includes("500"), `${at}: lists 500`);
        for (const status of refusals) {
          assert.ok(codes(op.responses[status]).length > 0, `${at} ${status}: the error codes`);
        }
      }
    }
    const bearer = doc.paths["/api/character/{characterId}"].delete.responses;
    assert.deepEqual(Object.keys(bearer).sort(), ["200", "400", "401", "403", "404", "409", "429", "500", "503"]);
    assert.deepEqual(codes(bearer["409"]), ["CHARACTER_ONLINE"]);
    assert.deepEqual(codes(bearer["403"]), ["BANNED", "AGENT_TOKEN_FORBIDDEN", "FORBIDDEN"]);
    assert.equal(doc.paths["/api/character/{characterId}"].delete["x-agent-token"], "owner", "what an agent's token may do here");
    assert.equal(doc.paths["/api/v1/social"].get["x-agent-token"], "character");
    assert.deepEqual(bearer["409"].content["application/json"].schema.allOf[0], { $ref: "#/components/schemas/Error" });
    assert.deepEqual(doc.components.schemas.Error.required, ["success", "error"]);
    assert.ok(doc.paths["/api/character"].post.responses["201"], "a creation answers 201");
    assert.equal(doc.paths["/api/character"].post.responses["200"], undefined);
    assert.ok(doc.paths["/api/v1/social/friends"].post.responses["409"].description.includes("ALREADY_FRIENDS"));
    assert.equal(doc.paths["/api/v1/world"].get.responses["200"].content["application/json"].schema.properties.players.type, "array");
  });

  describe("the check of answers against the document (development and tests)", () => {
    const operations = answersByOperation();
    const online = operations.get("get /api/player/online")!;

    it("passes an answer of the documented shape and refuses a wrong one", () => {
      assert.equal(answerMismatch(online, 200, { success: true, players: [{ id: "c1", name: "Ann", x: 1, z: 2, combatLevel: 3 }] }), undefined);
      assert.match(answerMismatch(online, 200, { success: true, players: [{ id: "c1", name: "Ann" }] }) ?? "", /players\.0\.x/);
      assert.match(answerMismatch(online, 200, { success: true, players: [], extra: 1 }) ?? "", /extra/);
      assert.match(answerMismatch(online, 201, { success: true, players: [] }) ?? "", /status 201 is not documented/);
    });

    it("checks a refusal's status and code against the route's", () => {
      const refusal = (code: string) => ({ success: false, error: { code, message: "m" } });
      assert.equal(answerMismatch(online, 401, refusal("UNAUTHORIZED")), undefined);
      assert.match(answerMismatch(online, 401, refusal("NOT_FOUND")) ?? "", /error\.code/);
      assert.match(answerMismatch(online, 409, refusal("CONFLICT")) ?? "", /status 409 is not documented/);
      const deletion = operations.get("delete /api/character/{characterId}")!;
      assert.equal(answerMismatch(deletion, 409, refusal("CHARACTER_ONLINE")), undefined);
    });

    it("reads the body as the client will, after JSON serialization", () => {
      const created = z.strictObject({ at: z.iso.datetime(), n: z.number().optional() });
      assert.equal(schemaMismatch(created, { at: new Date(0), gone: undefined }), undefined, "a Date is sent as its ISO string, an undefined field not at all");
      assert.match(schemaMismatch(created, { at: new Date(0), n: Number.NaN }) ?? "", /^n: .*null/, "NaN is sent as null");
      assert.equal(schemaMismatch(PLAYER_RESPONSES.deleted, { success: true, deleted: "c1" }), undefined);
    });

    it("answers an undocumented shape with a 500 RESPONSE_SCHEMA_MISMATCH under test, logs it in development, and is off in production", async () => {
      const production = {
        JWT_SECRET: "x".repeat(32),
        ADMIN_CODE: "admin-code-0123",
        PUBLIC_IDP_APP_ID: "a",
        IDP_APP_SECRET: "b",
        DATABASE_URL: "postgres://h/db",
      };
      for (const [NODE_ENV, status] of [
        ["test", 500],
        ["development", 200],
        ["production", 200],
      ] as const) {
        const app = await appAnswering(NODE_ENV === "production" ? { NODE_ENV, ...production } : { NODE_ENV });
        try {
          const bad = await fetch(`${app.url}/api/player/online`);
          assert.equal(bad.status, status, NODE_ENV);
          const body = (await bad.json()) as { error?: { code: string; message: string } };
          if (NODE_ENV === "test") {
            assert.equal(body.error?.code, RESPONSE_SCHEMA_MISMATCH);
            assert.match(body.error?.message ?? "", /^get \/api\/player\/online 200: players\.0\.name/);
          }
          assert.equal(app.errors.length, NODE_ENV === "production" ? 0 : 1, `${NODE_ENV}: logged as an error`);
          const good = await fetch(`${app.url}/api/template`);
          assert.equal(good.status, 200, `${NODE_ENV}: a documented shape passes`);
        } finally {
          await app.close();
        }
      }
    });
  });
});
