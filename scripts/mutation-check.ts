/**
 * Keeps the test suite's sharpness measured: applies known mutations (bugs the suite must notice,
 * such as the loader dropping bank rows or a deposit that does nothing), one at a time, to a copy
 * of the repository, runs the test files that should catch each, and reports which were caught.
 * Exits 1 if a mutation survived, if a mutation no longer applies (its code moved: update it
 * here), or if the unmutated copy fails those tests.
 *
 * The copy lives in a temporary directory (node_modules symlinked), never in this tree, so work
 * in progress here is not disturbed.
 *
 * Usage: npm run test:mutations [-- <part of a mutation name> ...]
 *        npm run test:mutations -- --applies   (only checks that every mutation's text is found, in seconds)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

interface Mutation {
  name: string;
  file: string;
  /** Exact text to replace (must occur exactly once). */
  from: string;
  to: string;
  /** Test path filters (as `npm test -- <filter>`) that must fail with the mutation. */
  tests: string[];
  /** Extra environment for those tests (e.g. the crash test's kill-inside-a-commit cycle alone). */
  env?: Record<string, string>;
}

const PLAYERS = "src/persistence/players.ts";
const ROUND_TRIP = "test/db/roundTrip";
const ROWS = "src/persistence/playerRows.ts";
const SAVER = "test/db/saver";
const RAW_SQL = "test/db/rawSql";
const MUTATIONS: Mutation[] = [
  {
    name: "load drops bank rows",
    file: PLAYERS,
    from: "bank: bank.map((b) => ({ itemId: b.itemId, quantity: Number(b.quantity) })),",
    to: "bank: [],",
    tests: [ROUND_TRIP],
  },
  {
    name: "load drops equipment rows",
    file: PLAYERS,
    from: "equipment: Object.fromEntries(equip.map((e) => [e.slotType, { itemId: e.itemId, quantity: Number(e.quantity) }])),",
    to: "equipment: {},",
    tests: [ROUND_TRIP],
  },
  {
    name: "load drops inventory rows",
    file: PLAYERS,
    from: "for (const s of inv) inventory[Number(s.slot)] = { itemId: s.itemId, quantity: Number(s.quantity) };",
    to: "",
    tests: [ROUND_TRIP],
  },
  {
    name: "load drops skills and xp",
    file: PLAYERS,
    from: "  const skills = skillsOf(row);\n",
    to: "  const skills = Object.fromEntries(SKILLS.map((s) => [s, { level: 1, xpTenths: 0 }])) as Record<Skill, SkillState>;\n",
    tests: [ROUND_TRIP],
  },
  {
    name: "load drops coins and health",
    file: PLAYERS,
    from: "    health: Number(row.health),\n    coins: Number(row.coins),\n",
    to: "    health: 100,\n    coins: 0,\n",
    tests: [ROUND_TRIP],
  },
  // The load's statements are raw SQL (src/db/rawSql.ts): their text is the code.
  {
    name: "load reads the bank out of its display order",
    file: PLAYERS,
    from: `from "bank" where "characterId" = ? order by "slot" asc\``,
    to: `from "bank" where "characterId" = ? order by "slot" desc\``,
    tests: [RAW_SQL],
  },
  {
    name: "a sanction that has ended is still in force",
    file: "src/persistence/sanctions.ts",
    from: "  if (endsAt !== null && endsAt.getTime() <= now) return undefined;\n",
    to: "",
    tests: [RAW_SQL],
  },
  {
    name: "load drops the position",
    file: PLAYERS,
    from: "    x: Number(row.positionX),\n",
    to: "    x: 0,\n",
    tests: [ROUND_TRIP],
  },
  // Saves write only the rows that changed since the character's last save (playerRows.ts): the
  // round trip saves a new character twice; the saver's tests change rows between saves.
  {
    name: "save drops bank rows",
    file: ROWS,
    from: "if (was === undefined || was.slot !== slot || was.quantity !== s.quantity) out.bank.upserts.push([s.itemId, slot, s.quantity]);",
    to: "",
    tests: [ROUND_TRIP],
  },
  {
    name: "save misses a bank stack whose quantity changed",
    file: ROWS,
    from: "if (was === undefined || was.slot !== slot || was.quantity !== s.quantity) out.bank.upserts.push([s.itemId, slot, s.quantity]);",
    to: "if (was === undefined || was.slot !== slot) out.bank.upserts.push([s.itemId, slot, s.quantity]);",
    tests: [ROUND_TRIP, SAVER],
  },
  {
    name: "save keeps a bank stack taken out",
    file: ROWS,
    from: "for (const itemId of stored.bank.keys()) if (!inBank.has(itemId)) out.bank.deletes.push(itemId);",
    to: "",
    tests: [ROUND_TRIP, SAVER],
  },
  {
    name: "save drops equipment rows",
    file: ROWS,
    from: "if (stored === undefined || !same(s, stored.equipment.get(slotType))) out.equipment.upserts.push([slotType, s.itemId, s.quantity]);",
    to: "",
    tests: [ROUND_TRIP],
  },
  {
    name: "save misses a changed inventory slot",
    file: ROWS,
    from: "if (now !== null) out.inventory.upserts.push([slot, now.itemId, now.quantity]);",
    to: "if (now !== null && was === null) out.inventory.upserts.push([slot, now.itemId, now.quantity]);",
    tests: [ROUND_TRIP, SAVER],
  },
  {
    name: "save skips skills and xp",
    file: ROWS,
    from: "for (const s of SKILLS) out.push(p.skills[s].level, p.skills[s].xpTenths);",
    to: "for (const s of SKILLS) out.push(s === SKILLS[0] ? p.skills[s].level : 1, 0);",
    tests: [ROUND_TRIP],
  },
  {
    name: "save skips prayer points",
    file: ROWS,
    from: "out.push(p.prayerPoints ?? p.skills.prayer.level);",
    to: "out.push(p.skills.prayer.level);",
    tests: [ROUND_TRIP],
  },
  {
    name: "save skips coins",
    file: ROWS,
    from: "const out: unknown[] = [p.x, p.y, p.z, p.health, p.coins, p.combatLevel, p.combatStyle ?? DEFAULT_COMBAT_STYLE];",
    to: "const out: unknown[] = [p.x, p.y, p.z, p.health, 0, p.combatLevel, p.combatStyle ?? DEFAULT_COMBAT_STYLE];",
    tests: [ROUND_TRIP],
  },
  {
    name: "save skips health",
    file: ROWS,
    from: "const out: unknown[] = [p.x, p.y, p.z, p.health, p.coins, p.combatLevel, p.combatStyle ?? DEFAULT_COMBAT_STYLE];",
    to: "const out: unknown[] = [p.x, p.y, p.z, 100, p.coins, p.combatLevel, p.combatStyle ?? DEFAULT_COMBAT_STYLE];",
    tests: [ROUND_TRIP],
  },
  {
    name: "save skips the position",
    file: ROWS,
    from: "const out: unknown[] = [p.x, p.y, p.z, p.health, p.coins, p.combatLevel, p.combatStyle ?? DEFAULT_COMBAT_STYLE];",
    to: "const out: unknown[] = [0, p.y, p.z, p.health, p.coins, p.combatLevel, p.combatStyle ?? DEFAULT_COMBAT_STYLE];",
    tests: [ROUND_TRIP],
  },
  {
    name: "save drops death locks",
    file: PLAYERS,
    from: "for (const d of p.deaths ?? []) {",
    to: "for (const d of [] as NonNullable<typeof p.deaths>) {",
    tests: [ROUND_TRIP],
  },
  {
    name: "agent goal state is not stored",
    file: "src/agents/AgentService.ts",
    from: "await this.db.em().nativeUpdate(AgentMapping, { agentId: agent.agentId }, { ...changes, updatedAt: new Date() });",
    to: "",
    tests: [ROUND_TRIP],
  },
  {
    name: "aggressive mobs pick players in the safe town",
    file: "src/game/npcs.ts",
    from: "p.data.combatLevel <= level * 2 && !inSafeZone(world, p) && d < best",
    to: "p.data.combatLevel <= level * 2 && d < best",
    tests: ["test/gameplay/combat"],
  },
  {
    name: "bank deposit does nothing",
    file: "src/game/bank.ts",
    from: `    if (world.content.item(itemId)?.stackable) tx.inv.removeFromSlot(data.slot, data.quantity);
    else tx.inv.remove(itemId, data.quantity);
    tx.bank.add(itemId, data.quantity);`,
    to: "",
    tests: ["test/gameplay/conservation"],
  },
  {
    name: "bank withdraw takes from the bank and gives nothing",
    file: "src/game/bank.ts",
    from: "    giveItem(tx, data.itemId, data.quantity);\n",
    to: "",
    tests: ["test/gameplay/conservation"],
  },
  {
    name: "a sale pays for one item whatever the quantity",
    file: "src/game/store.ts",
    from: "const pay = saleValue(store, def, count, data.quantity);",
    to: "const pay = saleValue(store, def, count, 1);",
    tests: ["test/gameplay/conservation"],
  },
  {
    name: "a store takes an item for nothing",
    file: "src/game/store.ts",
    from: "if (payAt(store, def, count + data.quantity - 1) < 1) {",
    to: "if (false) {",
    tests: ["test/gameplay/stores"],
  },
  {
    name: "a purchase ignores the stock's price",
    file: "src/game/storePricing.ts",
    from: "const change = Math.min(CHANGE_MAX, Math.max(CHANGE_MIN, diff * delta));",
    to: "const change = 0 * Math.min(CHANGE_MAX, Math.max(CHANGE_MIN, diff * delta));",
    tests: ["test/gameplay/stores"],
  },
  {
    name: "fishing ignores catch rates",
    file: "src/game/gathering.ts",
    from: "  if (yields.some((y) => y.catchLow !== undefined && y.catchHigh !== undefined)) {",
    to: "  if (false) {",
    tests: ["test/gameplay/gathering"],
  },
  {
    // Only the crash test's cycle that kills inside an open commit can see this: the deletion
    // commits on its own (PostgreSQL), or waits on the open transaction forever (SQLite).
    name: "a trade's inventory deletion runs outside its transaction",
    file: "src/persistence/trades.ts",
    from: "    await em.nativeDelete(InventorySlot, { characterId: { $in: ids } });",
    to: "    await db.em().nativeDelete(InventorySlot, { characterId: { $in: ids } });",
    tests: ["test/trade/crash"],
    env: { TEST_CRASH_HOLD_ONLY: "1" },
  },
  {
    name: "an agent never reports its goal's progress",
    file: "agent-runtime/Agent.ts",
    from: '      this.conn.send("agent:goalProgress", { goalId: goal.id, progress: out.progress });',
    to: "",
    tests: ["test/agent-runtime/runtime"],
  },
  {
    name: "the runtime plays an agent for someone who does not own it",
    file: "agent-runtime/http.ts",
    from: '    if (!(await api.agentsOf(bearer(req))).some((a) => a.agentId === agentId)) throw new ApiError(403, "FORBIDDEN", "not your agent");\n',
    to: "",
    tests: ["test/agent-runtime/runtime"],
  },
  {
    name: "an agent's chat replies ignore the server's chat limit",
    file: "agent-runtime/chatCommands.ts",
    from: "while (this.chatQueue.length > 0 && this.chatTimes.length < CHAT_LIMIT) {",
    to: "while (this.chatQueue.length > 0) {",
    tests: ["test/agent-runtime/commands"],
  },
  {
    name: "a takeover keeps the previous connection's rights (an owner's /admin grant passes to its agent)",
    file: "src/sessions/WorldSessions.ts",
    from: "      controlAs(player, principal);\n",
    to: "",
    tests: ["test/moderation/agentAdmin"],
  },
  {
    name: "an agent obeys anyone who addresses it by name",
    file: "agent-runtime/chatCommands.ts",
    from: "const obeyed = fromId === undefined ? true : this.owners.has(fromId);",
    to: "const obeyed = true;",
    tests: ["test/agent-runtime/commands"],
  },
  {
    name: "an agent says a model's reply that is a chat command",
    file: "agent-runtime/speech.ts",
    from: 'return line.startsWith("/") ? { withheld: line } : { line };',
    to: "return { line };",
    tests: ["test/agent-runtime/modelBrain"],
  },
  {
    name: "a quest step counts for any stage",
    file: "src/game/quests.ts",
    from: "if (quest === undefined || stage === undefined || stage.type !== kind || stage.target !== target) continue;",
    to: "if (quest === undefined || stage === undefined) continue;",
    tests: ["test/gameplay/quests"],
  },
  {
    name: "a dialogue option is looked up by its text's position, not its id",
    file: "src/game/dialogue.ts",
    from: "const option = session?.options.find((o) => o.id === data.optionId);",
    to: "const option = session?.options.find((o, i) => o.id === data.optionId || i === 2);",
    tests: ["test/gameplay/quests"],
  },
];

const ROOT = path.resolve(import.meta.dirname, "..");

function run(cwd: string, filters: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["test/run.ts", ...filters], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The first assertion that failed, so a reader sees the mutation was caught for its own reason. */
const firstFailure = (output: string) => /(?:AssertionError[^:]*|Error): (.*)/.exec(output)?.[1]?.trim() ?? "";
const summary = (output: string) =>
  /tests: .*$/m.exec(
    output
      .split("\n")
      .filter((l) => l.startsWith("tests: "))
      .at(-1) ?? "",
  )?.[0] ?? "(no summary line)";

const USAGE = `usage: npm run test:mutations [-- [--applies] <part of a mutation name> ...]
  Applies each known bug to a copy of the tree and runs the tests that must catch it.
  --applies  only check that each mutation's text is found exactly once (no tests run)
`;
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const unknownFlag = args.find((a) => a.startsWith("-") && a !== "--applies");
if (unknownFlag !== undefined) {
  process.stderr.write(`test:mutations: unknown option ${unknownFlag} (--help lists them)\n`);
  process.exit(2);
}
const appliesOnly = args.includes("--applies");
const only = args.filter((a) => !a.startsWith("-"));
const chosen = MUTATIONS.filter((m) => only.length === 0 || only.some((o) => m.name.includes(o)));
if (chosen.length === 0) {
  process.stderr.write(`no mutation matches ${JSON.stringify(only)}\n`);
  process.exit(2);
}

if (appliesOnly) {
  const stale = chosen.filter((m) => {
    const text = fs.readFileSync(path.join(ROOT, m.file), "utf8");
    const at = text.indexOf(m.from);
    return at < 0 || text.indexOf(m.from, at + 1) >= 0;
  });
  for (const m of stale) process.stdout.write(`STALE     ${m.name}: its text is not found exactly once in ${m.file}; update scripts/mutation-check.ts\n`);
  process.stdout.write(stale.length > 0 ? "mutation check: FAILED\n" : `mutation check: all ${chosen.length} mutations apply\n`);
  process.exit(stale.length > 0 ? 1 : 0);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rsworld-mutation-"));
const copy = path.join(tmp, "repo");
let failed = false;
try {
  fs.cpSync(ROOT, copy, { recursive: true, filter: (src) => !["node_modules", ".git"].includes(path.basename(src)) || path.dirname(src) !== ROOT });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");

  // The unmutated copy must pass: otherwise a failure below would prove nothing. One run per
  // environment the mutations need.
  const envs = new Map<string, Record<string, string>>();
  for (const m of chosen) envs.set(JSON.stringify(m.env ?? {}), m.env ?? {});
  for (const [key, env] of envs) {
    const tests = [...new Set(chosen.filter((m) => JSON.stringify(m.env ?? {}) === key).flatMap((m) => m.tests))];
    const baseline = await run(copy, tests, env);
    process.stdout.write(`baseline (${tests.join(", ")}${key === "{}" ? "" : ` with ${key}`}): ${summary(baseline.output)}\n`);
    if (baseline.code !== 0) {
      process.stdout.write(baseline.output);
      throw new Error("the unmutated code fails these tests; fix that first");
    }
  }

  for (const m of chosen) {
    const file = path.join(copy, m.file);
    const original = fs.readFileSync(file, "utf8");
    const at = original.indexOf(m.from);
    if (at < 0 || original.indexOf(m.from, at + 1) >= 0) {
      process.stdout.write(`STALE     ${m.name}: its text is not found exactly once in ${m.file}; update scripts/mutation-check.ts\n`);
      failed = true;
      continue;
    }
    fs.writeFileSync(file, original.slice(0, at) + m.to + original.slice(at + m.from.length));
    try {
      const r = await run(copy, m.tests, m.env);
      if (r.code !== 0) {
        process.stdout.write(`caught    ${m.name}: ${firstFailure(r.output)}\n`);
      } else {
        process.stdout.write(`SURVIVED  ${m.name}: ${m.tests.join(", ")} still pass\n`);
        failed = true;
      }
    } finally {
      fs.writeFileSync(file, original);
    }
  }
} catch (err) {
  process.stderr.write(`mutation check: ${(err as Error).message}\n`);
  failed = true;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.stdout.write(failed ? "mutation check: FAILED\n" : `mutation check: all ${chosen.length} mutations caught\n`);
process.exit(failed ? 1 : 0);
