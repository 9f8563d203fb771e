/* eslint-disable no-console */
/**
 * Autosave benchmark: one process, no sockets. For each database, N characters are seeded with
 * the server's own code (`createCharacter`) on a fresh database, loaded through its login path
 * (`loadOrCreatePlayer`, `Saver.track`, `World.addPlayer`), given a bank and equipment, and saved
 * once; then, round after round, every one of them is made dirty (a move, an inventory slot, a
 * bank stack, skill xp, coins) and one autosave of all N is timed, from the tick that hands the
 * snapshots over (`World` → `onSave` → `Saver`, wired as src/server.ts wires them) to the saver's
 * last commit. After each round the database is read back and compared with the world, player by
 * player and row by row.
 *
 *   node bench/autosave/run.ts [--players 2000] [--db sqlite,postgresql] [--rounds 3]
 *                              [--ticks 300] [--save-interval 60] [--tick-ms 600]
 *                              [--out <json>] [--profile <dir>] [--keep]
 *
 * Per autosave: wall time; the tick that hands it over (its persistence phase snapshots every
 * player); the main thread's CPU time meanwhile (`process.threadCpuUsage`: what the event loop
 * could not do, since better-sqlite3 and the query building run on it) and its busy time
 * (`performance.eventLoopUtilization`, which also counts time the thread waited for a core or for
 * the disk); the process's CPU time (all threads); and the longest stretch the event loop was blocked
 * (`monitorEventLoopDelay` at 1 ms resolution: max − 1 ms), after a forced garbage collection and
 * a 300 ms pause (the bench's own reads are not the save's). Then one save interval of the steady
 * state (each player saved in its own tick of the interval) on the database, and `World`'s
 * persistence phase alone for `--ticks` ticks (no database): with nobody dirty (finding the due
 * players) and with everybody dirty (their snapshots too).
 *
 * PostgreSQL: a fresh database per run on the server at TEST_PG_URL (default
 * postgresql://postgres@127.0.0.1:5432/test, used as the admin connection), dropped afterwards.
 * `--profile <dir>`: a CPU profile of each measured autosave (`autosave-<db>-<round>.cpuprofile`),
 * and their heaviest functions (self time) in the results. See bench/README.md.
 */
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { parseCli } from "../../src/cli.ts";
import v8 from "node:v8";
import vm from "node:vm";
import { freshPostgres, releaseScratch } from "../postgres.ts";
import { pino } from "pino";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { SKILLS } from "../../src/game/skills.ts";
import type { ItemStack, Player, PlayerData } from "../../src/game/world/Player.ts";
import { buildCollision, copyData, seededRandom, snapshot, World } from "../../src/game/world/World.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import { createCharacter, loadOrCreatePlayer } from "../../src/persistence/players.ts";
import { Saver } from "../../src/sessions/Saver.ts";
import { EQUIPMENT_SLOTS } from "../../src/game/clientEvents.ts";
import { ROOT, bundledContent, endSweep, percentile, pool, round, walkableTiles, writeResults } from "../world-load/common.ts";

const CLI = { command: "npm run bench:autosave -- [options]", summary: `Autosave benchmark: one process, no sockets. See bench/autosave/README.md.` };
const { values: args } = parseCli(CLI, {
  options: {
    players: { type: "string", default: "2000" },
    db: { type: "string", default: "sqlite,postgresql" },
    rounds: { type: "string", default: "3" },
    ticks: { type: "string", default: "300" },
    "save-interval": { type: "string", default: "60" },
    "tick-ms": { type: "string", default: "600" },
    out: { type: "string", default: path.join(import.meta.dirname, "results-latest.json") },
    profile: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const players = Number(args.players);
const dbs = args.db.split(",").map((s) => s.trim());
const rounds = Number(args.rounds);
const ticks = Number(args.ticks);
const saveIntervalS = Number(args["save-interval"]);
const tickMs = Number(args["tick-ms"]);
if (
  !Number.isInteger(players) ||
  players < 1 ||
  dbs.some((d) => d !== "sqlite" && d !== "postgresql") ||
  !Number.isInteger(rounds) ||
  rounds < 1 ||
  !Number.isInteger(ticks) ||
  ticks < 1 ||
  !(saveIntervalS > 0) ||
  !(tickMs >= 10)
) {
  console.error(
    "usage: run.ts [--players 2000] [--db sqlite,postgresql] [--rounds 3] [--ticks 300] [--save-interval 60] [--tick-ms 600] [--out file.json] [--profile dir] [--keep]",
  );
  process.exit(2);
}
type Db = "sqlite" | "postgresql";
/** Ticks per save interval, as src/server.ts computes them. */
const intervalTicks = Math.max(1, Math.round((saveIntervalS * 1000) / tickMs));
/** Stacks in every bench character's bank (a player's bank is where most of its rows are). */
const BANK_STACKS = 40;
/** Characters seeded and loaded at once (on SQLite they queue on its one connection anyway). */
const CONCURRENCY = 8;

const log = (msg: string) => process.stderr.write(`[autosave ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

interface SaveMeasure {
  players: number;
  /** From the tick that hands the snapshots over to the saver's last commit. */
  wallMs: number;
  /** That tick, synchronously (its persistence phase, and whatever the saver does before its first await). */
  tickMs: number;
  /** The main thread's CPU time over the save (`process.threadCpuUsage`): what the event loop could not do meanwhile. */
  mainThreadCpuMs: number;
  /** The event loop's busy time over the save (`eventLoopUtilization().active`): the CPU time above plus any time the thread was runnable but not running (a busy machine). */
  loopBusyMs: number;
  /** The process's CPU time over the save, all threads (user + system). */
  cpuMs: number;
  /** The longest the event loop went without running a 1 ms timer, less that 1 ms. */
  longestStallMs: number;
  /** Stalls over 50 ms seen by the 1 ms timer (samples of the histogram above 51 ms). */
  stallsOver50Ms: number;
  /** The database read back equals the world, every player, every row. */
  verified: boolean;
  mismatches: string[];
}

/**
 * Watches the event loop while a save runs: a 1 ms interval timer notes every gap between its
 * runs longer than 51 ms (a stall over 50 ms), and `monitorEventLoopDelay` (1 ms resolution) the
 * longest one.
 */
function watchLoop(): { stop(): { longestStallMs: number; stallsOver50Ms: number } } {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  let last = performance.now();
  let over = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 51) over++;
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      h.disable();
      // Node's histogram records the whole timer interval: an idle loop reads 1 ms.
      return { longestStallMs: round(Math.max(0, h.max / 1e6 - 1), 1), stallsOver50Ms: over };
    },
  };
}

/** The collector, for a clean start of each measurement (`--expose-gc` set at run time, as `npm run` passes no Node flags). */
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

/**
 * Before a measurement: the bench's own garbage (the previous check's reads) is collected, and the
 * database gets a quiet moment, as between two autosaves of a server.
 */
async function settle(): Promise<void> {
  collectGarbage();
  await new Promise((r) => setTimeout(r, 300));
}

/** Measures one save: `start` runs the tick (synchronously) and returns the saver's promise. */
async function measure(start: () => Promise<void>): Promise<Omit<SaveMeasure, "players" | "verified" | "mismatches">> {
  const watch = watchLoop();
  // Let the watchers' timers start before the tick runs.
  await new Promise((r) => setTimeout(r, 5));
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const thread0 = process.threadCpuUsage();
  const t0 = performance.now();
  const done = start();
  const tickMs = performance.now() - t0;
  await done;
  const wallMs = performance.now() - t0;
  const elu = performance.eventLoopUtilization(elu0);
  const cpu = process.cpuUsage(cpu0);
  const thread = process.threadCpuUsage(thread0);
  // One more turn of the loop, so that a stall at the very end is recorded.
  await new Promise((r) => setTimeout(r, 3));
  return {
    wallMs: round(wallMs, 1),
    tickMs: round(tickMs, 1),
    mainThreadCpuMs: round((thread.user + thread.system) / 1000, 1),
    loopBusyMs: round(elu.active, 1),
    cpuMs: round((cpu.user + cpu.system) / 1000, 1),
    ...watch.stop(),
  };
}

/** Reads every bench character back and compares it with the world's players. */
async function verify(db: Database, world: World, saver: Saver): Promise<string[]> {
  const em = db.em();
  const problems: string[] = [];
  const chars = await em.execute<Record<string, unknown>[]>(`select * from characters`);
  const inv = await em.execute<{ characterId: string; slot: number; itemId: string; quantity: number }[]>(
    `select "characterId", "slot", "itemId", "quantity" from inventory`,
  );
  const equip = await em.execute<{ characterId: string; slotType: string; itemId: string; quantity: number }[]>(
    `select "characterId", "slotType", "itemId", "quantity" from equipment`,
  );
  const bank = await em.execute<{ characterId: string; slot: number; itemId: string; quantity: number }[]>(
    `select "characterId", "slot", "itemId", "quantity" from bank`,
  );
  const group = <T extends { characterId: string }>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) m.set(r.characterId, [...(m.get(r.characterId) ?? []), r]);
    return m;
  };
  const invBy = group(inv);
  const equipBy = group(equip);
  const bankBy = group(bank);
  const charBy = new Map(chars.map((c) => [String(c.id), c]));
  for (const p of world.players.values()) {
    const d = p.data;
    const c = charBy.get(p.id);
    const fail = (what: string) => problems.length < 20 && problems.push(`${d.name}: ${what}`);
    if (c === undefined) {
      fail("no character row");
      continue;
    }
    if (Number(c.positionX) !== d.x || Number(c.positionZ) !== d.z) fail(`position ${String(c.positionX)},${String(c.positionZ)} ≠ ${d.x},${d.z}`);
    if (Number(c.coins) !== d.coins || Number(c.health) !== d.health) fail("coins or health");
    for (const s of SKILLS) if (Number(c[`${s}XpTenths`]) !== d.skills[s].xpTenths || Number(c[`${s}Level`]) !== d.skills[s].level) fail(`skill ${s}`);
    if (Number(c.version) !== saver.versions.get(p.id)) fail(`version ${String(c.version)} ≠ ${saver.versions.get(p.id)}`);
    const invRows = (invBy.get(p.id) ?? []).map((r) => `${r.slot}:${r.itemId}x${r.quantity}`).sort();
    const invWant = d.inventory.flatMap((s, slot) => (s === null ? [] : [`${slot}:${s.itemId}x${s.quantity}`])).sort();
    if (invRows.join() !== invWant.join()) fail(`inventory ${invRows.join()} ≠ ${invWant.join()}`);
    const eqRows = (equipBy.get(p.id) ?? []).map((r) => `${r.slotType}:${r.itemId}x${r.quantity}`).sort();
    const eqWant = Object.entries(d.equipment)
      .map(([slot, s]) => `${slot}:${s.itemId}x${s.quantity}`)
      .sort();
    if (eqRows.join() !== eqWant.join()) fail(`equipment ${eqRows.join()} ≠ ${eqWant.join()}`);
    const bankRows = (bankBy.get(p.id) ?? []).sort((a, b) => a.slot - b.slot).map((r) => `${r.slot}:${r.itemId}x${r.quantity}`);
    const bankWant = d.bank.map((s, slot) => `${slot}:${s.itemId}x${s.quantity}`);
    if (bankRows.join() !== bankWant.join()) fail(`bank ${bankRows.join()} ≠ ${bankWant.join()}`);
  }
  return problems;
}

/** What each round changes of every player (all of them are dirty afterwards). */
function makeDirty(world: World, content: ContentRegistry, tiles: { x: number; z: number }[], random: () => number, roundNo: number): void {
  const items = [...content.items.values()].filter((i) => i.id !== "coins");
  let i = 0;
  for (const p of world.players.values()) {
    const d = p.data;
    world.teleport(p, tiles[Math.floor(random() * tiles.length)]!);
    // Inventory: one slot filled or emptied.
    const slot = (roundNo * 7 + i) % d.inventory.length;
    d.inventory[slot] = d.inventory[slot] === null ? { itemId: items[(i + roundNo) % items.length]!.id, quantity: 1 } : null;
    // Bank: one stack grows; every fourth player also banks a new item or takes its last stack out.
    d.bank[(roundNo + i) % d.bank.length]!.quantity += 1;
    if (i % 4 === 0) {
      const fresh = items.find((it) => !d.bank.some((s) => s.itemId === it.id));
      if (roundNo % 2 === 1 && fresh !== undefined) d.bank.push({ itemId: fresh.id, quantity: 1 });
      else if (d.bank.length > 1) d.bank.pop();
    }
    // Skills: xp in one skill; coins.
    d.skills[SKILLS[(roundNo + i) % SKILLS.length]!].xpTenths += 255;
    d.coins += 1;
    p.saveDue = true;
    i++;
  }
}

/** The bank and equipment every bench character gets before the first measured save. */
function outfit(p: Player, content: ContentRegistry, i: number): void {
  const items = [...content.items.values()].filter((it) => it.id !== "coins");
  const bank: ItemStack[] = [];
  for (let k = 0; k < BANK_STACKS && k < items.length; k++) bank.push({ itemId: items[(i + k * 3) % items.length]!.id, quantity: 1 + ((i + k) % 50) });
  // One stack per item id.
  p.data.bank = bank.filter((s, k) => bank.findIndex((o) => o.itemId === s.itemId) === k);
  const wearable = (slot: string) => items.find((it) => (it as { equipSlot?: string }).equipSlot === slot);
  const equipment: Record<string, ItemStack> = {};
  for (const slot of EQUIPMENT_SLOTS.slice(0, 3)) {
    const it = wearable(slot);
    if (it !== undefined) equipment[slot] = { itemId: it.id, quantity: 1 };
  }
  p.data.equipment = equipment;
  p.data.coins = 1_000 + i;
  p.saveDue = true;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Heaviest functions of CPU profiles by self time (sampled wall time on the main thread, so a
 * busy machine's preemption lands on whatever ran), summed over the profiles, with their share of
 * the profiles' time on the thread.
 */
function topFunctions(profiles: CpuProfile[], n = 15): { fn: string; selfMs: number; share: number }[] {
  const self = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      const f = byId.get(samples[i]!)?.callFrame;
      // Waiting (the database server's work, the watchers' timers) and the profiler's own calls are not the save's work.
      if (f === undefined || f.functionName === "(idle)" || f.url === "node:inspector") continue;
      // Native code (SQLite's own work under better-sqlite3) has no script.
      const where = f.url === "" ? "" : ` ${f.url.replace(`file://${ROOT}/`, "").replace(/^.*node_modules\//, "")}:${f.lineNumber + 1}`;
      const key = f.url === "" && f.functionName === "" ? "(native code)" : `${f.functionName || "(anonymous)"}${where}`;
      const dt = (deltas[i] ?? 0) / 1000;
      total += dt;
      self.set(key, (self.get(key) ?? 0) + dt);
    }
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([fn, ms]) => ({ fn, selfMs: round(ms, 1), share: round(ms / Math.max(total, 1e-9), 3) }));
}

interface RunResult {
  db: Db;
  players: number;
  ok: boolean;
  error?: string;
  seedMs?: number;
  loadMs?: number;
  /** Rows in the tables a save writes, after the first save. */
  rows?: { inventory: number; equipment: number; bank: number };
  /** The first save after loading (every player outfitted: bank and equipment new). */
  first?: SaveMeasure;
  /** The measured autosaves of every player, all of them dirty. */
  autosaves?: SaveMeasure[];
  /** Median over the rounds. */
  median?: Omit<SaveMeasure, "verified" | "mismatches" | "players">;
  /** One save interval of the steady state: each player saved in its own tick (everybody dirty). */
  interval?: {
    ticks: number;
    players: number;
    savedPerTickMean: number;
    /** Per tick: from the tick's start to its save's last commit. */
    saveWallMsP50: number;
    saveWallMsMax: number;
    /** The interval's ticks, synchronously (their persistence phases hand the saves over). */
    stepMsTotal: number;
    /** The main thread's busy time after the ticks until their saves were stored, the interval's sum. */
    saveMainThreadMsTotal: number;
    longestStallMs: number;
    verified: boolean;
  };
  profile?: { files: string[]; top: { fn: string; selfMs: number; share: number }[] };
}

async function run(dbKind: Db, content: ContentRegistry): Promise<RunResult> {
  const result: RunResult = { db: dbKind, players, ok: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "autosave-bench-"));
  let pgDb: { url: string; drop(): Promise<void> } | undefined;
  let db: Database | undefined;
  try {
    if (dbKind === "postgresql") pgDb = await freshPostgres("bench_autosave");
    const url = pgDb?.url ?? `sqlite:${path.join(dir, "game.sqlite")}`;
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: url }, ROOT), pino({ level: "silent" }));
    const random = seededRandom(1);
    const tiles = walkableTiles(buildCollision(content));

    let t = performance.now();
    const seeded = await pool(
      Array.from({ length: players }, (_, i) => i),
      CONCURRENCY,
      (i) => createCharacter(db!, content, `autosave-bench-${i}`, `Bot${i}`),
    );
    result.seedMs = Math.round(performance.now() - t);
    log(`${dbKind}: seeded ${players} characters in ${(result.seedMs / 1000).toFixed(1)} s`);

    // The world and the saver, wired as src/server.ts wires them; every player is due every tick.
    const saver = new Saver(db, pino({ level: "warn" }));
    let saving: Promise<void> = Promise.resolve();
    let handedOver = 0;
    const handOver = (snapshots: PlayerData[], despawned: string[]) => {
      handedOver += snapshots.length;
      saver.enqueue(snapshots);
      saver.enqueueDespawns(despawned);
      saving = saver.flush();
    };
    const world = new World({ content, saveIntervalTicks: 1, onSave: handOver, tickMs, handlers: new Map() });

    // The login path: the character read under its claim, its version tracked, the player added.
    t = performance.now();
    const loaded = await pool(seeded, CONCURRENCY, (s) =>
      loadOrCreatePlayer(db!, content, { accountId: s.accountId, characterId: s.characterId, claim: async () => {} }),
    );
    for (const data of loaded) {
      saver.track(data.characterId, data.version, data);
      world.addPlayer(data);
    }
    result.loadMs = Math.round(performance.now() - t);
    log(`${dbKind}: loaded them in ${(result.loadMs / 1000).toFixed(1)} s`);

    const check = async (m: Awaited<ReturnType<typeof measure>>): Promise<SaveMeasure> => {
      const mismatches = await verify(db!, world, saver);
      return { players: world.players.size, ...m, verified: mismatches.length === 0, mismatches };
    };
    const tick = () => {
      world.step();
      world.drainOutbox();
      return saving;
    };

    let i = 0;
    for (const p of world.players.values()) outfit(p, content, i++);
    await settle();
    result.first = await check(await measure(tick));
    const counts = async (table: string) => Number((await db!.em().execute<{ n: number | string }[]>(`select count(*) as n from ${table}`))[0]!.n);
    result.rows = { inventory: await counts("inventory"), equipment: await counts("equipment"), bank: await counts("bank") };
    log(`${dbKind}: first save ${JSON.stringify(result.first)}; rows ${JSON.stringify(result.rows)}`);

    let session: Session | undefined;
    const profiles: object[] = [];
    if (args.profile !== undefined) {
      session = new Session();
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 200 });
    }
    result.autosaves = [];
    for (let r = 1; r <= rounds; r++) {
      makeDirty(world, content, tiles, random, r);
      await settle();
      // Profiled: the save only (not the changes before it, nor the check after it).
      await session?.post("Profiler.start");
      const measured = await measure(tick);
      if (session !== undefined) profiles.push((await session.post("Profiler.stop")).profile);
      const m = await check(measured);
      result.autosaves.push(m);
      log(`${dbKind}: autosave ${r}/${rounds}: ${JSON.stringify(m)}`);
    }
    if (session !== undefined) {
      session.disconnect();
      fs.mkdirSync(args.profile!, { recursive: true });
      const files = profiles.map((profile, k) => {
        const file = path.join(args.profile!, `autosave-${dbKind}-${k + 1}.cpuprofile`);
        fs.writeFileSync(file, JSON.stringify(profile));
        return file;
      });
      result.profile = { files, top: topFunctions(profiles as never[]) };
    }
    const med = (f: (m: SaveMeasure) => number) => percentile(result.autosaves!.map(f), 50);
    result.median = {
      wallMs: med((m) => m.wallMs),
      tickMs: med((m) => m.tickMs),
      mainThreadCpuMs: med((m) => m.mainThreadCpuMs),
      loopBusyMs: med((m) => m.loopBusyMs),
      cpuMs: med((m) => m.cpuMs),
      longestStallMs: med((m) => m.longestStallMs),
      stallsOver50Ms: med((m) => m.stallsOver50Ms),
    };

    // The steady state: one save interval, each player saved in its own tick, everybody dirty.
    const steady = new World({ content, saveIntervalTicks: intervalTicks, onSave: handOver, tickMs, handlers: new Map() });
    for (const p of world.players.values()) steady.addPlayer(copyData(p.data));
    const walls: number[] = [];
    let stepMs = 0;
    let saveMainThreadMs = 0;
    handedOver = 0;
    await settle();
    const watch = watchLoop();
    for (let k = 0; k < intervalTicks; k++) {
      for (const p of steady.players.values()) {
        p.data.coins += 1;
        p.saveDue = true;
      }
      saving = Promise.resolve();
      const t0 = performance.now();
      steady.step();
      steady.drainOutbox();
      const t1 = performance.now();
      const elu0 = performance.eventLoopUtilization();
      await saving;
      saveMainThreadMs += performance.eventLoopUtilization(elu0).active;
      stepMs += t1 - t0;
      walls.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 1));
    }
    const stalls = watch.stop();
    // Each player changed again after its own tick: a save of everyone (as at shutdown) before the check.
    saver.enqueue([...steady.players.values()].map(snapshot));
    await saver.flush();
    const steadyProblems = await verify(db, steady, saver);
    result.interval = {
      ticks: intervalTicks,
      players: steady.players.size,
      savedPerTickMean: round(handedOver / intervalTicks, 1),
      saveWallMsP50: round(percentile(walls, 50), 2),
      saveWallMsMax: round(Math.max(...walls), 2),
      stepMsTotal: round(stepMs, 1),
      saveMainThreadMsTotal: round(saveMainThreadMs, 1),
      longestStallMs: stalls.longestStallMs,
      verified: steadyProblems.length === 0,
    };
    log(`${dbKind}: one save interval (${intervalTicks} ticks): ${JSON.stringify(result.interval)}`);

    const failed = [result.first, ...result.autosaves].filter((m) => !m.verified);
    if (failed.length > 0 || steadyProblems.length > 0)
      throw new Error(`the database differs from the world: ${[...failed.flatMap((m) => m.mismatches), ...steadyProblems].slice(0, 5).join("; ")}`);
    result.ok = true;
  } catch (err) {
    result.error = (err as Error).stack ?? String(err);
    log(`${dbKind}: FAILED: ${result.error}`);
  } finally {
    await db?.close();
    await releaseScratch({ dir, db: pgDb, keep: args.keep, tag: dbKind, log });
  }
  return result;
}

/** `World`'s persistence phase alone (no database): finding the due players, then with their snapshots. */
function persistencePhase(content: ContentRegistry): {
  ticks: number;
  players: number;
  intervalTicks: number;
  idle: { p50Us: number; p99Us: number; maxUs: number };
  dirty: { p50Us: number; p99Us: number; maxUs: number; snapshotsPerTick: number };
} {
  let snapshots = 0;
  const world = new World({ content, saveIntervalTicks: intervalTicks, onSave: (s) => (snapshots += s.length), tickMs, handlers: new Map() });
  const tiles = walkableTiles(world.collision);
  const random = seededRandom(2);
  for (let i = 0; i < players; i++) {
    const t = tiles[Math.floor(random() * tiles.length)]!;
    world.addPlayer({
      characterId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      accountId: `acc-${i}`,
      name: `Bot${i}`,
      x: t.x,
      y: 10,
      z: t.z,
      health: 100,
      coins: 0,
      combatLevel: 3,
      skills: Object.fromEntries(SKILLS.map((s) => [s, { level: 1, xpTenths: 0 }])) as PlayerData["skills"],
      inventory: Array.from({ length: 28 }, (_, k) => (k < 6 ? { itemId: "logs", quantity: 1 } : null)),
      equipment: {},
      bank: Array.from({ length: BANK_STACKS }, (_, k) => ({ itemId: `item-${k}`, quantity: k + 1 })),
    });
  }
  const phase = (world as unknown as { processPersistence(): void }).processPersistence.bind(world);
  const time = (dirty: boolean) => {
    const out: number[] = [];
    for (let k = 0; k < ticks; k++) {
      if (dirty) for (const p of world.players.values()) p.saveDue = true;
      world.tick++;
      const t0 = performance.now();
      phase();
      out.push((performance.now() - t0) * 1000);
    }
    return { p50Us: round(percentile(out, 50), 1), p99Us: round(percentile(out, 99), 1), maxUs: round(Math.max(...out), 1) };
  };
  time(false); // warm-up
  const idle = time(false);
  snapshots = 0;
  const dirty = time(true);
  return { ticks, players, intervalTicks, idle, dirty: { ...dirty, snapshotsPerTick: round(snapshots / ticks, 1) } };
}

const started = new Date().toISOString();
const content = await bundledContent();
const phase = persistencePhase(content);
log(`persistence phase, ${players} players, ${intervalTicks}-tick interval: ${JSON.stringify(phase)}`);
const results: object[] = [{ kind: "persistence-phase", ...phase }];
const runs: RunResult[] = [];
const settings = { players, rounds, ticks, saveIntervalS, tickMs, intervalTicks, bankStacks: BANK_STACKS, pid: process.pid };
for (const d of dbs as Db[]) {
  const r = await run(d, content);
  runs.push(r);
  results.push({ kind: "autosave", ...r });
  writeResults(args.out, "autosave", started, settings, results);
}
endSweep(
  [
    "db",
    "players",
    "autosave wall ms",
    "tick ms",
    "main-thread CPU ms",
    "loop busy ms",
    "process CPU ms",
    "longest stall ms",
    "interval: save p50 / max ms, stall ms",
    "verified",
  ],
  runs.map((r) =>
    r.ok && r.median !== undefined && r.interval !== undefined
      ? `| ${r.db} | ${r.players} | ${r.median.wallMs} | ${r.median.tickMs} | ${r.median.mainThreadCpuMs} | ${r.median.loopBusyMs} | ${r.median.cpuMs} | ${r.median.longestStallMs} | ${r.interval.saveWallMsP50} / ${r.interval.saveWallMsMax}, ${r.interval.longestStallMs} | ok |`
      : `| ${r.db} | ${r.players} | failed: ${r.error?.split("\n")[0] ?? "?"} |`,
  ),
  runs.every((r) => r.ok),
);
