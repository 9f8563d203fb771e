import assert from "node:assert/strict";
import { INPUT_CAPS } from "../../src/game/world/World.ts";
import { count, gameWorld } from "../support/game.ts";

/** Beside Brackenford's banker (see test/gameplay/items.test.ts). */
const BANKER = { x: 3, z: -3 };

const rateLimited = (errors: { code: string; event?: string }[]) => errors.filter((e) => e.code === "RATE_LIMITED");

describe("per-tick input caps", () => {
  it(`runs ${INPUT_CAPS.item} item commands of a tick and drops the rest with one RATE_LIMITED`, async () => {
    const g = await gameWorld();
    const p = g.add({ ...BANKER }, [
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
    ]);
    for (let slot = 0; slot < 8; slot++) g.send(p, "bank:deposit", { slot, quantity: 1 });
    g.tick();
    assert.equal(p.data.bank.find((s) => s.itemId === "logs")?.quantity, INPUT_CAPS.item);
    assert.equal(count(p, "logs"), 8 - INPUT_CAPS.item, "the dropped deposits changed nothing");
    assert.deepEqual(
      rateLimited(g.errors(p)).map((e) => e.event),
      ["bank:deposit"],
    );
    // The next tick has a fresh budget.
    for (let slot = 5; slot < 8; slot++) g.send(p, "bank:deposit", { slot, quantity: 1 });
    g.tick();
    assert.equal(count(p, "logs"), 0);
    assert.equal(rateLimited(g.errors(p)).length, 1);
  });

  it(`runs ${INPUT_CAPS.action} actions and item uses of a tick, counted together`, async () => {
    const g = await gameWorld();
    const p = g.add({}, [{ itemId: "logs", quantity: 1 }]);
    for (let i = 0; i < 4; i++) g.send(p, "player:action", { action: "examine", targetId: "logs" });
    for (let i = 0; i < 4; i++) g.send(p, "equipment:remove", { slot: "weapon" });
    g.tick();
    const examined = g.events(p, "chat:message").filter((m) => m.channel === "system");
    assert.equal(examined.length, 4);
    const refusals = g.errors(p).filter((e) => e.event === "equipment:remove" && e.code !== "RATE_LIMITED");
    assert.equal(refusals.length, INPUT_CAPS.action - 4, "one unequip ran after the four examines");
    assert.deepEqual(
      rateLimited(g.errors(p)).map((e) => e.event),
      ["equipment:remove"],
    );
  });

  it(`delivers ${INPUT_CAPS.chat} chat messages of a tick`, async () => {
    const g = await gameWorld();
    const p = g.add();
    for (let i = 0; i < 4; i++) g.send(p, "player:chat", { message: `hello ${i}` });
    g.tick();
    assert.deepEqual(
      g.events(p, "chat:message").map((m) => m.message),
      ["hello 0", "hello 1"],
    );
    assert.deepEqual(
      rateLimited(g.errors(p)).map((e) => e.event),
      ["player:chat"],
    );
  });

  it(`takes ${INPUT_CAPS.trade} trade commands of a tick`, async () => {
    const g = await gameWorld();
    const a = g.add({ x: 0, z: 1 });
    const b = g.add({ x: 1, z: 1 });
    for (let i = 0; i < 7; i++) g.send(a, "tradeCancel", { tradeId: `nope-${i}` });
    g.tick();
    assert.equal(g.events(a, "tradeError").length, INPUT_CAPS.trade);
    assert.deepEqual(
      rateLimited(g.errors(a)).map((e) => e.event),
      ["tradeCancel"],
    );
    assert.equal(g.events(b, "tradeError").length, 0);
  });

  it("runs only the last move of a tick, without an error for the ones it replaced", async () => {
    const g = await gameWorld();
    const p = g.add({ x: 0, z: 0 });
    for (let i = 1; i <= 30; i++) g.send(p, "player:move", { x: i % 5, z: 3 });
    g.tick();
    assert.deepEqual(p.path.at(-1) ?? { x: p.x, z: p.z }, { x: 0, z: 3 });
    assert.deepEqual(g.errors(p), []);
  });

  it("caps each player on its own, and never drops the server's own commands", async () => {
    const g = await gameWorld();
    const a = g.add();
    const b = g.add();
    for (let i = 0; i < 6; i++) g.send(a, "player:chat", { message: `a${i}` });
    g.send(b, "player:chat", { message: "b" });
    let ran = 0;
    for (let i = 0; i < 40; i++) g.world.enqueueCommand(a.id, () => ran++);
    g.tick();
    assert.equal(ran, 40);
    assert.equal(rateLimited(g.errors(b)).length, 0);
    assert.ok(g.events(b, "chat:message").some((m) => m.message === "b"));
  });
});
