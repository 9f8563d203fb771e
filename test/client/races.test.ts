/**
 * The browser client on a slow link (real Chromium, see support.ts, against a real server serving a
 * fresh build): answers held back with playwright's `page.route` open the windows a person on a
 * slow link meets, and in each the page must do the right thing.
 *
 * Start screen: a character list arriving late does not take the keyboard from the name being
 * typed; a failed listing says so with "Try again" (and the templates still come); a double click
 * on "Create character" or "Delete … for good" sends one request; a chat message sent before the
 * world view is ready is sent, not a page load.
 *
 * Agent dashboard, with a stand-in agent runtime (a small HTTP server whose health check answers,
 * fails, waits or never answers as each test asks): a double click on "Register agent" registers
 * one agent; the goal targets are offered when the quick-actions poll answers first; an agent
 * registered while the runtime's health check is under way is handed to it once it answers, and a
 * silent runtime counts as not reachable after 5 s; hiding and showing the page while a poll is
 * under way keeps one polling loop; a card's actions run one at a time and a goal poll from before
 * an action does not undo it; the agents' list says "Loading…", and its failure with Retry, and a
 * card registered while it loads stays.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { Browser, BrowserContext, Page, Request, Route } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server.ts";
import { eventually } from "../support/until.ts";
import { artifacts, buildClient, createCharacter, launchBrowser, openPage, playAnonymously } from "./support.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A promise opened from outside: held requests wait on it. */
function latch(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Lets the page run a while: only to show that something did not happen. */
const settle = (page: Page, ms = 400) => page.waitForTimeout(ms);

/** The requests of a method whose path matches, as the page sends them. */
function record(page: Page, method: string, pathname: RegExp): Request[] {
  const seen: Request[] = [];
  page.on("request", (r) => {
    if (r.method() === method && pathname.test(new URL(r.url()).pathname)) seen.push(r);
  });
  return seen;
}

type Health = "ok" | "down" | "hold" | "silent";

/**
 * A stand-in agent runtime (agent-runtime/http.ts's routes the dashboard uses). `/health` answers
 * as `health` says: at once, 503, once `releaseHealth()` is called, or never.
 */
async function startFakeRuntime() {
  const handed: { agentId: string; token: string }[] = [];
  const open = new Set<http.ServerResponse>();
  let healthLatch = latch();
  const state = { health: "down" as Health };
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" });
    res.end(JSON.stringify(body));
  };
  const agent = (agentId: string) => ({
    agentId,
    characterId: "",
    name: "",
    state: "playing",
    brain: "stand-in",
    goal: null,
    goalsPaused: false,
    progress: null,
    command: null,
    position: null,
    activity: [],
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "GET, POST, DELETE",
        "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept",
      });
      res.end();
      return;
    }
    if (url.pathname === "/health") {
      const mode = state.health;
      if (mode === "ok") send(res, 200, { success: true, status: "ok" });
      else if (mode === "down") send(res, 503, { success: false, error: { code: "DOWN", message: "down" } });
      else if (mode === "hold") void healthLatch.wait.then(() => send(res, 200, { success: true, status: "ok" }));
      else open.add(res);
      return;
    }
    if (url.pathname === "/agents" && req.method === "GET") {
      send(res, 200, { success: true, agents: handed.map((h) => agent(h.agentId)) });
      return;
    }
    if (url.pathname === "/agents" && req.method === "POST") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const h = JSON.parse(body) as { agentId: string; token: string };
        handed.push(h);
        send(res, 201, { success: true, agent: agent(h.agentId) });
      });
      return;
    }
    send(res, 404, { success: false, error: { code: "NOT_FOUND", message: "not found" } });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    handed,
    state,
    /** The held health checks answer (200); later ones too while the mode is "hold". */
    releaseHealth: () => healthLatch.open(),
    setHealth(mode: Health) {
      state.health = mode;
      if (mode === "hold") healthLatch = latch();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe("browser client on a slow link: races (real Chromium)", function () {
  this.timeout(120_000);
  let t: TestServer;
  let runtime: Awaited<ReturnType<typeof startFakeRuntime>>;
  let browser: Browser;
  let dist: string;
  const contexts: BrowserContext[] = [];
  let errors: string[] = [];
  let names = 0;
  /** A fresh character name (names are unique on the server). */
  const fresh = (base: string) => `${base}${"abcdefghij"[names++ % 10]}${"klmnopqrst"[Math.floor(names / 10) % 10]}`;

  before(async () => {
    dist = await buildClient();
    runtime = await startFakeRuntime();
    t = await startTestServer({ CLIENT_BUILD_DIR: dist, TICK_MS: "200", DISABLE_RATE_LIMIT: "true", AGENT_RT_URL: runtime.url });
    browser = await launchBrowser();
  });

  beforeEach(() => {
    errors = [];
    runtime.setHealth("down");
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed") {
      fs.mkdirSync(artifacts, { recursive: true });
      const name = `failed-races-${this.currentTest.title.slice(0, 40).replace(/\W+/g, "-")}`;
      for (const [i, p] of contexts.flatMap((c) => c.pages()).entries())
        await p.screenshot({ path: path.join(artifacts, `${name}-${i}.png`), fullPage: true }).catch(() => {});
      fs.writeFileSync(path.join(artifacts, `${name}-errors.txt`), errors.join("\n"));
    }
    for (const c of contexts.splice(0)) await c.close().catch(() => {});
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    await runtime?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  async function newPage(): Promise<Page> {
    const { context, page } = await openPage(browser, errors);
    contexts.push(context);
    return page;
  }

  /** Errors but the failed loads a test causes on purpose (503s, a refused runtime). */
  const unexpected = () => errors.filter((e) => !/Failed to load resource/.test(e));

  // ---- start screen ------------------------------------------------------------------------------

  it("keeps the keyboard in Character name when the character list arrives late (Space types, it does not play)", async () => {
    const page = await newPage();
    const first = fresh("Early");
    await playAnonymously(page, t.baseUrl);
    await createCharacter(page, first);
    // Back with the kept token: its check passes, the listing after it is held.
    const list = latch();
    let gets = 0;
    await page.route("**/api/character", async (route) => {
      if (route.request().method() === "GET" && ++gets === 2) await list.wait;
      await route.continue();
    });
    await page.reload();
    await page.getByRole("button", { name: "Play", exact: true }).click();
    const name = page.getByRole("textbox", { name: "Character name" });
    await name.click();
    await name.pressSequentially("New");
    await eventually(() => (gets >= 2 ? true : undefined), "the listing asked for");
    list.open();
    await page.getByRole("button", { name: `Play ${first}`, exact: true }).waitFor();
    await settle(page, 200);
    assert.equal(await name.evaluate((el) => el === document.activeElement), true, "Character name keeps the keyboard");
    await page.keyboard.press("Space");
    await page.keyboard.type("Name");
    assert.equal(await name.inputValue(), "New Name");
    assert.equal(await page.getByRole("log", { name: "Chat" }).isVisible(), false, "not in the world");
    assert.deepEqual(unexpected(), []);
  });

  it("says a failed first listing with Try again; the templates come on their own; Try again lists", async () => {
    const page = await newPage();
    // The first listing of each fails (a server restarting).
    const failOnce = (pattern: string) => {
      let failed = false;
      return page.route(pattern, async (route) => {
        if (route.request().method() === "GET" && !failed) {
          failed = true;
          await route.fulfill({
            status: 503,
            contentType: "application/json",
            body: JSON.stringify({ success: false, error: { code: "UNAVAILABLE", message: "restarting" } }),
          });
        } else await route.continue();
      });
    };
    await failOnce("**/api/character");
    await playAnonymously(page, t.baseUrl);
    const alert = page.getByRole("alert");
    await alert.getByText("Could not list your characters: restarting").waitFor();
    const retry = page.getByRole("button", { name: "Try again" });
    await retry.waitFor();
    // The templates came: a character can be created even so.
    const create = page.getByRole("button", { name: "Create character" });
    await eventually(async () => ((await create.isEnabled()) ? true : undefined), "Create character enabled");
    await retry.click();
    await page.getByText("No characters yet").waitFor();
    assert.equal(await retry.isVisible(), false, "Try again goes with the error");
    assert.equal(await alert.first().textContent(), "");

    // The templates' listing fails: said, Create stays off; Try again brings them.
    const other = await newPage();
    let failed = false;
    await other.route("**/api/template", async (route) => {
      if (!failed) {
        failed = true;
        await route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ success: false, error: { code: "UNAVAILABLE", message: "restarting" } }),
        });
      } else await route.continue();
    });
    await playAnonymously(other, t.baseUrl);
    await other.getByRole("alert").getByText("Could not list the character templates: restarting").waitFor();
    await other.getByText("No characters yet").waitFor();
    const otherCreate = other.getByRole("button", { name: "Create character" });
    assert.equal(await otherCreate.isDisabled(), true);
    await other.getByRole("button", { name: "Try again" }).click();
    await eventually(async () => ((await otherCreate.isEnabled()) ? true : undefined), "Create character enabled after Try again");
    await createCharacter(other, fresh("Retry"));
    assert.deepEqual(unexpected(), []);
  });

  it("sends one creation and one deletion for a double click, with no false error", async () => {
    const page = await newPage();
    await playAnonymously(page, t.baseUrl);
    const create = page.getByRole("button", { name: "Create character" });
    await eventually(async () => ((await create.isEnabled()) ? true : undefined), "Create character enabled");
    const name = fresh("Double");
    await page.getByRole("textbox", { name: "Character name" }).fill(name);
    const posts = record(page, "POST", /^\/api\/character$/);
    const answer = latch();
    await page.route("**/api/character", async (route) => {
      if (route.request().method() === "POST") await answer.wait;
      await route.continue();
    });
    await create.dblclick();
    await eventually(() => (posts.length > 0 ? true : undefined), "the creation sent");
    await settle(page);
    assert.equal(posts.length, 1, "one creation sent");
    answer.open();
    await page.getByRole("button", { name: `Play ${name}`, exact: true }).waitFor();
    await page.getByRole("status").getByText(`${name} was created.`).waitFor();
    await settle(page);
    assert.equal(await page.getByRole("alert").first().textContent(), "", "no refusal shown");

    const deletes = record(page, "DELETE", /^\/api\/character\//);
    const deleted = latch();
    await page.route("**/api/character/*", async (route) => {
      if (route.request().method() === "DELETE") await deleted.wait;
      await route.continue();
    });
    await page.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
    await page.getByRole("button", { name: `Delete ${name} for good` }).dblclick();
    await eventually(() => (deletes.length > 0 ? true : undefined), "the deletion sent");
    await settle(page);
    assert.equal(deletes.length, 1, "one deletion sent");
    deleted.open();
    await page.getByRole("status").getByText(`${name} was deleted.`).waitFor();
    await page.getByText("No characters yet").waitFor();
    await settle(page);
    assert.equal(await page.getByRole("alert").first().textContent(), "", "no refusal shown");
    assert.deepEqual(unexpected(), []);
  });

  it("sends a chat message typed before the world view is ready, without a page load", async () => {
    const page = await newPage();
    // The world view's default textures (data: images) wait: the game is shown, the view is not ready.
    await page.addInitScript(() => {
      const w = window as unknown as { __releaseImages: () => void };
      const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src")!;
      const held: (() => void)[] = [];
      let holding = true;
      Object.defineProperty(HTMLImageElement.prototype, "src", {
        configurable: true,
        get(this: HTMLImageElement) {
          return src.get!.call(this);
        },
        set(this: HTMLImageElement, v: string) {
          if (holding && String(v).startsWith("data:")) held.push(() => src.set!.call(this, v));
          else src.set!.call(this, v);
        },
      });
      w.__releaseImages = () => {
        holding = false;
        for (const f of held.splice(0)) f();
      };
    });
    await playAnonymously(page, t.baseUrl);
    const name = fresh("Chatty");
    await createCharacter(page, name);
    await page.getByRole("button", { name: `Play ${name}`, exact: true }).click();
    const log = page.getByRole("log", { name: "Chat" });
    await log.getByText(`Welcome, ${name}.`).waitFor();
    const input = page.getByRole("textbox", { name: "Chat message" });
    await input.waitFor();
    assert.equal(await page.getByLabel("Game world").count(), 0, "the world view is not ready yet");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await input.fill("early words");
    await input.press("Enter");
    await log.getByText(`${name}: early words`).waitFor();
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 1, "the page was not loaded again");
    assert.equal(new URL(page.url()).search, "");
    // The view comes once its textures do, and the chat still works.
    await page.evaluate(() => (window as unknown as { __releaseImages: () => void }).__releaseImages());
    await page.getByLabel("Game world").waitFor({ state: "visible" });
    await input.fill("later words");
    await input.press("Enter");
    await log.getByText(`${name}: later words`).waitFor();
    assert.equal(await log.getByText(`${name}: early words`).count(), 1, "sent once");
    assert.deepEqual(unexpected(), []);
  });

  // ---- agent dashboard ---------------------------------------------------------------------------

  /** An owner with one character (made over REST), its page on the dashboard once `go()` is called. */
  async function owner(character: string, opts: { clock?: boolean } = {}) {
    const { token } = (await (await fetch(`${t.baseUrl}/api/auth/anonymous`, { method: "POST" })).json()) as { token: string };
    const rest = async (method: string, p: string, body?: unknown): Promise<Json> =>
      (await (
        await fetch(t.baseUrl + p, {
          method,
          headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).json()) as Json;
    const { templates } = (await rest("GET", "/api/template")) as { templates: { id: string }[] };
    await rest("POST", "/api/character", { name: character, templateId: templates[0]!.id });
    const page = await newPage();
    if (opts.clock === true) await page.context().clock.install();
    await page.goto(t.baseUrl + "/");
    await page.evaluate((tk) => localStorage.setItem("rsworld.token", tk), token);
    return {
      page,
      rest,
      agents: async () => (await rest("GET", "/api/agent")).agents as Json[],
      go: () => page.goto(t.baseUrl + "/agents"),
    };
  }

  const setHidden = (page: Page, hidden: boolean) =>
    page.evaluate((h) => {
      Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);

  it("registers one agent for a double click on Register agent", async () => {
    const name = fresh("Reg");
    const o = await owner(name);
    const posts = record(o.page, "POST", /^\/api\/agent$/);
    const answer = latch();
    await o.page.route("**/api/agent", async (route) => {
      if (route.request().method() === "POST") await answer.wait;
      await route.continue();
    });
    await o.go();
    await o.page.locator("#dash-runtime").filter({ hasText: "is not reachable" }).waitFor();
    await o.page.getByRole("button", { name: "Register agent" }).dblclick();
    await eventually(() => (posts.length > 0 ? true : undefined), "the registration sent");
    const busy = o.page.getByRole("button", { name: "Registering…" });
    assert.equal(await busy.isDisabled(), true, "Registering… while it is under way");
    await settle(o.page);
    assert.equal(posts.length, 1, "one registration sent");
    answer.open();
    await o.page.getByRole("region", { name, exact: true }).waitFor();
    await o.page.getByRole("button", { name: "Register agent" }).waitFor();
    assert.equal((await o.agents()).length, 1, "one agent on the server");
    assert.deepEqual(unexpected(), []);
  });

  it("offers the goal targets when the quick-actions poll answers before the goal poll, by name, and sends the one chosen", async () => {
    const name = fresh("Goal");
    const o = await owner(name);
    await o.rest("POST", "/api/agent", { characterId: ((await o.rest("GET", "/api/character")).characters as Json[])[0]!.id });
    // The goal poll's answers wait: the quick-actions poll draws the goals.
    const goalAnswer = latch();
    await o.page.route("**/api/agents/*/goal", async (route) => {
      if (route.request().method() === "GET") await goalAnswer.wait;
      await route.continue();
    });
    await o.go();
    const card = o.page.getByRole("region", { name, exact: true });
    const goal = card.getByRole("combobox", { name: "Goal" });
    await goal.locator("option").first().waitFor({ state: "attached" });
    await goal.selectOption({ label: "Explore the world" });
    const target = card.getByRole("combobox", { name: "Target" });
    assert.equal(await target.isEnabled(), true, "Target offers the goal's targets");
    // By name once the content is loaded (an area's id is not its name).
    await eventually(async () => {
      const options = await target.locator("option").evaluateAll((os) => (os as HTMLOptionElement[]).map((o) => ({ text: o.text, value: o.value })));
      return options.length > 1 && options.slice(1).every((o) => o.text !== o.value) ? options : undefined;
    }, "the targets by name");
    const chosen = (await target.locator("option").nth(1).getAttribute("value"))!;
    await target.selectOption(chosen);
    goalAnswer.open();
    const sets = record(o.page, "POST", /\/goal$/);
    await card.getByRole("button", { name: "Set goal" }).click();
    await card.getByText(/Goal set: Explore the world/).waitFor();
    assert.deepEqual(JSON.parse(sets[0]!.postData()!), { type: "explore", target: chosen });
    assert.deepEqual(unexpected(), []);
  });

  it("hands an agent registered while the runtime's health check is under way to the runtime once it answers", async () => {
    const name = fresh("Hand");
    const o = await owner(name);
    runtime.setHealth("hold");
    await o.go();
    await o.page.locator("#dash-runtime").filter({ hasText: "Checking the agent runtime" }).waitFor();
    await o.page.getByRole("button", { name: "Register agent" }).click();
    const card = o.page.getByRole("region", { name, exact: true });
    await card.waitFor();
    runtime.releaseHealth();
    await card.getByText(`${name} was handed to the agent runtime.`).waitFor();
    const agentId = (await o.agents())[0]!.agentId as string;
    assert.deepEqual(
      runtime.handed.map((h) => h.agentId),
      [agentId],
    );
    assert.equal(await card.getByRole("textbox", { name: "Agent token" }).count(), 0, "handed over, not shown");
    assert.deepEqual(unexpected(), []);
  });

  it("counts a runtime whose health check never answers as not reachable after 5 s", async () => {
    const o = await owner(fresh("Quiet"));
    runtime.setHealth("silent");
    await o.go();
    const status = o.page.locator("#dash-runtime");
    await status.filter({ hasText: "Checking the agent runtime" }).waitFor();
    await status.filter({ hasText: "is not reachable" }).waitFor({ timeout: 15_000 });
  });

  it("keeps one polling loop when the page is hidden and shown while a poll is under way", async () => {
    const name = fresh("Loop");
    const o = await owner(name, { clock: true });
    await o.rest("POST", "/api/agent", { characterId: ((await o.rest("GET", "/api/character")).characters as Json[])[0]!.id });
    const goalGets = record(o.page, "GET", /\/api\/agents\/[^/]+\/goal$/);
    const answer = latch();
    await o.page.route("**/api/agents/*/goal", async (route) => {
      await answer.wait;
      await route.continue();
    });
    await o.go();
    const card = o.page.getByRole("region", { name, exact: true });
    await card.waitFor();
    await eventually(() => (goalGets.length > 0 ? true : undefined), "the first goal poll under way");
    await setHidden(o.page, true);
    await setHidden(o.page, false);
    answer.open();
    await card.getByText("No goal at the moment.").waitFor();
    await settle(o.page, 500);
    // Three intervals of the goal poll (10 s): one loop polls 3 times (4 with the edges).
    const before = goalGets.length;
    for (let i = 0; i < 3; i++) {
      await o.page.clock.fastForward(10_000);
      await settle(o.page, 300);
    }
    const polls = goalGets.length - before;
    assert.ok(polls >= 2 && polls <= 4, `one polling loop: ${polls} goal polls in 30 s`);
    assert.deepEqual(unexpected(), []);
  });

  it("runs a card's actions one at a time, and a goal poll asked before Stop does not undo it", async () => {
    const name = fresh("Act");
    const o = await owner(name, { clock: true });
    await o.rest("POST", "/api/agent", { characterId: ((await o.rest("GET", "/api/character")).characters as Json[])[0]!.id });
    await o.go();
    const card = o.page.getByRole("region", { name, exact: true });
    await card.getByText("No goal at the moment.").waitFor();

    // A goal poll asked now answers (as the server says now: not stopped) only after Stop.
    const late = latch();
    let held: Route | undefined;
    let asked = false;
    await o.page.route("**/api/agents/*/goal", async (route) => {
      if (asked || route.request().method() !== "GET") return route.continue();
      asked = true;
      const response = await route.fetch();
      held = route;
      await late.wait;
      await route.fulfill({ response });
    });
    await o.page.clock.fastForward(10_000);
    await eventually(() => held, "a goal poll under way");

    // Stop, double clicked while its answer waits: one request.
    const stops = record(o.page, "POST", /\/goal\/stop$/);
    const stopAnswer = latch();
    await o.page.route("**/api/agents/*/goal/stop", async (route) => {
      await stopAnswer.wait;
      await route.continue();
    });
    await card.getByRole("button", { name: "Stop", exact: true }).dblclick();
    await eventually(() => (stops.length > 0 ? true : undefined), "Stop sent");
    assert.equal(await card.getByRole("button", { name: "New token" }).isDisabled(), true, "the card's actions are off meanwhile");
    await settle(o.page);
    assert.equal(stops.length, 1, "one Stop sent");
    stopAnswer.open();
    await card.getByText("Stopped: no goal, goals are paused until you resume.").waitFor();
    assert.equal(await card.getByRole("button", { name: "New token" }).isEnabled(), true, "on again");

    // The poll from before answers: the card stays stopped.
    const answered = o.page.waitForResponse((r) => /\/goal$/.test(r.url()) && r.request().method() === "GET");
    late.open();
    await answered;
    await settle(o.page);
    assert.equal(await card.getByText("Stopped: no goal, goals are paused until you resume.").count(), 1, "still stopped");
    assert.equal(await card.getByRole("button", { name: "Resume", exact: true }).isEnabled(), true);
    assert.deepEqual(unexpected(), []);
  });

  it("says Loading… while the agents are listed and its failure with Retry, and keeps a card registered meanwhile", async () => {
    const name = fresh("List");
    const o = await owner(name);
    // The list is read from the server at once, and answers only after a registration.
    const listed = latch();
    let first = true;
    await o.page.route("**/api/agent", async (route) => {
      if (route.request().method() !== "GET" || !first) return route.continue();
      first = false;
      const response = await route.fetch();
      await listed.wait;
      await route.fulfill({ response });
    });
    await o.go();
    const section = o.page.getByRole("region", { name: "Your agents" });
    await section.getByText("Loading your agents…").waitFor();
    assert.equal(await section.getByText("No agents yet").isVisible(), false, "not said while listing");
    await o.page.getByRole("button", { name: "Register agent" }).click();
    const card = o.page.getByRole("region", { name, exact: true });
    await card.waitFor();
    listed.open();
    await section.getByText("Loading your agents…").waitFor({ state: "hidden" });
    await settle(o.page);
    assert.equal(await card.count(), 1, "the card registered meanwhile stays");
    assert.equal(await section.getByText("No agents yet").isVisible(), false);

    // Listed again and refused (a server restarting): said, with Retry; not "No agents yet".
    let failed = false;
    await o.page.unroute("**/api/agent");
    await o.page.route("**/api/agent", async (route) => {
      if (route.request().method() === "GET" && !failed) {
        failed = true;
        await route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ success: false, error: { code: "UNAVAILABLE", message: "restarting" } }),
        });
      } else await route.continue();
    });
    await o.page.reload();
    await section.getByRole("alert").getByText("Could not list your agents: restarting").waitFor();
    assert.equal(await section.getByText("No agents yet").isVisible(), false);
    await section.getByRole("button", { name: "Retry" }).click();
    await card.waitFor();
    assert.equal(await section.getByRole("button", { name: "Retry" }).isVisible(), false);
    assert.deepEqual(unexpected(), []);
  });
});
