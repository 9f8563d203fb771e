/**
 * The world view's xp drops (client/src/feedback.ts `xpDropText`) over the server's own `skill:xp`
 * events: whole xp as the genre shows it, none while the whole xp has not moved (docs/playtest.md
 * session 29: "+0.4 Hitpoints xp", "+1.2 Attack xp" rose over a fight).
 */
import assert from "node:assert/strict";
import { xpDropText } from "../../client/src/feedback.ts";
import { playerAttacksNpc } from "../../src/game/combat.ts";
import type { ServerEvent } from "../../src/game/serverEvents.ts";
import { gameWorld } from "../support/game.ts";

describe("client xp drops: whole xp, as the genre shows them", () => {
  it("rises by the whole xp a hit moved the skill, and not at all for a fraction", async () => {
    const g = await gameWorld();
    const brute = [...g.world.npcs.values()].find((n) => n.def.id === "slag_brute")!;
    const p = g.add({ x: brute.x + 1, z: brute.z });
    const before = p.data.skills.constitution.xpTenths;
    // Punches of 1 hitpoint each (a hit roll of 0 lands, a damage roll of 0.999 is the max hit, 1 at level 1):
    // 1⅓ Hitpoints xp each, kept in tenths: 6.5 xp in all.
    const drops: (string | undefined)[] = [];
    for (let i = 0; i < 5; i++) {
      const values = [0, 0.999];
      (g.world as { random: () => number }).random = () => values.shift() ?? 0.5;
      assert.equal(playerAttacksNpc(g.world, p, brute), undefined);
      brute.health = brute.maxHealth;
      // The events of this hit as the world sends them (read between two ticks).
      const xp = g.world
        .drainOutbox()
        .filter((m) => m.to === p.id && m.type === "skill:xp")
        .map((m) => m.data as ServerEvent<"skill:xp">)
        .filter((x) => x.skill === "constitution");
      assert.equal(xp.length, 1, `hit ${i + 1}: one Hitpoints xp event`);
      drops.push(xpDropText(xp[0]!));
    }
    // 1⅓ a hit: a whole 1 or 2 each time, never "+1.3".
    for (const d of drops) assert.match(d ?? "", /^\+[12] Hitpoints xp$/);
    const whole = Math.floor(p.data.skills.constitution.xpTenths / 10) - Math.floor(before / 10);
    assert.equal(
      drops.reduce((sum, d) => sum + Number(/^\+(\d+) /.exec(d!)![1]), 0),
      whole,
      "the drops add up to the skill's whole xp",
    );
    // A share below a whole xp (0.4 Hitpoints xp): no drop; the next drop carries it.
    assert.equal(xpDropText({ skill: "constitution", gained: 0 }), undefined);
    assert.equal(xpDropText({ skill: "attack", gained: 4 }), "+4 Attack xp");
  });
});
