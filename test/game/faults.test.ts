import assert from "node:assert/strict";
import { inputHandlers, validateEvent } from "../../src/game/events.ts";
import { GAMEPLAY } from "../../src/game/systems.ts";
import { MAX_PLAYER_FAULTS, World, type Fault, type WorldSystems } from "../../src/game/world/World.ts";
import type { PlayerData } from "../../src/game/world/Player.ts";
import { bundledContent } from "../support/content.ts";
import { holdings } from "../support/game.ts";
import { playerData } from "../support/players.ts";

/** A bundled-content world whose `player:chat` handler throws (a bug one player's input can reach), and the faults it reports. */
async function faultyWorld(systems: WorldSystems = GAMEPLAY) {
  const handlers = inputHandlers({ checkAdminCode: () => "wrong" });
  handlers.set("player:chat", {
    category: "chat",
    handle: () => {
      throw new Error("a bug in the chat handler");
    },
  });
  const saved: PlayerData[] = [];
  const w = new World({ content: await bundledContent(), systems, handlers, saveIntervalTicks: 1, onSave: (s) => saved.push(...s) });
  const faults: Fault[] = [];
  w.onFault = (f) => faults.push(f);
  const send = (playerId: string, type: string, data: unknown) => {
    const v = validateEvent(type, data);
    assert.ok(v.ok);
    w.enqueue(playerId, type, v.data);
  };
  return { w, faults, saved, send };
}

describe("faults contained by the tick", () => {
  it("answers a throwing command with INTERNAL, reports it once by event name, and goes on with the tick for everyone", async () => {
    const { w, faults, send } = await faultyWorld();
    const a = w.addPlayer(playerData({ x: 0, z: 0 }));
    const b = w.addPlayer(playerData({ x: 2, z: 2 }));
    send(a.id, "player:chat", { message: "hello" });
    send(a.id, "player:move", { x: 0, z: 5 });
    send(b.id, "player:move", { x: 2, z: 6 });
    w.step();
    const out = w.drainOutbox();
    assert.deepEqual(
      out.filter((m) => m.type === "error").map((m) => [m.to, m.data]),
      [[a.id, { code: "INTERNAL", message: "The server could not carry out this command.", event: "player:chat" }]],
    );
    assert.equal(faults.length, 1);
    assert.deepEqual({ ...faults[0], error: undefined }, { where: "input", event: "player:chat", playerId: a.id, error: undefined, disconnect: false });
    assert.equal(JSON.stringify(faults[0]).includes("hello"), false, "the payload is not in the report");
    assert.deepEqual([a.x, a.z], [0, 1], "the faulty player's later command of the tick ran");
    assert.deepEqual([b.x, b.z], [2, 3]);
    assert.ok(
      out.some((m) => m.type === "player:sync"),
      "the publish phase ran",
    );
  });

  it(`asks to disconnect a player after ${MAX_PLAYER_FAULTS} faults and runs none of its commands after that`, async () => {
    const { w, faults, send } = await faultyWorld();
    const a = w.addPlayer(playerData({ x: 0, z: 0 }));
    for (let i = 0; i < MAX_PLAYER_FAULTS; i++) {
      send(a.id, "player:chat", { message: `m${i}` });
      w.step();
    }
    assert.deepEqual(
      faults.map((f) => f.disconnect),
      [...Array(MAX_PLAYER_FAULTS - 1).fill(false), true],
    );
    send(a.id, "player:move", { x: 0, z: 5 });
    w.step();
    w.step();
    assert.deepEqual([a.x, a.z], [0, 0], "a faulty player's commands no longer run");
    assert.equal(faults.length, MAX_PLAYER_FAULTS);
  });

  it("contains a throwing gameplay phase: the next phases and ticks run, and saves still happen", async () => {
    let throwing = true;
    const { w, faults, saved, send } = await faultyWorld({
      ...GAMEPLAY,
      npcs: (world) => {
        if (throwing) throw new Error("a bug in the NPC phase");
        GAMEPLAY.npcs!(world);
      },
    });
    const a = w.addPlayer(playerData({ x: 0, z: 0 }));
    send(a.id, "player:move", { x: 0, z: 3 });
    w.step();
    w.step();
    assert.deepEqual(
      faults.map((f) => f.where),
      ["npcs", "npcs"],
    );
    assert.deepEqual([a.x, a.z], [0, 2]);
    assert.ok(
      saved.some((s) => s.characterId === a.id && s.z === 2),
      "the persistence phase after the faulty one ran",
    );
    throwing = false;
    w.step();
    assert.equal(faults.length, 2);
  });

  it("contains one player's failing action to that player: its action stops, the others' go on, nothing is lost", async () => {
    const { w, faults } = await faultyWorld();
    const a = w.addPlayer(playerData({ x: 0, z: 0 }));
    const b = w.addPlayer(playerData({ x: 4, z: 4 }));
    const before = [holdings(w, a), holdings(w, b)];
    const trap = "npc-trap";
    const get = w.npcs.get.bind(w.npcs);
    w.npcs.get = (id: string) => {
      if (id === trap) throw new Error("a bug reached through one NPC");
      return get(id);
    };
    a.action = { kind: "attack", targetId: trap };
    // The NPC nearest to b (the first of the content may be below ground, out of a walk's reach).
    const near = [...w.npcs.values()].sort((p, q) => Math.hypot(p.x - b.x, p.z - b.z) - Math.hypot(q.x - b.x, q.z - b.z))[0]!;
    b.action = { kind: "interact", targetId: near.id };
    const bAt = [b.x, b.z];
    w.step();
    w.step();
    assert.equal(a.action, undefined);
    assert.deepEqual(
      faults.map((f) => [f.where, f.playerId]),
      [["actions", a.id]],
    );
    assert.notDeepEqual([b.x, b.z], bAt, "the other player's action went on");
    assert.deepEqual([holdings(w, a), holdings(w, b)], before);
  });

  it("contains one NPC's failing turn to that NPC", async () => {
    const { w, faults } = await faultyWorld();
    const npcs = [...w.npcs.values()].filter((n) => n.def.combat?.attackable === true && n.wanderRadius > 0);
    assert.ok(npcs.length >= 2);
    const [broken, ...others] = npcs;
    Object.defineProperty(broken!, "spawnX", {
      get() {
        throw new Error("a bug in one NPC's state");
      },
    });
    const start = others.map((n) => [n.x, n.z].join());
    for (let i = 0; i < 40; i++) w.step();
    assert.ok(faults.length === 40 && faults.every((f) => f.where === "npcs" && f.entityId === broken!.id));
    assert.ok(
      others.some((n, i) => [n.x, n.z].join() !== start[i]),
      "the other NPCs went on wandering",
    );
  });
});
