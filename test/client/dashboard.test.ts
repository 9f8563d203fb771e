/**
 * The agent dashboard (`/agents`) in a real browser (see support.ts) against a real server serving a
 * fresh build, with the agent runtime as the separate process it is (test/support/agentRuntime.ts).
 * The runtime's address the page learns from `/env.js` (AGENT_RT_URL) is a gate in front of it that
 * refuses every connection until the test opens it, so the same page meets a runtime that is not
 * reachable, then one that is.
 *
 * An owner makes characters on the start screen and follows its link to the dashboard. With the
 * runtime unreachable, the page says so once, registers an agent anyway (showing its token) and its
 * panels poll; a panel whose requests fail says so and retries after 1 s, 2 s and 4 s. Once the
 * runtime answers (the page's 30 s re-check, its clock jumped forward), an existing agent is run
 * there ("Run in the runtime") and taken out again; a newly registered one is handed over at once,
 * plays (activity shown, moving on the server), is stopped (the server reports goalsPaused and the
 * character stands still) and resumed (a goal again), gets a new token the runtime plays on with; a
 * hidden page does not poll; a goal is set, a quick command sent, an agent deleted; a token the
 * server refuses asks to sign in again. What the agents do is read on the server, not taken from
 * the page.
 * Screenshots go to test-artifacts/browser/.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { signJwt } from "../support/jwt.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually, until } from "../support/until.ts";
import { artifacts, buildClient, createCharacter, launchBrowser, lowContrastTexts, playAnonymously } from "./support.ts";

const TICK_MS = 100;

/** A TCP gate on an ephemeral port: refuses every connection until `open(port)` forwards them there. */
async function startGate(): Promise<{ url: string; open(port: number): void; close(): Promise<void> }> {
  let target: number | undefined;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (target === undefined) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target, "127.0.0.1");
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    open: (port) => {
      target = port;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The whole page (the dashboard is longer than the window), in test-artifacts/browser/. */
async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

describe("agent dashboard /agents (real Chromium, the agent runtime as a process)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let rt: RuntimeProcess;
  let gate: Awaited<ReturnType<typeof startGate>>;
  let dist: string;
  let browser: Browser;
  let page: Page;
  let ownerToken: string;
  /** Console errors and page errors, but the failed requests the tests cause on purpose. */
  const errors: string[] = [];
  /** Requests that fail by design: the gate while closed, and position reads the test aborts. */
  const expectedFailures: RegExp[] = [];

  const rest = async (method: string, p: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(t.baseUrl + p, {
      method,
      headers: { Authorization: `Bearer ${ownerToken}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const card = (name: string) => page.getByRole("region", { name, exact: true });
  const runtimeStatus = () => page.locator("#dash-runtime");
  const agentsOnServer = async () => (await rest("GET", "/api/agent")).body.agents as Json[];
  const agentIdOf = async (name: string) => (await agentsOnServer()).find((a) => a.name === name)?.agentId as string;
  const characterIdOf = async (name: string) => ((await rest("GET", "/api/character")).body.characters as Json[]).find((c) => c.name === name)!.id as string;

  before(async () => {
    dist = await buildClient();
    gate = await startGate();
    expectedFailures.push(new RegExp(`^${gate.url.replace(/[.]/g, "\\.")}/`));
    // The dashboard polls every panel of every agent from one address, as does the runtime.
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true", AGENT_RT_URL: gate.url });
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir, env: { AGENT_SEED: "dashboard" } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // The page's own clock flows as the real one, and the tests can jump it forward (the runtime's
    // 30 s re-check, a minute of a hidden page).
    await context.clock.install();
    page = await context.newPage();
    page.on("pageerror", (err) => errors.push(err.message));
    page.on("console", (msg) => {
      if (msg.type() !== "error") return;
      const url = msg.location().url;
      if (expectedFailures.some((re) => re.test(url))) return;
      if (/ 404 /.test(msg.text()) && url.includes("/manifests/")) return;
      errors.push(`${msg.text()} (${url})`);
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state !== "failed" || page === undefined) return;
    await screenshot(page, "dashboard-failed").catch(() => {});
    fs.mkdirSync(artifacts, { recursive: true });
    fs.writeFileSync(path.join(artifacts, "dashboard-failed-page-errors.txt"), errors.join("\n"));
    fs.writeFileSync(path.join(artifacts, "dashboard-failed-runtime-output.txt"), rt?.output() ?? "");
  });

  after(async () => {
    await browser?.close();
    await rt?.stop();
    await gate?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  it("without a reachable runtime: says so once, registers an agent anyway (its token shown), polls its panels, and a failing panel says so and retries after 1 s, 2 s, 4 s", async () => {
    const characters = await playAnonymously(page, t.baseUrl);
    await createCharacter(page, "Robin");
    await createCharacter(page, "Wren");
    ownerToken = (await page.evaluate(() => localStorage.getItem("rsworld.token")))!;
    assert.ok(ownerToken, "the start screen kept the anonymous token");
    // The start screen links to the dashboard; the dashboard uses the kept token.
    await characters.getByRole("link", { name: "Agent dashboard" }).click();
    await page.waitForURL(/\/agents$/);
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    assert.equal(await page.title(), "Agents · RS World");

    await runtimeStatus().filter({ hasText: "is not reachable" }).waitFor();
    assert.match(
      (await runtimeStatus().textContent())!,
      new RegExp(`${gate.url.replace(/[.]/g, "\\.")} is not reachable: .*Everything else here works without it`),
    );

    // Register an agent for Robin, from the keyboard.
    await page.getByRole("combobox", { name: "Character" }).selectOption({ label: "Robin" });
    await page.getByRole("textbox", { name: "Agent name (optional)" }).fill("Robin");
    await page.getByRole("textbox", { name: "Agent name (optional)" }).press("Enter");
    const robin = card("Robin");
    await robin.waitFor();
    await page.getByRole("status").filter({ hasText: "Robin was registered." }).waitFor();
    const robinId = await agentIdOf("Robin");
    assert.ok(robinId, "the server lists the agent");
    // Not handed over: its token is shown for a runtime of one's own, and it is not a runtime's.
    const token = await robin.getByRole("textbox", { name: "Agent token" }).inputValue();
    const mapping = await fetch(`${t.baseUrl}/api/agents/mapping/${robinId}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(mapping.status, 200, "the token shown is the agent's own");
    await robin.getByText("The agent runtime is not reachable.").waitFor();
    assert.equal(await robin.getByRole("button", { name: "Run in the runtime" }).isVisible(), false);
    assert.deepEqual(
      (await fetch(`${rt.url}/agents`, { headers: { Authorization: `Bearer ${ownerToken}` } }).then((r) => r.json())).agents,
      [],
      "nothing reached the runtime",
    );

    // The panels poll the server: goal options, position (the character is not in the world), skills, inventory.
    await robin.getByText(/not in the world/).waitFor();
    await robin.getByRole("group", { name: "Skills" }).getByRole("rowheader", { name: "Woodcutting" }).waitFor();
    await robin.getByRole("group", { name: "Inventory" }).getByRole("listitem").first().waitFor();
    assert.ok((await robin.getByRole("combobox", { name: "Goal" }).locator("option").count()) > 0, "availableGoals offered");
    await robin.getByRole("button", { name: "Go to bank" }).waitFor();

    // Said once: one line on the page, not one per agent or per poll.
    assert.equal(await page.getByText("is not reachable: agents are not handed to it").count(), 1);
    await screenshot(page, "dashboard-runtime-unreachable");

    // The position's requests fail: the panel says so, with the backoff, then recovers.
    const positionUrl = `**/api/characters/${await characterIdOf("Robin")}/position`;
    expectedFailures.push(/\/position$/);
    await page.route(positionUrl, (route) => route.abort("connectionrefused"));
    const positionError = robin.getByRole("group", { name: "Position" }).locator(".poll-error");
    for (const s of [1, 2, 4])
      await positionError.filter({ hasText: new RegExp(`^Could not update the position: .+\\. Retrying in ${s} s\\.$`) }).waitFor({ timeout: 15_000 });
    await screenshot(page, "dashboard-position-backoff");
    await page.unroute(positionUrl);
    // The next retry (4 s) succeeds: the error goes, the position is shown.
    await positionError.filter({ hasText: /^$/ }).waitFor({ state: "attached", timeout: 15_000 });
    assert.equal(await positionError.isVisible(), false);
    await robin.getByText(/not in the world/).waitFor();
  });

  it("notices the runtime once it answers (checked again every 30 s), runs an existing agent there (a new token) and takes it out again", async () => {
    gate.open(Number(new URL(rt.url).port));
    await page.clock.fastForward(31_000);
    await runtimeStatus().filter({ hasText: "is running: new agents are handed to it" }).waitFor();
    const robin = card("Robin");
    await robin.getByText("Not run in the agent runtime.").waitFor();
    await robin.getByRole("button", { name: "Run in the runtime" }).click();
    await robin.getByText("In the agent runtime: playing").waitFor({ timeout: 20_000 });
    const robinCharacter = await characterIdOf("Robin");
    await until(() => t.server.world.world.players.get(robinCharacter), "Robin in the world", 15_000);

    await robin.getByRole("button", { name: "Remove from the runtime" }).click();
    await robin.getByText(/In the agent runtime: stopped/).waitFor({ timeout: 15_000 });
    await until(() => (t.server.world.world.players.get(robinCharacter) === undefined ? true : undefined), "Robin to leave the world", 15_000);
    await robin.getByRole("button", { name: "Run in the runtime" }).waitFor();
  });

  it("registers an agent that is handed to the runtime and plays; Stop pauses it on the server and it stands still; Resume gives it a goal again", async () => {
    await page.getByRole("combobox", { name: "Character" }).selectOption({ label: "Wren" });
    // No name: the card is named by its character.
    await page.getByRole("button", { name: "Register agent" }).click();
    const wren = card("Wren");
    await wren.waitFor();
    // Wren has an agent now: it cannot be given a second (each login would log the other out).
    const characters = page.getByRole("combobox", { name: "Character" });
    const taken = characters.locator("option", { hasText: "Wren (played by the agent Wren)" });
    assert.equal(await taken.count(), 1);
    assert.ok(await taken.isDisabled(), "Wren cannot be chosen again");
    assert.notEqual(await characters.inputValue(), await characterIdOf("Wren"), "another character is chosen");
    await wren.getByText("In the agent runtime: playing").waitFor({ timeout: 20_000 });
    const agentId = ((await agentsOnServer()).find((a) => a.name === null) as Json).agentId as string;
    const characterId = await characterIdOf("Wren");
    const player = () => t.server.world.world.players.get(characterId);
    await until(() => player(), "Wren in the world", 15_000);
    // Where it came in: on a loaded machine its first walk can be over before its activity shows,
    // and it then fights or chops standing still.
    const from = { x: player()!.x, z: player()!.z };

    // Its activity, from the runtime, and it moves on the server.
    await wren.getByRole("group", { name: "Agent runtime" }).getByRole("listitem").first().waitFor({ timeout: 20_000 });
    await until(() => (player()!.x !== from.x || player()!.z !== from.z ? true : undefined), "Wren to move", 30_000);
    await wren.getByText(/chosen by the agent/).waitFor({ timeout: 15_000 });
    // The activity list scrolls by whole lines: its height holds no half line.
    const lines = await wren
      .getByRole("group", { name: "Agent runtime" })
      .getByRole("list")
      .evaluate((ol) => {
        const style = getComputedStyle(ol);
        return parseFloat(style.maxHeight) / parseFloat(style.lineHeight);
      });
    assert.ok(Math.abs(lines - Math.round(lines)) < 0.01 && lines >= 5, `the activity list's height in lines: ${lines}`);
    await screenshot(page, "dashboard-playing");
    assert.deepEqual(await lowContrastTexts(page), [], "the dashboard's text (WCAG AA, 4.5:1)");

    // Stop: the server reports goalsPaused, the character stands still. (Auto Retaliate off: a monster
    // still hitting it would be fought back by the game's own rule, not by the agent.)
    player()!.autoRetaliate = false;
    const stop = wren.getByRole("button", { name: "Stop", exact: true });
    await stop.focus();
    await page.keyboard.press("Enter");
    await wren.getByText("Stopped: no goal, goals are paused until you resume.").waitFor();
    const paused = (await rest("GET", `/api/agents/${agentId}/goal`)).body;
    assert.equal(paused.goalsPaused, true);
    assert.equal(paused.goal, null);
    await until(() => (player()!.path.length === 0 && player()!.action === undefined ? true : undefined), "Wren to idle", 3_000);
    const at = { x: player()!.x, z: player()!.z, tick: t.server.world.world.tick };
    while (t.server.world.world.tick < at.tick + 20) {
      assert.deepEqual({ x: player()!.x, z: player()!.z }, { x: at.x, z: at.z }, "no move while stopped");
      assert.equal(player()!.action, undefined, "no action while stopped");
      await new Promise((r) => setTimeout(r, TICK_MS / 2));
    }
    assert.equal((await rest("GET", `/api/agents/${agentId}/goal`)).body.goal, null, "no goal chosen while stopped");
    assert.ok(await stop.isDisabled(), "Stop is off while stopped");
    // The keyboard stays on the dashboard: the focus moved to Resume.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Resume");
    await wren.getByText("In the agent runtime: paused").waitFor({ timeout: 10_000 });
    await screenshot(page, "dashboard-stopped");

    // Resume: a goal again, on the server and on the page.
    await page.keyboard.press("Enter");
    let goal: Json | null = null;
    for (let i = 0; i < 100 && goal === null; i++) {
      const r = (await rest("GET", `/api/agents/${agentId}/goal`)).body;
      if (r.goalsPaused === false && r.goal !== null) goal = r.goal as Json;
      else await new Promise((res) => setTimeout(res, 100));
    }
    assert.ok(goal !== null, "a goal on the server after Resume");
    assert.equal(goal.lockedBy, "autonomous");
    await wren.getByText(/chosen by the agent/).waitFor({ timeout: 15_000 });
    await wren.getByText("In the agent runtime: playing").waitFor({ timeout: 10_000 });
    assert.ok(await wren.getByRole("button", { name: "Resume", exact: true }).isDisabled());
    await screenshot(page, "dashboard-resumed");

    // The owner's focus, said as a message: the runtime keeps it and the card says it.
    await wren.getByRole("textbox", { name: "Message" }).fill("focus quests");
    await wren.getByRole("button", { name: "Send message" }).click();
    await wren.getByText(/In the agent runtime: playing.*, focused on quests\./).waitFor({ timeout: 15_000 });
  });

  it("a new token for an agent the runtime plays is handed to it; a hidden page does not poll", async () => {
    const wren = card("Wren");
    const agentId = ((await agentsOnServer()).find((a) => a.name === null) as Json).agentId as string;
    await wren.getByRole("button", { name: "New token" }).click();
    await wren.getByText("the agent runtime plays on with this one").waitFor();
    const token = await wren.getByRole("textbox", { name: "Agent token" }).inputValue();
    assert.equal(
      (await fetch(`${t.baseUrl}/api/agents/mapping/${agentId}`, { headers: { Authorization: `Bearer ${token}` } })).status,
      200,
      "the token shown is the agent's",
    );
    const characterId = await characterIdOf("Wren");
    const inRuntime = async () =>
      ((await (await fetch(`${rt.url}/agents/${agentId}`, { headers: { Authorization: `Bearer ${ownerToken}` } })).json()) as Json).agent as Json;
    for (let i = 0; ; i++) {
      const a = await inRuntime();
      if (a.state === "playing" && t.server.world.world.players.get(characterId) !== undefined) break;
      // Up to 30 s: the runtime drops the old token's session and opens one with the new token,
      // which on a loaded machine (the whole suite on two cores) took longer than the 10 s it had.
      assert.ok(i < 300, `the runtime plays on with the new token (${a.state})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await wren.getByText("In the agent runtime: playing").waitFor({ timeout: 10_000 });

    // Hidden: not one request in a minute of the page's time; shown again: it polls at once.
    const requests: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (/^\/(api|agents)\b/.test(new URL(r.url()).pathname)) requests.push(r.url());
    };
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
        document.dispatchEvent(new Event("visibilitychange"));
      }, hidden);
    await setHidden(true);
    await new Promise((r) => setTimeout(r, 500));
    page.on("request", onRequest);
    await page.clock.fastForward(60_000);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(requests.length, 0, `no polling while hidden: ${requests.join(", ")}`);
    await setHidden(false);
    await until(
      () => (requests.some((u) => u.endsWith(`/api/agents/${agentId}/goal`)) && requests.some((u) => u.startsWith(gate.url)) ? true : undefined),
      "polling again once shown",
      5_000,
    );
    page.off("request", onRequest);
  });

  it("opened again, says an agent the runtime plays is checked, then playing (never 'Not run' before the runtime's list is in), and its Goal form shows the agent's goal", async () => {
    await page.reload();
    const state = card("Wren").locator(".runtime-state");
    const seen: string[] = [];
    for (let i = 0; ; i++) {
      const text = (await state.textContent().catch(() => null)) ?? "";
      if (text !== "" && seen.at(-1) !== text) seen.push(text);
      if (text.startsWith("In the agent runtime: playing")) break;
      assert.ok(i < 400, `the card says it plays (${seen.join(" → ")})`);
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok(!seen.includes("Not run in the agent runtime."), seen.join(" → "));
    // The Goal form shows the goal the agent has (until the owner picks another).
    const wrenId = ((await agentsOnServer()).find((a) => a.name === null) as Json).agentId as string;
    await eventually(
      async () => {
        const goal = (await rest("GET", `/api/agents/${wrenId}/goal`)).body.goal as Json | null;
        const shown = await card("Wren").getByRole("combobox", { name: "Goal" }).inputValue();
        return goal !== null && shown === goal.type ? true : undefined;
      },
      "the Goal form on the agent's goal",
      20_000,
    );
  });

  it("polls only the agents whose cards are on screen; one scrolled into view polls at once", async () => {
    const robinId = await agentIdOf("Robin");
    const wrenId = ((await agentsOnServer()).find((a) => a.name === null) as Json).agentId as string;
    const [robinCharacter, wrenCharacter] = [await characterIdOf("Robin"), await characterIdOf("Wren")];
    const panelsOf = (agentId: string, characterId: string) => [
      `/api/agents/${agentId}/goal`,
      `/api/characters/${characterId}/position`,
      `/api/characters/${characterId}/skills`,
      `/api/agents/${agentId}/quick-actions`,
    ];
    const requests: string[] = [];
    const onRequest = (r: { url(): string }) => requests.push(new URL(r.url()).pathname);
    const polled = (agentId: string, characterId: string) => requests.filter((p) => panelsOf(agentId, characterId).includes(p));
    // A window as tall as a part of one card: Robin's card on screen, Wren's below it off screen.
    await page.setViewportSize({ width: 1280, height: 240 });
    try {
      await card("Robin").evaluate((el) => el.scrollIntoView({ block: "start" }));
      assert.equal(await card("Wren").evaluate((el) => el.getBoundingClientRect().top > innerHeight), true, "Wren's card is below the window");
      await new Promise((r) => setTimeout(r, 500));
      page.on("request", onRequest);
      for (let i = 0; i < 3; i++) {
        await page.clock.fastForward(10_000);
        await new Promise((r) => setTimeout(r, 300));
      }
      await until(() => (polled(robinId, robinCharacter).length >= 4 ? true : undefined), "Robin's panels polled", 5_000);
      assert.deepEqual(polled(wrenId, wrenCharacter), [], "nothing of the card off screen is polled");
      await screenshot(page, "dashboard-one-card-on-screen");

      // Scrolled into view (30 s after its last poll): every panel at once.
      await card("Wren").evaluate((el) => el.scrollIntoView({ block: "start" }));
      await until(
        () => (panelsOf(wrenId, wrenCharacter).every((p) => requests.includes(p)) ? true : undefined),
        "Wren's four panels polled once on screen",
        5_000,
      );
    } finally {
      page.off("request", onRequest);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("sets a goal, sends a quick command, and deletes an agent", async () => {
    const wren = card("Wren");
    await wren.getByRole("combobox", { name: "Goal" }).selectOption({ label: "Explore the world" });
    await wren.getByRole("button", { name: "Set goal" }).click();
    await wren.getByText(/Explore the world.*set by you/).waitFor();
    const agentId = ((await agentsOnServer()).find((a) => a.name === null) as Json).agentId as string;
    const g = (await rest("GET", `/api/agents/${agentId}/goal`)).body.goal as Json;
    assert.equal(g.type, "explore");
    assert.equal(g.lockedBy, "manual");

    await wren.getByRole("button", { name: "Go home" }).click();
    await wren.getByText("Sent “home” to Wren.").waitFor();

    const robin = card("Robin");
    await robin.getByRole("button", { name: "Delete agent" }).click();
    await robin.getByRole("button", { name: "Delete for good" }).click();
    await robin.waitFor({ state: "detached" });
    await page.getByRole("status").filter({ hasText: "Robin was deleted." }).waitFor();
    assert.deepEqual(
      (await agentsOnServer()).map((a) => a.name),
      [null],
      "only Wren's agent is left on the server",
    );

    // A token the server stops accepting while the page polls: it asks to sign in again.
    await page.route("**/api/agents/*/goal", (route) =>
      route.fulfill({
        status: 401,
        contentType: "application/json",
        body: JSON.stringify({ success: false, error: { code: "UNAUTHORIZED", message: "invalid token" } }),
      }),
    );
    expectedFailures.push(/\/goal$/);
    await page.clock.fastForward(11_000);
    await page.getByRole("region", { name: "Sign in" }).waitFor();
    await page.getByRole("alert").getByText("The server no longer accepts this browser's player").waitFor();
    assert.equal(await page.getByRole("region", { name: "Wren", exact: true }).isVisible(), false);
    await page.unroute("**/api/agents/*/goal");

    // And back to the game, as the same player.
    await page.getByRole("link", { name: "Back to the game" }).click();
    await page.waitForURL(`${t.baseUrl}/`);
    await page.getByRole("button", { name: "Play", exact: true }).click();
    await page.getByRole("button", { name: "Play Wren", exact: true }).waitFor();
    assert.deepEqual(errors, []);
  });

  it("opens the demo agents' owner's dashboard from the link the runtime prints, in that tab only, leaving the browser's own player alone", async () => {
    // Its own world directory: its store is not the other runtime's.
    const own = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-spawner-"));
    const spawner = await startAgentRuntime({
      apiUrl: t.baseUrl,
      wsUrl: t.wsUrl,
      worldDir: own,
      env: { AGENT_SEED: "spawn", LOG_LEVEL: "info" },
      args: ["--spawn", "1"],
    });
    const context = await browser.newContext();
    try {
      const line = await until(
        () => /spawned 1 demo agents; watch them in the dashboard[^:]*: ([^\s"]+)/.exec(spawner.output())?.[1],
        "the runtime's line with the link",
        20_000,
      );
      assert.ok(line.startsWith(`${t.baseUrl}/agents#owner=`), line);
      const tab = await context.newPage();
      await tab.goto(t.baseUrl + "/");
      // This browser's own player (anonymous, no character yet).
      const mine = String(((await (await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" })).json()) as { token: string }).token);
      await tab.evaluate((token) => localStorage.setItem("rsworld.token", token), mine);
      await tab.goto(line);
      const demo = tab.getByRole("region", { name: /^Bot[0-9a-f]{4}-1$/ });
      await demo.waitFor({ timeout: 15_000 });
      assert.equal(await tab.evaluate(() => location.hash), "", "the token left the address bar");
      assert.equal(await tab.evaluate(() => localStorage.getItem("rsworld.token")), mine, "the browser's own player is untouched");
      // A reload stays on the owner's page (the tab keeps it); another tab is the browser's own.
      await tab.reload();
      await demo.waitFor({ timeout: 15_000 });
      const other = await context.newPage();
      await other.goto(t.baseUrl + "/agents");
      await other.getByText("You have no characters yet").waitFor();
      assert.equal(await other.getByRole("region", { name: /^Bot[0-9a-f]{4}-1$/ }).count(), 0, "not the demo agents' owner there");
    } finally {
      await context.close();
      await spawner.stop();
      fs.rmSync(own, { recursive: true, force: true });
    }
  });

  it("a browser that has not played yet is sent to the game to make its player", async () => {
    const context = await browser.newContext();
    try {
      const fresh = await context.newPage();
      await fresh.goto(t.baseUrl + "/agents");
      const signIn = fresh.getByRole("region", { name: "Sign in" });
      await signIn.getByText("press Play and create a character").waitFor();
      assert.equal(await fresh.getByRole("region", { name: "Register an agent" }).count(), 0);
      await signIn.getByRole("link", { name: "the game" }).click();
      await fresh.getByRole("button", { name: "Play", exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe("agent dashboard with an identity provider (real Chromium)", function () {
  this.timeout(120_000);
  let t: TestServer;
  let gate: Awaited<ReturnType<typeof startGate>>;
  let dist: string;
  let browser: Browser;

  before(async () => {
    dist = await buildClient();
    // A runtime address that never answers (not localhost:4001, where one may be running).
    gate = await startGate();
    t = await startTestServer({
      CLIENT_BUILD_DIR: dist,
      TICK_MS: String(TICK_MS),
      PUBLIC_IDP_APP_ID: "the-app",
      IDP_APP_SECRET: "idp-secret",
      AGENT_RT_URL: gate.url,
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await gate?.close();
    await t?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  it("uses the tab's sign-in from the start screen, or signs in on its own (a bad token refused in words)", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const good = await signJwt({ sub: "owner-1" }, "idp-secret", { audience: "the-app", expiresIn: 600 });
    // Signed in on the start screen: the dashboard needs nothing more.
    await page.goto(t.baseUrl + "/");
    await page.getByLabel("Identity-provider token").fill(good);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("region", { name: "Your characters" }).waitFor();
    await createCharacter(page, "Kestrel");
    await page.getByRole("link", { name: "Agent dashboard" }).click();
    await page.getByRole("button", { name: "Register agent" }).click();
    await page.getByRole("region", { name: "Kestrel", exact: true }).getByRole("button", { name: "Stop", exact: true }).waitFor();
    await page.locator("#dash-runtime").filter({ hasText: "is not reachable" }).waitFor();
    await context.close();

    // Another tab of its own: asked for a token; a bad one is refused, the good one lists the agent.
    const other = await browser.newContext();
    try {
      const tab = await other.newPage();
      await tab.goto(t.baseUrl + "/agents");
      const field = tab.getByLabel("Identity-provider token");
      await field.fill(await signJwt({ sub: "owner-1" }, "not-the-secret", { audience: "the-app" }));
      await tab.getByRole("button", { name: "Sign in" }).click();
      await tab.getByRole("alert").getByText("That token was not accepted").waitFor();
      await tab.getByLabel("Identity-provider token").fill(good);
      await tab.getByRole("button", { name: "Sign in" }).click();
      await tab.getByRole("region", { name: "Kestrel", exact: true }).waitFor();
      await screenshot(tab, "dashboard-identity-provider");
    } finally {
      await other.close();
    }
  });
});
