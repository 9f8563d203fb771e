/**
 * Talking to a running agent, as owners do: chat addressed to it by name from another of the
 * owner's characters (Ada), the owner's messages, the quick commands of `quick-actions`; and,
 * while goals are paused, the agent obeys a command and then idles again instead of choosing a goal
 * of its own. Anyone else's commands (Bob's) are not obeyed. What it does is read on the server
 * (positions, goals, chat lines the server delivers).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { callJson, type Json } from "../support/http.ts";
import { eventually } from "../support/until.ts";
import { startAgentRuntime, type RuntimeProcess } from "../support/agentRuntime.ts";
import { CHAT_LIMIT, CHAT_WINDOW_MS } from "../../src/game/clientEvents.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient } from "../support/wsClient.ts";

const call = callJson;

const TICK_MS = 60;

describe("agent runtime: chat commands and quick commands", function () {
  this.timeout(90_000);
  let t: TestServer;
  let rt: RuntimeProcess;
  let owner: string;
  let characterId: string;
  let agentId: string;
  let ada: WsTestClient;
  let adaId: string;
  /** A stranger: another account's character near the agent. */
  let bob: WsTestClient;

  const me = () => t.server.world.world.players.get(characterId)!;
  const at = (x: number, z: number) => (me().x === x && me().z === z ? true : undefined);
  const goal = async () => (await call(t.baseUrl, "GET", `/api/agents/${agentId}/goal`, owner)).body;
  const say = (message: string) => call(t.baseUrl, "POST", `/api/agents/${agentId}/message`, owner, { message });
  /** Ada speaks within the server's chat limit (CHAT_LIMIT lines in any CHAT_WINDOW_MS). */
  const spoken: number[] = [];
  /** Waits until Ada may say `lines` lines at once (the server counts a line when its tick handles it: a margin of a few ticks). */
  const adaCanSay = async (lines: number) => {
    const limiting = spoken.at(lines - 1 - CHAT_LIMIT);
    if (spoken.length > CHAT_LIMIT - lines && limiting !== undefined)
      await new Promise((r) => setTimeout(r, Math.max(0, limiting + CHAT_WINDOW_MS + 5 * TICK_MS + 100 - Date.now())));
  };
  const adaSays = async (message: string) => {
    await adaCanSay(1);
    spoken.push(Date.now());
    ada.send("player:chat", { message });
  };
  /** Lines the agent said, as the server delivers them (to the agent itself, who is always in range of its own voice). */
  const said: string[] = [];
  const heard = (pattern: RegExp) => said.find((m) => pattern.test(m));

  before(async () => {
    t = await startTestServer({ TICK_MS: String(TICK_MS), DISABLE_RATE_LIMIT: "true" });
    owner = (await call(t.baseUrl, "POST", "/api/auth/anonymous")).body.token;
    characterId = (await call(t.baseUrl, "POST", "/api/v1/player", owner, { name: "Robin" })).body.player.characterId;
    const reg = await call(t.baseUrl, "POST", "/api/agent", owner, { characterId });
    agentId = reg.body.agent.agentId;
    // Paused before it plays: it stays at the spawn and does only what it is told.
    assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal/stop`, owner)).status, 200);
    // Ada is the owner's other character, played by the owner beside the agent.
    const adaMade = await call(t.baseUrl, "POST", "/api/character", owner, { name: "Ada" });
    assert.equal(adaMade.status, 201, JSON.stringify(adaMade.body));
    ada = await WsTestClient.connect(`${t.wsUrl}?token=${owner}&characterId=${adaMade.body.character.id}`);
    adaId = String((await ada.next("welcome")).playerId);
    bob = await WsTestClient.connect(`${t.wsUrl}?name=Bob`);
    await bob.next("welcome");
    rt = await startAgentRuntime({ apiUrl: t.baseUrl, wsUrl: t.wsUrl, worldDir: t.worldDir });
    assert.equal((await call(rt.url, "POST", "/agents", owner, { agentId, token: reg.body.token })).status, 201);
    await eventually(() => (t.server.world.world.players.has(characterId) ? true : undefined), "the agent in the world");
    const world = t.server.world.world;
    const send = world.send.bind(world);
    world.send = (to: string, type: string, data: Json) => {
      if (to === characterId && type === "chat:message" && data.fromId === characterId) said.push(String(data.message));
      return send(to as never, type as never, data as never);
    };
  });

  // A failing step leaves the agent's own account of it in the output.
  afterEach(async function () {
    if (this.currentTest?.state !== "failed") return;
    const a = (await call(rt.url, "GET", `/agents/${agentId}`, owner)).body.agent as Json;
    // eslint-disable-next-line no-console
    console.error(
      `agent at ${me()?.x},${me()?.z}:`,
      JSON.stringify(
        a?.activity?.slice(0, 50).map((x: Json) => `${x.at.slice(14)} ${x.text}`),
        null,
        1,
      ),
    );
  });

  after(async () => {
    ada?.close();
    bob?.close();
    await rt?.stop();
    await t?.close();
  });

  it("answers a player who addresses it by name in chat, and no one else's lines", async () => {
    await adaSays("Robin, status");
    const line = await eventually(() => heard(/^Goal: paused/), "its status line");
    assert.match(line, /Inventory \d+\/28/);
    // Ada, standing by, heard it too.
    await eventually(() => ada.events.find((e) => e.type === "chat:message" && e.data.fromId === characterId), "Ada hearing it");
    await adaSays("Robinson, status");
    await adaSays("hello everyone");
    await new Promise((r) => setTimeout(r, 20 * TICK_MS));
    assert.equal(said.length, 1, "it spoke only when spoken to");
  });

  it("obeys only its owner's characters: a stranger's stop and follow change nothing (no pause saved), Ada's do", async () => {
    // Following Ada, it stays beside her at the spawn when resumed (a command runs ahead of a goal).
    await adaSays("Robin, follow Ada");
    await eventually(() => heard(/^Following Ada/), "its answer to Ada");
    assert.equal((await call(t.baseUrl, "POST", `/api/agents/${agentId}/goal/resume`, owner)).status, 200);
    await eventually(async () => ((await goal()).goalsPaused === false ? true : undefined), "resumed");
    const before = said.length;
    bob.send("player:chat", { message: "Robin, stop" });
    await eventually(() => bob.events.find((e) => e.type === "chat:message" && e.data.message === "Robin, stop"), "Bob's line said");
    bob.send("player:chat", { message: "Robin, follow Bob" });
    await eventually(() => bob.events.find((e) => e.type === "chat:message" && e.data.message === "Robin, follow Bob"), "Bob's second line said");
    // Commands are taken in the order heard: once Ada's status is answered, Bob's lines were weighed.
    await adaSays("Robin, status");
    const status = await eventually(() => said.slice(before).find((m) => m.startsWith("Goal: ")), "its status line");
    assert.doesNotMatch(status, /^Goal: paused/);
    assert.deepEqual(said.slice(before), [status], "Bob got no answer");
    assert.equal((await goal()).goalsPaused, false, "Bob's stop saved no pause");
    const agent = (await call(rt.url, "GET", `/agents/${agentId}`, owner)).body.agent as Json;
    assert.equal(agent.command, "follow Ada", "Bob's follow was not obeyed");
    assert.equal(agent.activity.filter((x: Json) => /^not obeyed: Bob is not one of its owner's characters$/.test(x.text)).length, 2);
    // The owner's character's stop is obeyed and saved.
    await adaSays("Robin, stop");
    await eventually(() => (said.slice(before).includes("Stopping.") ? true : undefined), "its answer to Ada's stop");
    await eventually(async () => ((await goal()).goalsPaused === true ? true : undefined), "paused on the server");
    await eventually(() => (me().path.length === 0 && me().action === undefined ? true : undefined), "standing still");
  });

  it("follows a player by name, and comes home on the quick command `home`; paused, it then idles", async () => {
    await adaSays("@Robin follow Ada");
    await eventually(() => heard(/^Following Ada/), "its answer");
    ada.send("player:move", { x: 6, z: 6 });
    await eventually(() => (t.server.world.world.players.get(adaId)!.x === 6 ? true : undefined), "Ada to arrive");
    await eventually(() => (Math.max(Math.abs(me().x - 6), Math.abs(me().z - 6)) <= 1 ? true : undefined), "the agent beside Ada");

    const quick = (await call(t.baseUrl, "GET", `/api/agents/${agentId}/quick-actions`, owner)).body;
    assert.ok(quick.quickCommands.some((c: Json) => c.id === "home"));
    await say("home");
    await eventually(() => at(0, 0), "the agent home at the spawn");
    // Paused: after the command it stands still and chooses nothing.
    const tick = t.server.world.world.tick;
    while (t.server.world.world.tick < tick + 20) {
      assert.deepEqual({ x: me().x, z: me().z }, { x: 0, z: 0 });
      await new Promise((r) => setTimeout(r, TICK_MS));
    }
    assert.equal((await goal()).goal, null);
    assert.equal((await goal()).goalsPaused, true);
  });

  it("goes to the bank on the quick command `bank` (the banker's bank opens)", async () => {
    await say("bank");
    const banker = [...t.server.world.world.npcs.values()].find((n) => n.service?.type === "bank")!;
    await eventually(() => (Math.max(Math.abs(me().x - banker.x), Math.abs(me().z - banker.z)) <= 2 ? true : undefined), "the agent at the bank");
    const agent = await eventually(async () => {
      const a = (await call(rt.url, "GET", `/agents/${agentId}`, owner)).body.agent;
      return a.activity.some((x: Json) => /go to bank: at the bank/.test(x.text)) ? a : undefined;
    }, "the errand done");
    assert.equal(agent.command, null);
  });

  it("resumes and stops when a player in chat says so, and sets the goal a command names (a monster by name)", async () => {
    // Said back to back where the agent stands (once resumed it walks off, out of earshot): it obeys
    // both, in the order they were said.
    const before = said.length;
    await adaCanSay(2);
    await adaSays("Robin: resume");
    await adaSays("Robin, stop");
    await eventually(() => (said.slice(before).includes("Stopping.") ? true : undefined), "its answers");
    assert.deepEqual(said.slice(before), ["Resuming.", "Stopping."]);
    await eventually(async () => ((await goal()).goalsPaused === true ? true : undefined), "paused on the server");
    // The server did resume in between: the agent logged the goal state it pushed (newest first).
    const activity = ((await call(rt.url, "GET", `/agents/${agentId}`, owner)).body.agent.activity as Json[]).map((x) => String(x.text));
    const resumed = activity.indexOf("goals resumed");
    assert.ok(resumed > 0 && activity.slice(0, resumed).includes("goals paused: idle"), activity.slice(0, 20).join("\n"));
    await eventually(() => (me().path.length === 0 && me().action === undefined ? true : undefined), "standing still");

    await say("fight dragons");
    await eventually(() => heard(/don't know where to find dragon/), "a refusal in words");
    assert.equal((await goal()).goal, null, "an unknown monster changes nothing");
    await say("fight meadow rats");
    const g = await eventually(async () => ((await goal()).goal ?? undefined) as Json | undefined, "the goal");
    assert.deepEqual({ type: g.type, target: g.target, lockedBy: g.lockedBy }, { type: "combat", target: "meadow_rat", lockedBy: "manual" });
    // Paused, a goal given by hand is still pursued: it attacks meadow rats.
    await eventually(
      () => {
        const action = me().action;
        return action?.kind === "attack" && t.server.world.world.npcs.get(action.targetId)?.def.id === "meadow_rat" ? true : undefined;
      },
      "the agent attacking a meadow rat",
      30_000,
    );
  });

  it("keeps its owner's focus: said, shown on GET /agents/:id, kept in the runtime's store, and cleared", async () => {
    const agent = async () => (await call(rt.url, "GET", `/agents/${agentId}`, owner)).body.agent as Json;
    const stored = () =>
      (JSON.parse(fs.readFileSync(path.join(t.worldDir, "local", "agent-runtime.json"), "utf8")) as { agents: Json[] }).agents.find(
        (a) => a.agentId === agentId,
      );
    assert.equal((await agent()).focus, null, "no focus at first");
    await say("focus melee");
    await eventually(() => heard(/^Focusing on melee\.$/), "its answer");
    assert.equal((await agent()).focus, "melee");
    await eventually(() => (stored()?.focus === "melee" ? true : undefined), "the focus in the runtime's store");
    await say("focus juggling");
    await eventually(() => heard(/I don't know "focus juggling"/), "an unknown focus answered in words");
    assert.equal((await agent()).focus, "melee", "an unknown focus changes nothing");
    await say("focus off");
    await eventually(() => heard(/^No focus/), "its answer to focus off");
    assert.equal((await agent()).focus, null);
    await eventually(() => (stored() !== undefined && stored()!.focus === undefined ? true : undefined), "the focus gone from the store");
  });
});
