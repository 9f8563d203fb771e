/**
 * Auto Retaliate (src/game/retaliate.ts): on for a new character, as in the genre; attacked while
 * idle or busy with a skill the player fights back, never while walking or already fighting; the
 * toggle (`player:setAutoRetaliate`) turns it off and `player:sync` says so.
 */
import assert from "node:assert/strict";
import { npcAttacksPlayer } from "../../src/game/combat.ts";
import { gameWorld } from "../support/game.ts";

async function setup() {
  const g = await gameWorld(7);
  const rat = [...g.world.npcs.values()].find((n) => n.def.id === "meadow_rat")!;
  // As a character is made: no autoRetaliate field (the harness turns it off for other tests).
  const p = g.add({ x: rat.x + 1, z: rat.z, health: 1000, autoRetaliate: undefined });
  return { g, rat, p };
}

describe("Auto Retaliate", () => {
  it("is on for a new character: attacked while idle, the player fights back and hits the attacker", async () => {
    const { g, rat, p } = await setup();
    assert.equal(p.autoRetaliate, true);
    npcAttacksPlayer(g.world, rat, p);
    assert.deepEqual(p.action, { kind: "attack", targetId: rat.id });
    for (let i = 0; i < 40 && !g.events(p, "combat:hit").some((h) => h.attackerId === p.id); i++) g.tick();
    assert.ok(
      g.events(p, "combat:hit").some((h) => h.attackerId === p.id && h.targetId === rat.id),
      "the player's own blow at the rat",
    );
  });

  it("stops a skill to fight back, but not a walk, and not a fight with another", async () => {
    const { g, rat, p } = await setup();
    const tree = [...g.world.resources.values()].find((r) => r.node.gathering === "woodcutting")!;
    p.action = { kind: "gather", targetId: tree.id };
    npcAttacksPlayer(g.world, rat, p);
    assert.deepEqual(p.action, { kind: "attack", targetId: rat.id }, "the gathering gives way");

    p.action = undefined;
    p.path = [{ x: p.x, z: p.z + 1 }];
    npcAttacksPlayer(g.world, rat, p);
    assert.equal(p.action, undefined, "walking, it walks on");
    p.path = [];

    const other = [...g.world.npcs.values()].find((n) => n.def.id === "meadow_rat" && n.id !== rat.id)!;
    p.action = { kind: "attack", targetId: other.id };
    npcAttacksPlayer(g.world, rat, p);
    assert.deepEqual(p.action, { kind: "attack", targetId: other.id }, "already fighting, it keeps its target");
  });

  it("off (player:setAutoRetaliate), the player only takes the hits; player:sync carries the toggle; a bad payload changes nothing", async () => {
    const { g, rat, p } = await setup();
    g.send(p, "player:setAutoRetaliate", { on: false });
    g.tick();
    assert.equal(p.autoRetaliate, false);
    assert.equal(p.saveDue, true, "saved with the character");
    assert.equal(g.events(p, "player:sync").at(-1)?.autoRetaliate, false);
    npcAttacksPlayer(g.world, rat, p);
    assert.equal(p.action, undefined);
    assert.equal(g.validate("player:setAutoRetaliate", { on: "yes" }).ok, false);
    assert.equal(g.validate("player:setAutoRetaliate", {}).ok, false);
    g.send(p, "player:setAutoRetaliate", { on: true });
    g.tick();
    assert.equal(p.autoRetaliate, true);
    assert.equal(g.events(p, "player:sync").at(-1)?.autoRetaliate, true);
  });
});
