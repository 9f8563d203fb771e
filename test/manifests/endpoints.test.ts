import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { MANIFEST_CACHE_CONTROL } from "../../src/http/routes/content.ts";
import { UNLOCK_TYPES } from "../../src/manifests/schemas/misc.ts";
import { listManifestFiles } from "../../src/manifests/validate.ts";
import { KNOWN_MANIFESTS } from "../../src/manifests/catalog.ts";
import { syncFromHost } from "../../src/manifests/sync.ts";
import os from "node:os";
import { pino } from "pino";
import { startTestServer, type TestServer } from "../support/server.ts";

/** A raw GET, so that the path reaches the server exactly as written (no client normalising). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: rawPath, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("content endpoints", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  describe("GET /manifests/{file}", () => {
    it("serves a cached manifest with the 5-minute cache header and an ETag", async () => {
      const res = await fetch(`${t.baseUrl}/manifests/npcs.json`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), MANIFEST_CACHE_CONTROL);
      assert.equal(MANIFEST_CACHE_CONTROL, "public, max-age=300, must-revalidate");
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      assert.match(res.headers.get("etag") ?? "", /^"[\w-]+"$/);
      const onDisk = fs.readFileSync(path.join(t.worldDir, "assets", "manifests", "npcs.json"), "utf8");
      assert.equal(await res.text(), onDisk);
    });

    it("answers 304 with no body to a matching If-None-Match, and 200 to a stale one", async () => {
      const etag = (await fetch(`${t.baseUrl}/manifests/stores.json`)).headers.get("etag")!;
      const same = await fetch(`${t.baseUrl}/manifests/stores.json`, { headers: { "If-None-Match": etag } });
      assert.equal(same.status, 304);
      assert.equal(await same.text(), "");
      assert.equal(same.headers.get("cache-control"), MANIFEST_CACHE_CONTROL);
      const stale = await fetch(`${t.baseUrl}/manifests/stores.json`, { headers: { "If-None-Match": '"not-it"' } });
      assert.equal(stale.status, 200);
    });

    it("serves nested paths", async () => {
      for (const p of ["items/food.json", "gathering/fishing.json", "recipes/smithing.json"]) {
        const res = await fetch(`${t.baseUrl}/manifests/${p}`);
        assert.equal(res.status, 200, p);
        assert.ok(Array.isArray(await res.json()) || true);
      }
    });

    it("changes the ETag when the file changes", async () => {
      const file = path.join(t.worldDir, "assets", "manifests", "music.json");
      const before = (await fetch(`${t.baseUrl}/manifests/music.json`)).headers.get("etag");
      fs.writeFileSync(file, "[]");
      const res = await fetch(`${t.baseUrl}/manifests/music.json`);
      assert.notEqual(res.headers.get("etag"), before);
      assert.equal(await res.text(), "[]");
    });

    it("lists every manifest the directory holds at index.json, with an ETag, and a file added shows", async () => {
      const dir = path.join(t.worldDir, "assets", "manifests");
      const res = await fetch(`${t.baseUrl}/manifests/index.json`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), MANIFEST_CACHE_CONTROL);
      const etag = res.headers.get("etag")!;
      const { files } = (await res.json()) as { files: string[] };
      assert.deepEqual(files, listManifestFiles(dir));
      for (const f of ["npcs.json", "items/food.json", "gathering/fishing.json", "recipes/smithing.json"]) assert.ok(files.includes(f), f);
      // Every file it names is served.
      for (const f of files) assert.equal((await fetch(`${t.baseUrl}/manifests/${f}`)).status, 200, f);
      assert.equal((await fetch(`${t.baseUrl}/manifests/index.json`, { headers: { "If-None-Match": etag } })).status, 304);

      // A file named index.json in the directory is not what is served: the list is.
      fs.writeFileSync(path.join(dir, "index.json"), '{"files":["npcs.json"]}');
      fs.mkdirSync(path.join(dir, "items"), { recursive: true });
      fs.writeFileSync(path.join(dir, "items", "extra.json"), "[]");
      fs.writeFileSync(path.join(dir, ".hidden.json"), "{}");
      // A new directory a level down (the index is kept while no directory of the tree changed).
      fs.mkdirSync(path.join(dir, "recipes", "more"));
      fs.writeFileSync(path.join(dir, "recipes", "more", "extra.json"), "[]");
      try {
        const after = await fetch(`${t.baseUrl}/manifests/index.json`, { headers: { "If-None-Match": etag } });
        assert.equal(after.status, 200);
        assert.notEqual(after.headers.get("etag"), etag);
        const listed = ((await after.json()) as { files: string[] }).files;
        assert.deepEqual(listed, [...files, "items/extra.json", "recipes/more/extra.json"].sort());
        // Gone again: the list follows.
        fs.rmSync(path.join(dir, "recipes", "more"), { recursive: true });
        const again = ((await (await fetch(`${t.baseUrl}/manifests/index.json`)).json()) as { files: string[] }).files;
        assert.deepEqual(again, [...files, "items/extra.json"].sort());
      } finally {
        for (const f of ["index.json", "items/extra.json", ".hidden.json", "recipes/more"]) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
      }
    });

    it("is a content host for another server: a sync from it fetches every file it holds, the ones beyond the known list too", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "manifest-sync-"));
      const extra = path.join(t.worldDir, "assets", "manifests", "items", "extra.json");
      fs.writeFileSync(extra, "[]");
      try {
        const report = await syncFromHost(t.baseUrl, dir, pino({ level: "silent" }));
        const held = listManifestFiles(path.join(t.worldDir, "assets", "manifests"));
        assert.ok(held.includes("items/extra.json"));
        assert.deepEqual(report.failed, []);
        assert.deepEqual(report.updated.sort(), held);
        assert.deepEqual(listManifestFiles(dir), held);
        // The sync still tries every known name (a host's index adds to that list): those it lacks.
        assert.deepEqual(report.missing.sort(), KNOWN_MANIFESTS.filter((f) => !held.includes(f)).sort());
      } finally {
        fs.rmSync(extra);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("answers 404 for a manifest that does not exist", async () => {
      const res = await fetch(`${t.baseUrl}/manifests/nothing-here.json`);
      assert.equal(res.status, 404);
      assert.equal((await res.json()).error.code, "NOT_FOUND");
    });

    it("refuses path traversal, hidden files and non-JSON paths", async () => {
      fs.writeFileSync(path.join(t.worldDir, "assets", "secret.json"), '{"secret":true}');
      for (const raw of [
        "/manifests/../secret.json",
        "/manifests/..%2fsecret.json",
        "/manifests/%2e%2e/secret.json",
        "/manifests/items/..%2f..%2fsecret.json",
        "/manifests/.etags.json",
        "/manifests/items/.hidden.json",
        "/manifests/npcs.txt",
        "/manifests/npcs.json.bak",
        "/manifests/npcs",
        "/manifests/a/b/c/d.json",
      ]) {
        const res = await rawGet(t.server.port, raw);
        assert.ok(res.status === 400 || res.status === 404, `${raw}: ${res.status}`);
        assert.doesNotMatch(res.body, /"secret":true/, raw);
      }
      assert.equal((await rawGet(t.server.port, "/manifests/npcs.txt")).status, 400);
    });
  });

  describe("GET /api/data/skill-unlocks", () => {
    it("is public and maps every skill to unlocks sorted by level, each of an allowed type", async () => {
      const res = await fetch(`${t.baseUrl}/api/data/skill-unlocks`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as Record<string, { level: number; description: string; type: string }[]>;
      for (const skill of ["attack", "woodcutting", "prayer", "fishing", "mining", "cooking"]) assert.ok(Array.isArray(body[skill]), skill);
      for (const [skill, list] of Object.entries(body)) {
        assert.ok(list.length > 0, skill);
        for (let i = 0; i < list.length; i++) {
          const u = list[i]!;
          assert.deepEqual(Object.keys(u).sort(), ["description", "level", "type"]);
          assert.ok(Number.isInteger(u.level) && u.level >= 1 && u.level <= 99);
          assert.ok((UNLOCK_TYPES as readonly string[]).includes(u.type), u.type);
          if (i > 0) assert.ok(list[i - 1]!.level <= u.level, `${skill} sorted`);
        }
      }
    });
  });

  describe("GET /api/v1/world/areas", () => {
    it("needs a bearer token", async () => {
      assert.equal((await fetch(`${t.baseUrl}/api/v1/world/areas`)).status, 401);
      assert.equal((await fetch(`${t.baseUrl}/api/v1/world/areas`, { headers: { Authorization: "Bearer nonsense" } })).status, 401);
    });

    it("lists every world area", async () => {
      const token = await t.server.tokens.signServiceToken({ accountId: "acc-areas" }, 60);
      const res = await fetch(`${t.baseUrl}/api/v1/world/areas`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.success, true);
      assert.equal(body.areas.length, t.server.content.areas.length);
      const town = body.areas.find((a: { safeZone: boolean }) => a.safeZone);
      assert.ok(town);
      for (const key of ["id", "name", "group", "bounds", "npcs", "resources", "mobSpawns", "stations"]) assert.ok(key in town, key);
    });
  });
});
