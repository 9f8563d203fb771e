import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { killPlayer } from "../../src/game/death.ts";
import { checkServerEvent, SERVER_EVENTS, serverEventsMarkdown } from "../../src/game/serverEvents.ts";
import { gameWorld } from "../support/game.ts";

describe("the server events table", () => {
  it("refuses an unknown event, a missing or mistyped field, and a field it does not name", () => {
    const ok = { code: "NO_PATH", message: "no way there", event: "player:move" };
    assert.equal(checkServerEvent("error", ok), undefined);
    assert.match(checkServerEvent("eror", ok)!, /not a server event/);
    assert.match(checkServerEvent("error", { message: "m" })!, /^error code:/);
    assert.match(checkServerEvent("error", { ...ok, code: 7 })!, /^error code:/);
    assert.match(checkServerEvent("error", { ...ok, payload: { secret: 1 } })!, /^error data: Unrecognized key/);
    assert.match(
      checkServerEvent("combat:hit", { attackerId: "a", targetId: "b", damage: -1, style: "melee", targetHealth: 1, targetMaxHealth: 1 })!,
      /damage/,
    );
    assert.match(checkServerEvent("combat:hit", { attackerId: "a", targetId: "b", damage: 1, style: "fists", targetHealth: 1, targetMaxHealth: 1 })!, /style/);
  });

  it("fits every event a game session sends: chat, services, combat, xp, death and a trade from request to cancel", async () => {
    // gameWorld checks each message the world sends against the table; this makes the world send each kind.
    const g = await gameWorld(11);
    const rat = [...g.world.npcs.values()].find((n) => n.def.id === "meadow_rat")!;
    const fighter = g.add({ x: rat.x + 1, z: rat.z, equipment: { weapon: { itemId: "bronze_sword", quantity: 1 } } });
    for (let i = 0; i < 400 && rat.deadUntil === 0; i++) {
      if (fighter.action === undefined) g.send(fighter, "player:action", { action: "attack", targetId: rat.id });
      g.tick();
    }
    const banker = [...g.world.npcs.values()].find((n) => n.service?.type === "bank")!;
    const keeper = [...g.world.npcs.values()].find((n) => n.service?.storeId !== undefined)!;
    const a = g.add({ x: banker.x + 1, z: banker.z });
    const b = g.add({ x: banker.x + 2, z: banker.z }, [{ itemId: "logs", quantity: 3 }]);
    g.send(a, "player:chat", { message: "hello" });
    g.send(b, "player:move", { x: 5_000, z: 0 });
    g.send(a, "player:action", { action: "interact", targetId: banker.id });
    g.send(b, "player:action", { action: "examine", targetId: "logs" });
    g.tick(3);
    const c = g.add({ x: keeper.x + 1, z: keeper.z });
    g.send(c, "player:action", { action: "interact", targetId: keeper.id });
    g.tick(3);
    g.send(a, "tradeRequest", { targetPlayerId: b.id });
    g.tick();
    const tradeId = String(g.events(b, "tradeIncoming")[0]!.tradeId);
    g.send(b, "tradeRequestRespond", { tradeId, accept: true });
    g.tick();
    g.send(b, "tradeAddItem", { tradeId, inventorySlot: 0, quantity: 2 });
    g.tick();
    g.send(a, "tradeAccept", { tradeId });
    g.send(b, "tradeAccept", { tradeId });
    g.send(a, "tradeAddItem", { tradeId, inventorySlot: 5, quantity: 1 });
    g.tick();
    g.send(a, "tradeCancel", { tradeId });
    g.tick();
    killPlayer(g.world, b, null);
    g.tick();
    const seen = new Set(g.sent.map((m) => m.type));
    const expected = [
      "player:sync",
      "chat:message",
      "interface:open",
      "combat:hit",
      "skill:xp",
      "player:death",
      "error",
      "tradeIncoming",
      "tradeStarted",
      "tradeUpdated",
      "tradeConfirmScreen",
      "tradeCancelled",
      "tradeError",
    ];
    assert.deepEqual(
      expected.filter((t) => !seen.has(t)),
      [],
      `seen: ${[...seen].join(", ")}`,
    );
    assert.ok(g.sent.some((m) => m.type === "interface:open" && (m.data as { type: string }).type === "store"));
    assert.ok(g.sent.some((m) => m.type === "interface:open" && (m.data as { type: string }).type === "bank"));
    // The rest come from the transports and services, checked by the socket test clients.
    for (const t of ["welcome", "world:update", "tradeCompleted", "agent:goal", "agent:message"]) assert.ok(t in SERVER_EVENTS);
  });

  it("is what docs/protocol.md lists (npm run docs:events prints the list)", () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, "..", "..", "docs", "protocol.md"), "utf8");
    assert.ok(doc.includes(serverEventsMarkdown()), "docs/protocol.md's list of server events is out of date: paste the output of `npm run docs:events`");
  });
});
