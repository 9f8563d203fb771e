/**
 * Health regeneration (src/game/regeneration.ts) against the genre's published rate: OSRS wiki
 * "Hitpoints": one hitpoint every minute (100 ticks of 0.6 s), for players and monsters; in this
 * game's lifepoints (10 a hitpoint), 10 lifepoints every 100 ticks, never past the maximum.
 */
import assert from "node:assert/strict";
import { HITPOINT_REGEN_TICKS, LIFEPOINTS_PER_HITPOINT, type NpcInstance } from "../../src/game/world/entities.ts";
import { TICK_MS } from "../../src/game/world/World.ts";
import { gameWorld, type GameHarness } from "../support/game.ts";

/** An NPC no one fights: a passive one, and nobody near it. */
function quietNpc(g: GameHarness): NpcInstance {
  return [...g.world.npcs.values()].find((n) => n.def.combat?.attackable === true && !n.def.combat.aggressive)!;
}

describe("health regeneration", () => {
  it("is one hitpoint a minute: 100 ticks of 600 ms, 10 lifepoints", () => {
    assert.equal(HITPOINT_REGEN_TICKS * TICK_MS, 60_000);
    assert.equal(LIFEPOINTS_PER_HITPOINT, 10);
  });

  it("gives a hurt player 10 lifepoints in every 100 ticks, and a sync each time", async () => {
    const g = await gameWorld();
    const p = g.add({ health: 40 });
    g.tick(100);
    assert.equal(p.data.health, 50, "one hitpoint in the first 100 ticks");
    g.tick(300);
    assert.equal(p.data.health, 80, "three more in the next 300");
    const healths = g.events(p, "player:sync").map((s) => s.health);
    for (const h of [50, 60, 70, 80]) assert.ok(healths.includes(h), `a player:sync showed ${h}`);
  });

  it("stops at the maximum (constitution level × 10)", async () => {
    const g = await gameWorld();
    const p = g.add({ health: 95 });
    g.tick(100);
    assert.equal(p.data.health, 100, "95 + 10 is capped at 100");
    g.tick(200);
    assert.equal(p.data.health, 100);
    assert.equal(p.maxHealth, 100);
  });

  it("does not heal a player at full health (no sync, no save for nothing)", async () => {
    const g = await gameWorld();
    const p = g.add({ health: 100 });
    g.tick(1);
    p.saveDue = false;
    g.clearSent();
    g.tick(150);
    assert.equal(p.data.health, 100);
    assert.equal(p.saveDue, false, "nothing changed");
    assert.equal(g.events(p, "player:sync").length, 0);
  });

  it("heals NPCs at the same rate, up to their maximum, and not while dead", async () => {
    const g = await gameWorld();
    const npc = quietNpc(g);
    npc.health = npc.maxHealth - 25;
    g.tick(100);
    assert.equal(npc.health, npc.maxHealth - 15);
    g.tick(200);
    assert.equal(npc.health, npc.maxHealth, "25 lifepoints back in 300 ticks, capped");
    const dead = [...g.world.npcs.values()].find((n) => n !== npc && n.def.combat?.attackable === true)!;
    dead.health = 0;
    dead.deadUntil = g.world.tick + 1_000;
    g.tick(200);
    assert.equal(dead.health, 0, "a dead NPC does not regenerate");
  });

  it("looks at about a hundredth of the players each tick, each once per 100 ticks", async () => {
    const g = await gameWorld();
    const players = Array.from({ length: 500 }, () => g.add({ health: 10 }));
    const seen = new Map<string, number>();
    let most = 0;
    for (let t = 0; t < HITPOINT_REGEN_TICKS; t++) {
      const due = g.world.regenTurns.due(t);
      most = Math.max(most, due.size);
      for (const p of due) seen.set(p.id, (seen.get(p.id) ?? 0) + 1);
    }
    assert.equal(seen.size, 500);
    assert.ok(
      [...seen.values()].every((n) => n === 1),
      "every player has exactly one turn a period",
    );
    assert.ok(most <= 20, `at most 20 of 500 players in one tick (saw ${most})`);
    g.world.removePlayer(players[0]!.id);
    let left = 0;
    for (let t = 0; t < HITPOINT_REGEN_TICKS; t++) left += g.world.regenTurns.due(t).size;
    assert.equal(left, 499, "a player who left has no turn any more");
  });
});
