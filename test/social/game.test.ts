/**
 * The tick's part of the social events (src/game/social.ts), without a server: what reaches the
 * social service, what is refused at once, and the ignore list applied to chat and trade requests.
 */
import assert from "node:assert/strict";
import { CHAT_LIMIT, CHAT_WINDOW_MS } from "../../src/game/clientEvents.ts";
import { inputHandlers, validateEvent } from "../../src/game/events.ts";
import type { SocialCommandEvent, SocialPort } from "../../src/game/social.ts";
import { GAMEPLAY } from "../../src/game/systems.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { INPUT_CAPS, seededRandom, TICK_MS, World, type OutboundMessage } from "../../src/game/world/World.ts";
import { checkServerEvent } from "../../src/game/serverEvents.ts";
import { bundledContent } from "../support/content.ts";
import { gameWorld } from "../support/game.ts";
import { playerData } from "../support/players.ts";

class RecordingPort implements SocialPort {
  readonly calls: { playerId: string; what: string; name?: string | undefined; message?: string }[] = [];
  command(player: Player, event: SocialCommandEvent, name: string | undefined): void {
    this.calls.push({ playerId: player.id, what: event, name });
  }
  privateMessage(player: Player, to: string, message: string): void {
    this.calls.push({ playerId: player.id, what: "message", name: to, message });
  }
}

async function socialWorld() {
  const clock = { now: 1_700_000_000_000 };
  const port = new RecordingPort();
  const world = new World({
    content: await bundledContent(),
    now: () => clock.now,
    random: seededRandom(7),
    systems: GAMEPLAY,
    handlers: inputHandlers({ checkAdminCode: () => "wrong", social: port }),
  });
  const sent: OutboundMessage[] = [];
  return {
    world,
    port,
    clock,
    add: () => world.addPlayer(playerData()),
    send(player: Player, type: string, data: unknown) {
      const v = validateEvent(type, data);
      assert.ok(v.ok, `${type} refused by validation: ${JSON.stringify(v)}`);
      world.enqueue(player.id, type, v.data);
    },
    tick() {
      clock.now += TICK_MS;
      world.step();
      for (const m of world.drainOutbox()) {
        assert.equal(checkServerEvent(m.type, m.data), undefined);
        sent.push(m);
      }
    },
    errors: (p: Player) => sent.filter((m) => m.to === p.id && m.type === "error").map((m) => m.data as { code: string; event?: string }),
  };
}

describe("social events in the tick", () => {
  it("hands each list command to the social service with the name trimmed", async () => {
    const g = await socialWorld();
    const p = g.add();
    g.send(p, "social:getList", {});
    g.send(p, "social:addFriend", { name: "  Bob " });
    g.send(p, "social:removeIgnore", { name: "Eve" });
    g.tick();
    assert.deepEqual(g.port.calls, [
      { playerId: p.id, what: "social:getList", name: undefined },
      { playerId: p.id, what: "social:addFriend", name: "Bob" },
      { playerId: p.id, what: "social:removeIgnore", name: "Eve" },
    ]);
    assert.deepEqual(g.errors(p), []);
  });

  it(`takes ${INPUT_CAPS.social} social commands of a tick and drops the rest with one RATE_LIMITED`, async () => {
    const g = await socialWorld();
    const p = g.add();
    for (let i = 0; i < INPUT_CAPS.social + 3; i++) g.send(p, "social:addFriend", { name: `Name${i}` });
    g.tick();
    assert.equal(g.port.calls.length, INPUT_CAPS.social);
    assert.deepEqual(
      g.errors(p).map((e) => [e.code, e.event]),
      [["RATE_LIMITED", "social:addFriend"]],
    );
    g.send(p, "social:addFriend", { name: "Later" });
    g.tick();
    assert.equal(g.port.calls.length, INPUT_CAPS.social + 1, "the next tick has a fresh budget");
  });

  it("strips a private message like chat and refuses an empty or overlong one before the service sees it", async () => {
    const g = await socialWorld();
    const p = g.add();
    g.send(p, "social:sendMessage", { to: "Bob", message: "  hi\u0000 there\u202e " });
    g.send(p, "social:sendMessage", { to: "Bob", message: " \u0007 " });
    g.send(p, "social:sendMessage", { to: "Bob", message: "x".repeat(256) });
    g.tick();
    assert.deepEqual(g.port.calls, [{ playerId: p.id, what: "message", name: "Bob", message: "hi there" }]);
    assert.deepEqual(
      g.errors(p).map((e) => [e.code, e.event]),
      [
        ["INVALID_PAYLOAD", "social:sendMessage"],
        ["INVALID_PAYLOAD", "social:sendMessage"],
      ],
    );
    assert.equal(
      validateEvent("social:sendMessage", { to: "Bob", message: "x".repeat(4 * 255 + 1) }).ok,
      false,
      "a frame-sized message is refused by validation",
    );
    assert.equal(validateEvent("social:sendMessage", { message: "hi" }).ok, false);
  });

  it(`lets ${CHAT_LIMIT} private messages through every ${CHAT_WINDOW_MS / 1000} s, apart from public chat`, async () => {
    const g = await socialWorld();
    const p = g.add();
    for (let i = 0; i < CHAT_LIMIT; i++) {
      g.send(p, "player:chat", { message: `public ${i}` });
      g.tick();
    }
    assert.deepEqual(g.errors(p), [], "the public chat budget is spent, without a refusal");
    for (let i = 0; i < CHAT_LIMIT + 1; i++) {
      g.send(p, "social:sendMessage", { to: "Bob", message: `private ${i}` });
      g.tick();
    }
    assert.equal(g.port.calls.length, CHAT_LIMIT, "public chat did not use up the private budget");
    assert.deepEqual(
      g
        .errors(p)
        .filter((e) => e.code === "RATE_LIMITED")
        .map((e) => e.event),
      ["social:sendMessage"],
    );
    g.clock.now += CHAT_WINDOW_MS;
    g.send(p, "social:sendMessage", { to: "Bob", message: "after the window" });
    g.tick();
    assert.equal(g.port.calls.at(-1)?.message, "after the window");
  });

  it("refuses every social event with UNAVAILABLE where there is no social service", async () => {
    const g = await gameWorld();
    const p = g.add();
    const events: [string, object][] = [
      ["social:getList", {}],
      ["social:addFriend", { name: "Bob" }],
      ["social:acceptFriend", { name: "Bob" }],
      ["social:declineFriend", { name: "Bob" }],
      ["social:removeFriend", { name: "Bob" }],
      ["social:addIgnore", { name: "Bob" }],
      ["social:removeIgnore", { name: "Bob" }],
      ["social:sendMessage", { to: "Bob", message: "hi" }],
    ];
    for (const [type, data] of events) {
      g.send(p, type, data);
      g.tick();
    }
    assert.deepEqual(
      g.errors(p).map((e) => [e.code, e.event]),
      events.map(([type]) => ["UNAVAILABLE", type]),
    );
  });

  it("keeps an ignored account's chat from the ignorer, and only from the ignorer", async () => {
    const g = await gameWorld();
    const talker = g.add({ x: 0, z: 1 });
    const ignorer = g.add({ x: 1, z: 1 });
    const listener = g.add({ x: 2, z: 1 });
    ignorer.ignored = new Set([talker.data.accountId]);
    g.send(talker, "player:chat", { message: "can you hear me" });
    g.tick();
    assert.equal(g.events(ignorer, "chat:message").length, 0);
    assert.deepEqual(
      g.events(listener, "chat:message").map((m) => m.message),
      ["can you hear me"],
    );
    // The ignorer still talks to everyone, the ignored included.
    g.send(ignorer, "player:chat", { message: "hello all" });
    g.tick();
    assert.deepEqual(
      g.events(talker, "chat:message").map((m) => m.message),
      ["can you hear me", "hello all"],
    );
  });

  it("refuses a trade request to a player who ignores the asker (IGNORED), which never reaches them", async () => {
    const g = await gameWorld();
    const asker = g.add({ x: 0, z: 1 });
    const ignorer = g.add({ x: 1, z: 1 });
    ignorer.ignored = new Set([asker.data.accountId]);
    g.send(asker, "tradeRequest", { targetPlayerId: ignorer.id });
    g.tick();
    assert.deepEqual(
      g.events(asker, "tradeError").map((e) => e.code),
      ["IGNORED"],
    );
    assert.equal(g.events(ignorer, "tradeIncoming").length, 0);
    assert.equal(g.world.trades.requests.size, 0);
    // The other way round is a trade request like any other.
    g.send(ignorer, "tradeRequest", { targetPlayerId: asker.id });
    g.tick();
    assert.equal(g.events(asker, "tradeIncoming").length, 1);
  });
});
