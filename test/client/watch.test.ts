/**
 * Watching an agent play from the dashboard (`/agents`, **Watch**), in real Chromium against a
 * real server and the agent runtime as its own process: the owner registers an agent, the runtime
 * plays it, **Watch** opens a read-only view (`/ws?spectate=`) that follows the character as it
 * moves on the server, on the map around it (the minimap's ground: every tile of the view blocked
 * or walkable as the content's collision map has it), beside its goal and recent decisions; an event sent on the spectator
 * connection from the page is refused (SPECTATOR) and the agent plays on. Screenshot:
 * test-artifacts/browser/dashboard-watch.png.
 */
import assert from "node:assert/strict";
import net from "node:net";
import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { BLOCKED_COLOR } from "../../client/src/minimap.ts";
import { WATCH_RADIUS } from "../../client/src/dashboard/WatchView.ts";
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

    // The map under it: each tile's ground (a pixel in its corner, clear of the shapes drawn at
    // tile centres) is the blocked colour exactly where the content's collision map blocks it.
    await eventually(async () => ((await canvas.getAttribute("data-map")) === "ground" ? true : undefined), "the map drawn under the view");
    const drawn = await canvas.evaluate((c: HTMLCanvasElement, radius) => {
      const g = c.getContext("2d")!;
      const tile = c.width / (2 * radius + 1);
      const corners: [number, number, string][] = [];
      for (let dz = -radius; dz <= radius; dz++) {
        for (let dx = -radius; dx <= radius; dx++) {
          const [r, gg, b] = g.getImageData((dx + radius) * tile + 1, (dz + radius) * tile + 1, 1, 1).data;
          corners.push([dx, dz, `#${[r, gg, b].map((v) => v!.toString(16).padStart(2, "0")).join("")}`]);
        }
      }
      return { x: Number(c.dataset.x), z: Number(c.dataset.z), corners };
    }, WATCH_RADIUS);
    const collision = buildCollision(t.server.world.world.content);
    const b = collision.bounds;
    let blocked = 0;
    for (const [dx, dz, color] of drawn.corners) {
      const x = drawn.x + dx;
      const z = drawn.z + dz;
      // The watched character's name is written over the row above it; outside the world is no ground.
      if (dz === -1 || x < b.minX || x > b.maxX || z < b.minZ || z > b.maxZ) continue;
      const isBlocked = !collision.isWalkable(x, z);
      if (isBlocked) blocked++;
      // A faint grid line darkens the ground a little: the blocked colour is told apart, not matched to the level.
      const near = (hex: string) => [1, 3, 5].every((i) => Math.abs(parseInt(color.slice(i, i + 2), 16) - parseInt(hex.slice(i, i + 2), 16)) <= 12);
      assert.equal(near(BLOCKED_COLOR), isBlocked, `tile (${x}, ${z}) drawn ${color}: ${isBlocked ? "blocked" : "walkable"} on the map`);
    }
    assert.ok(blocked > 0, "some blocked tiles (walls, water) in view to tell apart");

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
