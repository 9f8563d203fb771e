/**
 * The quest and dialogue content (src/manifests/questContent.ts): both sets' formats load; the
 * real set's seven quests are reported at startup for their missing NPCs (not fatal) and left
 * out; an unknown stage type, a dangling dialogue node and an unknown reward item are reported.
 */
import assert from "node:assert/strict";
import { buildRegistry } from "../../src/manifests/registry.ts";
import { parseManifest } from "../../src/manifests/validate.ts";
import { pino } from "pino";
import { loadContent } from "../../src/manifests/loader.ts";
import { bundledContent } from "../support/content.ts";
import { FIXTURE_MANIFESTS } from "../support/world.ts";

const REAL_QUESTS = [
  "goblin_slayer",
  "lumberjacks_first_lesson",
  "fresh_catch",
  "torvins_tools",
  "rune_mysteries",
  "crafting_basics",
  "fletchers_introduction",
];

function build(files: Record<string, unknown>) {
  const data = new Map<string, unknown>();
  for (const [file, json] of Object.entries(files)) {
    const parsed = parseManifest(file, JSON.stringify(json));
    assert.deepEqual(parsed.problems, [], file);
    data.set(file, parsed.data);
  }
  return buildRegistry(data);
}

const npc = (id: string, extra: object = {}) => ({ id, name: id, category: "quest", ...extra });
const area = (npcs: string[]) => ({
  towns: {
    t: { id: "t", name: "T", bounds: { minX: -5, maxX: 5, minZ: -5, maxZ: 5 }, npcs: npcs.map((id) => ({ id, type: "quest", position: { x: 0, z: 0 } })) },
  },
});
const quest = (over: object = {}) => ({
  q: {
    id: "q",
    name: "Q",
    startNpc: "giver",
    stages: [
      { id: "start", type: "dialogue", npcId: "giver" },
      { id: "end", type: "dialogue", npcId: "giver" },
    ],
    ...over,
  },
});

describe("quest and dialogue content", () => {
  it("loads the default world's quest and dialogue trees", async () => {
    const c = await bundledContent();
    const q = c.quests.quests.get("settlers_charter")!;
    assert.deepEqual(
      q.stages.map((s) => s.type),
      ["dialogue", "kill", "gather", "dialogue"],
    );
    assert.equal(q.rewards.questPoints, 1);
    assert.deepEqual([...c.quests.dialogues.keys()].sort(), [
      "brackenford_banker",
      "fletcher_fennick",
      "leatherworker_wenna",
      "mage_maelis",
      "provisioner_hobb",
      "smith_orla",
      "warden_tamsin",
    ]);
    assert.deepEqual(c.quests.dialogues.get("brackenford_banker")!.nodes.get("greeting")!.responses[0]!.effects, [{ type: "openBank" }]);
  });

  it("reports the real set's seven quests, whose NPCs no area places, and leaves them out", async () => {
    const loaded = await loadContent({
      dir: FIXTURE_MANIFESTS,
      cdnUrl: "http://unused.invalid",
      fallbackCdnUrl: undefined,
      alwaysFetch: false,
      skip: false,
      strictReferences: false,
      logger: pino({ level: "silent" }),
    });
    const real = loaded.registry;
    assert.deepEqual([...real.quests.quests.keys()], []);
    assert.deepEqual([...real.quests.dialogues.keys()], ["bank_clerk", "shopkeeper"]);
    const reported = loaded.warnings.filter((w) => w.file === "quests.json" && /\.startNpc$/.test(w.path)).map((w) => w.path.split(".")[1]);
    assert.deepEqual(reported, REAL_QUESTS);
    assert.match(loaded.warnings.find((w) => w.path === "$.goblin_slayer.startNpc")!.message, /unknown NPC "captain_rowan": no area places it/);
  });

  it("loads the make, reach, give and interact-on-a-place stages, and reports their unknown targets", () => {
    const stages = [
      { id: "s0", type: "dialogue" },
      { id: "s1", type: "make", target: "bar", count: 2 },
      { id: "s2", type: "reach", area: "t" },
      { id: "s3", type: "interact", target: "gate" },
      { id: "s4", type: "give", npcId: "taker", target: "bar", count: 2 },
    ];
    const bad = [
      { id: "b0", type: "make", target: "ghost" },
      { id: "b1", type: "reach", area: "nowhere" },
      { id: "b2", type: "reach" },
      { id: "b3", type: "interact", target: "no_place" },
      { id: "b4", type: "give", npcId: "stranger", target: "bar" },
      { id: "b5", type: "give", target: "ghost" },
    ];
    const { registry, problems } = build({
      "items.json": [{ id: "bar", name: "Bar", type: "misc", value: 1 }],
      "npcs.json": [npc("giver"), npc("taker")],
      "world-areas.json": area(["giver", "taker"]),
      "world-objects.json": { doors: [{ id: "gate", name: "Gate", x: 1, z: 1, open: false }] },
      "quests.json": {
        ...quest({ stages }),
        ...Object.fromEntries(bad.map((s) => [s.id, { id: s.id, name: s.id, startNpc: "giver", stages: [{ id: "start", type: "dialogue" }, s] }])),
      },
    });
    const q = registry.quests.quests.get("q")!;
    assert.deepEqual(
      q.stages.map((s) => [s.type, s.target ?? s.area ?? null, s.npcId ?? null, s.count]),
      [
        ["dialogue", null, "giver", 1],
        ["make", "bar", null, 2],
        ["reach", "t", null, 1],
        ["interact", "gate", null, 1],
        ["give", "bar", "taker", 2],
      ],
    );
    const text = problems.map((p) => `${p.path}: ${p.message}`);
    assert.deepEqual(text, [
      '$.b0.stages[1].target: unknown item "ghost"',
      '$.b1.stages[1].area: unknown area "nowhere"',
      "$.b2.stages[1].area: a reach stage needs an area",
      '$.b3.stages[1].target: unknown item "no_place" (nor a place)',
      '$.b4.stages[1].npcId: unknown NPC "stranger": no area places it',
      '$.b5.stages[1].target: unknown item "ghost"',
    ]);
    assert.deepEqual([...registry.quests.quests.keys()], ["q"]);
    // A give without an NPC is the start NPC's.
    assert.equal(
      build({
        "npcs.json": [npc("giver")],
        "world-areas.json": area(["giver"]),
        "items.json": [{ id: "bar", name: "Bar", type: "misc", value: 1 }],
        "quests.json": quest({ stages: [{ id: "g", type: "give", target: "bar" }] }),
      }).registry.quests.quests.get("q")!.stages[0]!.npcId,
      "giver",
    );
  });

  it("reports an unknown stage type, a dangling node and an unknown reward item", () => {
    const { registry, problems } = build({
      "npcs.json": [
        npc("giver", {
          dialogue: { entryNodeId: "hi", nodes: [{ id: "hi", text: "Hi", responses: [{ text: "Go", nextNodeId: "nowhere" }, { text: "Bye" }] }] },
        }),
      ],
      "world-areas.json": area(["giver"]),
      "quests.json": {
        ...quest({ stages: [{ id: "s", type: "deliver", npcId: "giver" }] }),
        ok: { id: "ok", name: "Ok", startNpc: "giver", stages: [{ id: "s", type: "dialogue" }], rewards: { items: [{ itemId: "ghost", quantity: 1 }] } },
      },
    });
    const text = problems.map((p) => `${p.file} ${p.path}: ${p.message}`);
    assert.ok(
      text.includes('quests.json $.q.stages[0].type: unknown stage type "deliver" (known: dialogue, kill, gather, interact, make, reach, give)'),
      text.join("\n"),
    );
    assert.ok(text.includes('quests.json $.ok.rewards.items[0].itemId: unknown item "ghost"'), text.join("\n"));
    assert.ok(text.includes('npcs.json $[0].dialogue.nodes[0].responses[0].nextNodeId: no node "nowhere"'), text.join("\n"));
    assert.deepEqual([...registry.quests.quests.keys()], ["ok"]);
    assert.deepEqual(registry.quests.quests.get("ok")!.rewards.items, []);
    assert.deepEqual(
      registry.quests.dialogues
        .get("giver")!
        .nodes.get("hi")!
        .responses.map((r) => r.text),
      ["Bye"],
    );
  });
});
