/**
 * `--ladder`: one fresh agent on the scripted brain, in a world of its own, and the game tick at
 * which it first reaches each milestone. The server runs in this process (src/server.ts, as the
 * tests start it) so that the milestones are read from the server's own state after every game
 * step, not from the runtime's word; the agent runtime is its own process, given the agent over its
 * HTTP API as an owner would.
 *
 * What is read after each step, for the agent's player (`World.players`):
 * - items held (inventory, equipment, bank): a log (a woodcutting yield), a fish (a fishing
 *   yield), a cooked fish (the cooked item of a cooking recipe whose raw item is a fishing yield);
 * - a bank deposit: the bank's total quantity grew;
 * - an NPC kill: the player's kill counter (`pendingKills`, the map the save hands to the
 *   database, watched through an accessor so that a save emptying it in the same tick loses nothing);
 * - a purchased tool: in one step the tools it holds (`tools.json` items) grew and its coins fell;
 * - skill levels (`skills.*.level`), the combat level (`combatLevel`) and the total of all levels.
 * - quests: each quest of the content completed, and the game time it took (ladderQuests.ts).
 * Deaths are counted from the `player:death` messages the world sends it.
 */
import type { Focus } from "../../agent-runtime/brain/focus.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { SKILLS } from "../../src/game/skills.ts";
import { startServer, type GameServer } from "../../src/server.ts";
import { benchServerEnv, ROOT, round, sleep } from "../world-load/common.ts";
import { call, codeVersion, registerAgents, startRuntime, type RegisteredAgent, type RuntimeProcess } from "./common.ts";
import { QuestWatch, type QuestLadder } from "./ladderQuests.ts";

export const MILESTONES = [
  ["log", "first log"],
  ["fish", "first fish"],
  ["cookedFish", "first cooked fish"],
  ["bankDeposit", "first bank deposit"],
  ["npcKill", "first NPC kill"],
  ["toolPurchase", "a purchased tool"],
  ["woodcutting10", "woodcutting 10"],
  ["fishing10", "fishing 10"],
  ["combat10", "combat level 10"],
  ["melee10", "melee combat 10 (Attack, Strength and Defence each 10)"],
  ["coinsSold", "first coins from a sale"],
  ["runesBought", "first runes bought"],
  ["magic10", "magic 10"],
  ["barSmelted", "first bar smelted"],
  ["itemSmithed", "first item smithed"],
  ["fletched", "first fletching product"],
  ["runeCrafted", "first rune crafted"],
  ["smithing10", "smithing 10"],
  ["crafting10", "crafting 10"],
  ["total75", "total level 75"],
] as const;
export type Milestone = (typeof MILESTONES)[number][0];

/** Milestones of fighting: their figures also say how much of the run was spent in combat goals. */
const COMBAT_MILESTONES = new Set<Milestone>(["npcKill", "combat10", "melee10", "magic10"]);

/** Game ticks per minute at the real 600 ms tick. */
const TICKS_PER_MINUTE = 100;

export interface LadderOptions {
  seed: string;
  tickMs: number;
  maxTicks: number;
  template: string;
  /** The owner's standing instruction to the agent (agent-runtime/brain/focus.ts), said once it plays. */
  focus?: Focus | undefined;
  /** A line of the trace every this many ticks. */
  traceEvery: number;
  keep: boolean;
  /** SIGTERM the runtime once at this tick (the smoke test's check that a restart resumes the agent). */
  killRuntimeAt?: number | undefined;
  log(message: string): void;
}

export interface Reached {
  /** Game ticks the agent's player has spent in the world (see LadderResult.ticksRun). */
  ticks: number;
  /** The same at the real 600 ms tick. */
  minutesAt600ms: number;
  /** Wall-clock seconds it took here (at `tickMs`). */
  realSeconds: number;
  /** The combat milestones: the ticks of the run spent in combat goals until then (the rest went to other skills). */
  combatGoalTicks?: number;
}

export interface LadderResult {
  mode: "ladder";
  seed: string;
  tickMs: number;
  maxTicks: number;
  template: string;
  code: string;
  ok: boolean;
  error?: string;
  /** Every milestone; null when not reached within `ticksRun`. */
  reached: Record<Milestone, Reached | null>;
  /** Each quest of the content completed (and how long it took from its start), and all of them. */
  quests: QuestLadder;
  /**
   * Game ticks the agent's player spent in the world: the ticks while it was out (a runtime
   * restart, which takes seconds of wall time, hundreds of ticks at a fast `tickMs`) are not
   * counted, so that the milestones and the cap are the agent's play, not the machine's speed.
   */
  ticksRun: number;
  /**
   * Magic 10 counted from the first runes the agent held to cast with (the first bought, or the
   * first crafted, whichever came first): issue #46's "Magic 10 within 1 hour once runes are
   * affordable". Null when either was not reached.
   */
  magic10FromRunes: { runesAt: number; magic10At: number; ticks: number; minutesAt600ms: number } | null;
  realSeconds: number;
  /**
   * The runtime's own steps over the run (it follows the server's tick from `welcome`): how well it
   * kept up at this tick. Read every 2 s, so a runtime killed from outside loses up to 2 s of its count.
   */
  runtimeSteps: number;
  /** Times the runtime process exited during the run and was started again (the server tick of each, how it exited). */
  runtimeRestarts: { tick: number; exit: string }[];
  /** Times the agent's player entered the world (1, plus one per runtime restart: a stopped runtime logs its agents out). */
  sessions: number;
  /** Events the runtime sent for the agent, per second of the run (the server drops a connection's messages beyond 60 a second). */
  messagesPerSecond: number;
  deaths: number;
  kills: number;
  final: { totalLevel: number; combatLevel: number; coins: number; health: number; maxHealth: number; levels: Record<string, number> } | undefined;
  /** Goals as the server stored them (`AgentService.setGoal`): how many of each type, and the share of the run's ticks from each being set to the next. */
  goals: Record<string, { count: number; tickShare: number }>;
  trace: {
    tick: number;
    totalLevel: number;
    combatLevel: number;
    coins: number;
    health: number;
    maxHealth: number;
    levels: Record<string, number>;
    goal: string | null;
  }[];
}

const TRAINED = [
  "attack",
  "strength",
  "defense",
  "constitution",
  "woodcutting",
  "fishing",
  "mining",
  "firemaking",
  "cooking",
  "smithing",
  "crafting",
  "fletching",
  "runecrafting",
  "magic",
];

/** Item sets from the content: what counts as a log, a fish, a cooked fish, a tool (of gathering or making). */
function itemSets(server: GameServer): { logs: Set<string>; fish: Set<string>; cookedFish: Set<string>; tools: Set<string> } {
  const c = server.content;
  const yields = (skill: string) => new Set([...c.resources.values()].filter((r) => r.gathering === skill).flatMap((r) => r.harvestYield.map((y) => y.itemId)));
  const logs = yields("woodcutting");
  const fish = yields("fishing");
  const cookedFish = new Set(c.recipes.cooking.filter((r) => fish.has(r.raw)).map((r) => r.cooked));
  // Tools of gathering (tools.json) and of making (a recipe's kept tools: the knife, hammer, needle).
  const tools = new Set([...c.tools.map((t) => t.itemId), ...[...c.production.values()].flatMap((r) => r.tools)]);
  return { logs, fish, cookedFish, tools };
}

/** Calls `onKill` for every NPC kill the world credits to this player (through the map it is counted in, whichever map that is after a save). */
function watchKills(player: Player, onKill: () => void): void {
  const wrap = (m: Map<string, number>): Map<string, number> => {
    const set = m.set.bind(m);
    m.set = (k: string, v: number) => {
      if (v > (m.get(k) ?? 0)) onKill();
      return set(k, v);
    };
    return m;
  };
  let current = wrap(player.pendingKills);
  Object.defineProperty(player, "pendingKills", {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (m: Map<string, number>) => (current = wrap(m)),
  });
}

export async function runLadder(opts: LadderOptions): Promise<LadderResult> {
  const reached = Object.fromEntries(MILESTONES.map(([k]) => [k, null])) as Record<Milestone, Reached | null>;
  const result: LadderResult = {
    mode: "ladder",
    seed: opts.seed,
    tickMs: opts.tickMs,
    maxTicks: opts.maxTicks,
    template: opts.template,
    code: await codeVersion(),
    ok: false,
    reached,
    quests: { quests: {}, allQuests: null, questPoints: 0 },
    ticksRun: 0,
    magic10FromRunes: null,
    realSeconds: 0,
    runtimeSteps: 0,
    runtimeRestarts: [],
    sessions: 0,
    messagesPerSecond: 0,
    deaths: 0,
    kills: 0,
    final: undefined,
    goals: {},
    trace: [],
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agents-ladder-"));
  let server: GameServer | undefined;
  let runtime: RuntimeProcess | undefined;
  try {
    const env = benchServerEnv(dir, 0, { TICK_MS: String(opts.tickMs), DATABASE_URL: `sqlite:${path.join(dir, "bench.sqlite")}` });
    server = await startServer(loadConfig(env, ROOT), pino({ level: "silent" }));
    const apiUrl = `http://127.0.0.1:${server.port}`;
    const wsUrl = `ws://127.0.0.1:${server.port}/ws`;
    const [agent] = await registerAgents(apiUrl, 1, { prefix: "Ladder", templateId: opts.template });
    const sets = itemSets(server);
    const questWatch = new QuestWatch(server.content);
    result.quests = questWatch.ladder;
    const world = server.world.world;
    const service = server.world;

    // The goals the server stores for it, with the tick each was set.
    const goals: { tick: number; type: string; target?: string | undefined; description?: string | undefined }[] = [];
    const agents = server.agents;
    const setGoal = agents.setGoal.bind(agents);
    agents.setGoal = async (mapping, input) => {
      await setGoal(mapping, input);
      if (mapping.agentId === agent!.agentId) {
        goals.push({ tick: Math.max(0, played), type: input.type, target: input.target, description: input.description });
        if (process.env.LADDER_GOALS === "1" || process.env.LADDER_GOALS === "all") {
          const p = world.players.get(agent!.characterId);
          opts.log(
            `seed ${opts.seed}: goal ${input.type} ${input.target ?? ""} (${input.description ?? ""}) health ${p?.data.health}/${p?.maxHealth} free ${p?.data.inventory.filter((x) => x === null).length}`,
          );
        }
      }
    };
    const drain = world.drainOutbox.bind(world);
    world.drainOutbox = () => {
      const out = drain();
      for (const m of out) {
        if (m.to !== agent!.characterId) continue;
        if (m.type === "player:death") result.deaths++;
        // A make that gave something (a failed smelt gives 0), by its recipe's kind.
        if (m.type === "skill:makeProgress") {
          const made = m.data as { recipeId: string; quantity: number };
          const kind = server!.content.production.get(made.recipeId)?.kind;
          if (made.quantity > 0 && kind !== undefined) madeKinds.add(kind);
        }
      }
      return out;
    };

    /** Ticks spent in goals of this type until `now` (ticks played). */
    const goalTicks = (type: string, now: number) =>
      goals.reduce((n, g, i) => (g.type === type ? n + Math.min(goals[i + 1]?.tick ?? now, now) - g.tick : n), 0);
    /** The production kinds (smelting, smithing, fletching, runecrafting, ...) the agent has made something of. */
    const madeKinds = new Set<string>();
    let watched: Player | undefined;
    let start: number | undefined;
    /** Ticks the agent's player has been in the world since it first entered (-1 before). */
    let played = -1;
    let startedAt = 0;
    /** When a step last found the player in the world (wall clock): one out for a minute ends the run. */
    let seenAt = 0;
    let last = { bank: 0, tools: 0, coins: 0, runes: 0, items: 0 };
    let nextTrace = 0;
    let tracedGoals = 0;
    let over = false;
    let done: () => void = () => {};
    const finished = new Promise<void>(
      (resolve) =>
        (done = () => {
          over = true;
          resolve();
        }),
    );
    const levelsOf = (p: Player) => Object.fromEntries(TRAINED.map((s) => [s, p.data.skills[s as (typeof SKILLS)[number]].level]));
    const totalOf = (p: Player) => SKILLS.reduce((n, s) => n + p.data.skills[s].level, 0);
    const observe = () => {
      const p = world.players.get(agent!.characterId);
      if (p === undefined || over) return;
      if (p !== watched) {
        watched = p;
        result.sessions++;
        watchKills(p, () => result.kills++);
      }
      const held = [...p.data.inventory, ...Object.values(p.data.equipment), ...p.data.bank];
      const bank = p.data.bank.reduce((n, s) => n + s.quantity, 0);
      const tools = held.reduce((n, s) => n + (s !== null && sets.tools.has(s.itemId) ? s.quantity : 0), 0);
      const items = p.data.inventory.reduce((n, s) => n + (s === null ? 0 : s.quantity), 0);
      const runes = held.reduce((n, s) => n + (s !== null && server!.content.magic.runes.has(s.itemId) ? s.quantity : 0), 0);
      if (start === undefined) {
        start = world.tick;
        startedAt = Date.now();
        last = { bank, tools, coins: p.data.coins, runes, items };
        opts.log(`seed ${opts.seed}: the agent is in the world at tick ${start}`);
      }
      // This step found the player in the world: one more tick of its play (a step that found it
      // out of the world, during a runtime restart, returned above and counts for nothing).
      const t = ++played;
      seenAt = Date.now();
      const hit = (m: Milestone, cond: boolean) => {
        if (!cond || reached[m] !== null) return;
        reached[m] = { ticks: t, minutesAt600ms: round(t / TICKS_PER_MINUTE, 1), realSeconds: round((Date.now() - startedAt) / 1000, 1) };
        if (COMBAT_MILESTONES.has(m)) reached[m].combatGoalTicks = goalTicks("combat", t);
        opts.log(`seed ${opts.seed}: ${m} at tick ${t} (${round(t / TICKS_PER_MINUTE, 1)} min at 600 ms)`);
      };
      const holds = (set: Set<string>) => held.some((s) => s !== null && set.has(s.itemId));
      hit("log", holds(sets.logs));
      hit("fish", holds(sets.fish));
      hit("cookedFish", holds(sets.cookedFish));
      hit("bankDeposit", bank > last.bank);
      hit("npcKill", result.kills > 0);
      hit("toolPurchase", tools > last.tools && p.data.coins < last.coins);
      // A sale: coins up and items down in one step (a pickup of coins leaves the inventory as it was).
      hit("coinsSold", p.data.coins > last.coins && items < last.items);
      hit("runesBought", runes > last.runes && p.data.coins < last.coins);
      hit("woodcutting10", p.data.skills.woodcutting.level >= 10);
      hit("fishing10", p.data.skills.fishing.level >= 10);
      hit("combat10", p.data.combatLevel >= 10);
      hit("melee10", p.data.skills.attack.level >= 10 && p.data.skills.strength.level >= 10 && p.data.skills.defense.level >= 10);
      hit("magic10", p.data.skills.magic.level >= 10);
      hit("total75", totalOf(p) >= 75);
      hit("barSmelted", madeKinds.has("smelting"));
      hit("itemSmithed", madeKinds.has("smithing"));
      hit("fletched", madeKinds.has("fletching"));
      hit("runeCrafted", madeKinds.has("runecrafting"));
      hit("smithing10", p.data.skills.smithing.level >= 10);
      hit("crafting10", p.data.skills.crafting.level >= 10);
      last = { bank, tools, coins: p.data.coins, runes, items };
      for (const id of questWatch.observe(p, t, round((Date.now() - startedAt) / 1000, 1))) {
        opts.log(`seed ${opts.seed}: quest ${id} completed at tick ${t} (took ${result.quests.quests[id]?.tookTicks ?? "?"} ticks)`);
      }
      // Every traceEvery ticks, or at the first step after it (the player may have been out of the world then).
      if (t >= nextTrace) {
        nextTrace = (Math.floor(t / opts.traceEvery) + 1) * opts.traceEvery;
        const goal = goals.at(-1)?.type ?? null;
        result.trace.push({
          tick: t,
          totalLevel: totalOf(p),
          combatLevel: p.data.combatLevel,
          coins: p.data.coins,
          health: p.data.health,
          maxHealth: p.maxHealth,
          levels: levelsOf(p),
          goal,
        });
        opts.log(
          `seed ${opts.seed}: tick ${t}: total ${totalOf(p)}, combat ${p.data.combatLevel}, health ${p.data.health}/${p.maxHealth}, ${JSON.stringify(levelsOf(p))}, goal ${goal}, kills ${result.kills}, deaths ${result.deaths}`,
        );
        // What it was doing since the last line: the quests under way (stage, count) and the goals set, with their reasons.
        const doing = Object.entries(p.data.quests ?? {}).flatMap(([id, s]) =>
          s.status === "in_progress" ? [`${id} stage ${s.stage} (${s.progress} counted)`] : [],
        );
        const set = goals
          .slice(tracedGoals)
          .map((g) => `${g.type}${g.target !== undefined ? `:${g.target}` : ""}${g.description ? ` (${g.description})` : ""}`);
        tracedGoals = goals.length;
        const carried = p.data.inventory.flatMap((s) => (s === null ? [] : [`${s.itemId}${s.quantity > 1 ? `×${s.quantity}` : ""}`]));
        opts.log(
          `seed ${opts.seed}:   quests under way: ${doing.join(", ") || "none"}; coins ${p.data.coins}; carries ${carried.join(" ")}; goals set: ${set.join("; ") || "none"}`,
        );
      }
      result.ticksRun = t;
      result.final = {
        totalLevel: totalOf(p),
        combatLevel: p.data.combatLevel,
        coins: p.data.coins,
        health: p.data.health,
        maxHealth: p.maxHealth,
        levels: levelsOf(p),
      };
      if (t >= opts.maxTicks || (MILESTONES.every(([k]) => reached[k] !== null) && questWatch.done)) done();
    };
    const step = service.step.bind(service);
    service.step = () => {
      step();
      observe();
    };

    const launch = () =>
      startRuntime({ apiUrl, wsUrl, worldDir: path.join(dir, "world"), logFile: path.join(dir, "runtime.log"), args: ["--seed", opts.seed] });
    runtime = await launch();
    await runtime.play(agent!);
    // The owner's focus, as an owner gives it: a message to the agent (POST /api/agents/:id/message).
    if (opts.focus !== undefined) await ownerMessage(apiUrl, agent!, `focus ${opts.focus}`);
    const handedAt = Date.now();
    // The runtime's counters, summed over its processes (a restarted one counts from zero).
    let counted = { steps: 0, messages: 0 };
    let seen = { steps: 0, messages: 0 };
    const before = await runtime.stats();
    let base = { steps: before.steps, messages: before.messagesSent };
    const logged = new Set<string>();
    // The run ends at the tick cap or with every milestone. A runtime that exits (on this shared
    // machine, something else's SIGTERM) is started again on the same store, which resumes the
    // agent, as an operator's supervisor would; each restart is recorded.
    for (;;) {
      if (await Promise.race([finished.then(() => true), sleep(2_000).then(() => false)])) break;
      if (runtime.exited) {
        result.runtimeRestarts.push({ tick: result.ticksRun, exit: runtime.exitStatus ?? "?" });
        opts.log(`seed ${opts.seed}: the agent runtime exited (${runtime.exitStatus}) at tick ${result.ticksRun}; starting it again`);
        if (result.runtimeRestarts.length > 10)
          throw new Error(`the agent runtime exited ${result.runtimeRestarts.length} times; the last time:\n${runtime.tail()}`);
        counted = { steps: counted.steps + seen.steps, messages: counted.messages + seen.messages };
        seen = { steps: 0, messages: 0 };
        base = { steps: 0, messages: 0 };
        runtime = await launch();
        continue;
      }
      if (opts.killRuntimeAt !== undefined && result.ticksRun >= opts.killRuntimeAt && result.runtimeRestarts.length === 0 && !runtime.exited) {
        opts.log(`seed ${opts.seed}: SIGTERM to the agent runtime at tick ${result.ticksRun} (--kill-runtime-at)`);
        const st = await runtime.stats();
        seen = { steps: st.steps - base.steps, messages: st.messagesSent - base.messages };
        await runtime.stop();
        continue;
      }
      const st = await runtime.stats().catch(() => undefined);
      if (st !== undefined) seen = { steps: st.steps - base.steps, messages: st.messagesSent - base.messages };
      // The goals it gave up since the last look, with why (its activity log keeps the last 50 lines: best effort).
      const record = await call<{ agent?: { activity?: { at: string; kind: string; text: string }[] } }>(
        runtime.url,
        "GET",
        `/agents/${agent!.agentId}`,
        agent!.ownerToken,
      ).catch(() => undefined);
      for (const a of [...(record?.agent?.activity ?? [])].reverse()) {
        const key = `${a.at}|${a.text}`;
        // With LADDER_GOALS=1 (or all), the refusals of its makes too (why a making goal stalls).
        // With LADDER_GOALS=all, every line of it (each attack, pickup, meal: where a goal's ticks went).
        const goals = process.env.LADDER_GOALS === "1" || process.env.LADDER_GOALS === "all";
        const wanted =
          process.env.LADDER_GOALS === "all" ||
          (a.kind === "decision" && (a.text.startsWith("goal failed") || (goals && a.text.startsWith("choose")))) ||
          (a.kind === "action" && goals && a.text.startsWith("could not"));
        if (!wanted || logged.has(key)) continue;
        logged.add(key);
        // The tick the line was written at, from its time (within a tick or two of the runtime's own).
        const ago = Math.max(0, Math.round((Date.now() - Date.parse(a.at)) / opts.tickMs));
        opts.log(`seed ${opts.seed}:   tick ${result.ticksRun - ago}: ${a.text}`);
      }
      if (start === undefined && Date.now() - handedAt > 60_000) throw new Error("the agent did not enter the world within 60 s");
      // Its ticks out of the world do not count, so a run whose agent never comes back would never end.
      if (start !== undefined && Date.now() - seenAt > 60_000) throw new Error(`the agent has been out of the world for 60 s (since tick ${result.ticksRun})`);
    }
    service.step = step;
    const after = await runtime.stats();
    seen = { steps: after.steps - base.steps, messages: after.messagesSent - base.messages };
    result.runtimeSteps = counted.steps + seen.steps;
    result.realSeconds = round((Date.now() - startedAt) / 1000, 1);
    result.messagesPerSecond = round((counted.messages + seen.messages) / Math.max(1, result.realSeconds), 1);
    // Each goal's share of the run: from being set to the next one (or the end), in ticks played.
    const end = result.ticksRun;
    goals.forEach((g, i) => {
      const until = goals[i + 1]?.tick ?? end;
      const e = (result.goals[g.type] ??= { count: 0, tickShare: 0 });
      e.count++;
      e.tickShare += (until - g.tick) / Math.max(1, result.ticksRun);
    });
    for (const e of Object.values(result.goals)) e.tickShare = round(e.tickShare, 3);
    result.magic10FromRunes = magicFromRunes(result.reached);
    result.ok = true;
  } catch (err) {
    result.error = (err as Error).message;
    opts.log(`seed ${opts.seed}: FAILED: ${result.error}`);
  } finally {
    await runtime?.stop();
    await server?.close();
    if (opts.keep) opts.log(`seed ${opts.seed}: kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** Magic 10's tick counted from the first runes bought or crafted (LadderResult.magic10FromRunes). */
export function magicFromRunes(reached: Record<Milestone, Reached | null>): LadderResult["magic10FromRunes"] {
  const runes = [reached.runesBought, reached.runeCrafted].filter((r) => r !== null).map((r) => r.ticks);
  const magic = reached.magic10;
  if (runes.length === 0 || magic === null) return null;
  const runesAt = Math.min(...runes);
  const ticks = Math.max(0, magic.ticks - runesAt);
  return { runesAt, magic10At: magic.ticks, ticks, minutesAt600ms: round(ticks / TICKS_PER_MINUTE, 1) };
}

/** Says a line to the agent as its owner (`POST /api/agents/:id/message`), again each second until it is delivered (the agent online). */
async function ownerMessage(apiUrl: string, agent: RegisteredAgent, message: string): Promise<void> {
  for (let tries = 0; tries < 60; tries++) {
    const r = await call<{ delivered: boolean }>(apiUrl, "POST", `/api/agents/${agent.agentId}/message`, agent.ownerToken, { message });
    if (r.delivered) return;
    await sleep(1_000);
  }
  throw new Error(`the owner's "${message}" was not delivered to the agent within 60 s`);
}
