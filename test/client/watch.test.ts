/**
 * Watching an agent play from the dashboard (`/agents`, **Watch**), in real Chromium against a
 * real server and the agent runtime as its own process: the owner registers an agent, the runtime
 * plays it, **Watch** opens a read-only view (`/ws?spectate=`) that follows the character as it
 * moves on the server, drawn as the game draws the world (the ground's pixel art, rock faces and
 * water where the content has them, the character in the game's look for a person, ringed in
 * gold), beside its goal and recent decisions; an event sent on the spectator connection from the
 * page is refused (SPECTATOR) and the agent plays on. Screenshot:
 * test-artifacts/browser/dashboard-watch.png.
 */
import assert from "node:assert/strict";
import net from "node:net";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { person } from "../../client/src/art/looks.ts";
import { WATCH_RADIUS } from "../../client/src/dashboard/WatchView.ts";
import { WATCHED_RING } from "../../client/src/dashboard/watchArt.ts";
import { buildCollision } from "../../src/game/world/setup.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { buildClient, createCharacter, launchBrowser, openPage, playAnonymously, screenshot } from "./support.ts";

/** A port free now, for the runtime the server names in AGENT_RT_URL before it starts. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe("watching an agent from the dashboard (real Chromium, the agent runtime as a process)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let rt: RuntimeProcess;
  let dist: string;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    dist = await buildClient();
    const port = await freePort();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "100", DISABLE_RATE_LIMIT: "true", AGENT_RT_URL: `http://127.0.0.1:${port}` });
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "watch", AGENT_RT_PORT: String(port) } });
    browser = await launchBrowser();
    ({ page } = await openPage(browser, errors));
  });

  after(async () => {
    await browser?.close();
    await rt?.stop();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  it("the owner opens Watch and sees the agent's character move; the spectator cannot act", async () => {
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Kestrel");
    const ownerToken = (await page.evaluate(() => localStorage.getItem("rsworld.token")))!;
    await page.goto(`${t.baseUrl}/agents`);
    await page.getByRole("combobox", { name: "Character" }).selectOption({ label: "Kestrel" });
    await page.getByRole("button", { name: "Register agent" }).click();
    const card = page.getByRole("region", { name: "Kestrel", exact: true });
    await card.getByText("In the agent runtime: playing").waitFor({ timeout: 30_000 });
    const characterId = await until(
      () => [...t.server.world.world.players.values()].find((p) => p.data.name === "Kestrel")?.id,
      "Kestrel in the world",
      15_000,
    );
    const player = () => t.server.world.world.players.get(characterId);
    const agentConn = t.server.world.connectionOf(characterId);
    assert.ok(agentConn, "the agent plays its character");

    await card.getByRole("button", { name: "Watch" }).click();
    const view = card.getByRole("group", { name: "Watching" });
    await view.getByRole("status").filter({ hasText: "Watching Kestrel (read-only)." }).waitFor();
    const canvas = view.getByRole("img", { name: /The agent's character in the world/ });
    const shown = async () => {
      const [x, z] = await Promise.all([canvas.getAttribute("data-x"), canvas.getAttribute("data-z")]);
      return x === null ? undefined : { x: Number(x), z: Number(z) };
    };
    const first = await eventually(shown, "the view to show the character", 10_000);
    // The view follows the character as the agent moves it on the server.
    const moved = await eventually(
      async () => {
        const now = await shown();
        return now !== undefined && (now.x !== first.x || now.z !== first.z) ? now : undefined;
      },
      "the watched character to move in the view",
      60_000,
    );
    const onServer = player()!;
    assert.ok(
      Math.abs(onServer.x - moved.x) + Math.abs(onServer.z - moved.z) <= 6,
      `the view (${moved.x}, ${moved.z}) is where the server has it (${onServer.x}, ${onServer.z})`,
    );
    // Beside the view: the agent's goal and its recent decisions, as the card polls them.
    await view
      .getByText(/chosen by the agent|No goal yet/)
      .first()
      .waitFor({ timeout: 15_000 });
    assert.ok((await view.getByRole("list").getByRole("listitem").count()) > 0, "recent decisions listed");
    await view.scrollIntoViewIfNeeded();
    await screenshot(page, "dashboard-watch");

    // The world under it, drawn as the game draws it (dashboard/watchArt.ts, the world view's art):
    // the ground's pixel art, textured (grass specks, paths, floors, shingles: several colours in a
    // tile, where the minimap's ground was one flat colour a tile), the content's rock faces grey
    // and water blue, and the watched character in the game's look for a person (its skin, from
    // art/looks.ts) over a gold ring, not a dot.
    await eventually(async () => ((await canvas.getAttribute("data-map")) === "ground" ? true : undefined), "the map drawn under the view");
    // Next to the mine's rock face (world-config.json `rocks:mine_face`, z 29-30), so that the view has
    // one to show wherever the agent was; the agent plays on from there.
    assert.ok(t.server.world.world.teleport(player()!, { x: 11, z: 26 }), "a walkable tile by the rock face");
    const read = () =>
      canvas.evaluate((c: HTMLCanvasElement, radius) => {
        const g = c.getContext("2d")!;
        const tile = c.width / (2 * radius + 1);
        const { data } = g.getImageData(0, 0, c.width, c.height);
        const hex = (i: number) => `#${[data[i]!, data[i + 1]!, data[i + 2]!].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
        const tiles: { dx: number; dz: number; colors: number; grey: number; blue: number }[] = [];
        const around = new Set<string>();
        for (let dz = -radius; dz <= radius; dz++) {
          for (let dx = -radius; dx <= radius; dx++) {
            const colors = new Set<string>();
            let grey = 0;
            let blue = 0;
            let n = 0;
            // The tile's inside, clear of the grid's lines on its edges.
            for (let y = 1; y < tile - 1; y++) {
              for (let x = 1; x < tile - 1; x++) {
                const i = (((dz + radius) * tile + y) * c.width + (dx + radius) * tile + x) * 4;
                const [r, gg, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
                colors.add(hex(i));
                if (Math.max(r, gg, b) - Math.min(r, gg, b) <= 24) grey++;
                if (b > r + 30 && b > gg) blue++;
                if (Math.abs(dx) <= 1 && Math.abs(dz) <= 1) around.add(hex(i));
                n++;
              }
            }
            tiles.push({ dx, dz, colors: colors.size, grey: grey / n, blue: blue / n });
          }
        }
        return { x: Number(c.dataset.x), z: Number(c.dataset.z), tiles, around: [...around] };
      }, WATCH_RADIUS);
    const b = buildCollision(t.server.world.world.content).bounds;
    const config = JSON.parse(fs.readFileSync(path.join(t.worldDir, "assets", "manifests", "world-config.json"), "utf8")) as {
      game: { blocked: { minX: number; maxX: number; minZ: number; maxZ: number; reason: string }[] };
    };
    const reason = (x: number, z: number) => config.game.blocked.find((r) => x >= r.minX && x <= r.maxX && z >= r.minZ && z <= r.maxZ)?.reason ?? "";
    const faceIn = (d: Awaited<ReturnType<typeof read>>) =>
      d.tiles.some((tile) => tile.dz !== -1 && /^(rocks|water):/.test(reason(d.x + tile.dx, d.z + tile.dz)));
    const drawn = await eventually(async () => {
      const d = await read();
      return faceIn(d) ? d : undefined;
    }, "the view to show the rock face");
    const inWorld = drawn.tiles.filter(({ dx, dz }) => drawn.x + dx >= b.minX && drawn.x + dx <= b.maxX && drawn.z + dz >= b.minZ && drawn.z + dz <= b.maxZ);
    const textured = inWorld.filter((tile) => tile.colors >= 3).length;
    assert.ok(textured >= inWorld.length * 0.8, `the ground is the game's pixel art: ${textured} of ${inWorld.length} tiles textured`);
    let faces = 0;
    for (const tile of inWorld) {
      // The watched character's name is written over the row above it.
      if (tile.dz === -1) continue;
      const why = reason(drawn.x + tile.dx, drawn.z + tile.dz);
      const at = `tile (${drawn.x + tile.dx}, ${drawn.z + tile.dz}), ${why}`;
      if (why.startsWith("rocks:")) assert.ok(tile.grey >= 0.6, `${at}: drawn as a rock face (${tile.grey} grey)`);
      if (why.startsWith("water:")) assert.ok(tile.blue >= 0.6, `${at}: drawn as water (${tile.blue} blue)`);
      if (why.startsWith("rocks:") || why.startsWith("water:")) faces++;
    }
    assert.ok(faces > 0, "rock faces or water in view to tell apart");
    const skin = person("Kestrel").skin;
    assert.ok(drawn.around.includes(skin), `Kestrel drawn as a person (skin ${skin}) at the view's centre`);
    assert.ok(drawn.around.includes(WATCHED_RING), "Kestrel ringed in gold");

    // A spectator connection opened from the page cannot act, and the agent's session is untouched.
    const refusal = await page.evaluate(
      async ({ token, id }) => {
        const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}&spectate=${encodeURIComponent(id)}`);
        return new Promise<unknown>((resolve) => {
          ws.onmessage = (ev) => {
            const m = JSON.parse(String(ev.data)) as { type: string; data: Record<string, unknown> };
            if (m.type === "spectate:started") ws.send(JSON.stringify({ type: "player:move", data: { x: 0, z: 0 } }));
            if (m.type === "error") {
              ws.close(1000);
              resolve(m.data);
            }
          };
        });
      },
      { token: ownerToken, id: characterId },
    );
    assert.deepEqual(refusal, { code: "SPECTATOR", message: "a spectator connection is read-only: it cannot act", event: "player:move" });
    assert.equal(t.server.world.connectionOf(characterId), agentConn, "the agent's session goes on");

    // Stop watching closes the view.
    await view.getByRole("button", { name: "Stop watching" }).click();
    await view.waitFor({ state: "detached" });
    // The client asks for optional manifests the bundled content does not have (404s), as on the dashboard's test.
    assert.deepEqual(
      errors.filter((e) => !(/ 404 /.test(e) && e.includes("/manifests/"))),
      [],
    );
  });
});
