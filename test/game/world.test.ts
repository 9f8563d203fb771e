import assert from "node:assert/strict";
import { CHAT_LIMIT, sanitizeChat } from "../../src/game/chat.ts";
import { inputHandlers, validateEvent } from "../../src/game/events.ts";
import { MAX_EXPANSIONS } from "../../src/game/map/pathfinding.ts";
import { PATH_BUDGET_PER_TICK, RUN_SPEED, VIEW_RADIUS, World, WALK_SPEED } from "../../src/game/world/World.ts";
import { openWorldContent } from "../support/content.ts";
import { gameWorld } from "../support/game.ts";
import { killPlayer } from "../../src/game/death.ts";
import { playerData } from "../support/players.ts";

function world(blocked: Parameters<typeof openWorldContent>[0] = [], now = () => 1_000_000) {
  return new World({
    content: openWorldContent(blocked),
    now,
    handlers: inputHandlers({ checkAdminCode: (c) => (c === "limited" ? "limited" : c === "sesame" ? "granted" : "wrong") }),
  });
}

function send(w: World, playerId: string, type: string, data: unknown) {
  const v = validateEvent(type, data);
  assert.ok(v.ok, JSON.stringify(v));
  w.enqueue(playerId, type, v.data);
}

describe("the world tick", () => {
  it("walks one tile per tick, and runs two", () => {
    const w = world();
    const a = w.addPlayer(playerData());
    const b = w.addPlayer(playerData());
    send(w, a.id, "player:move", { x: 10, z: 0 });
    send(w, b.id, "player:move", { x: 0, z: 10, run: true });
    w.step();
    assert.deepEqual([a.x, a.z], [WALK_SPEED, 0]);
    assert.deepEqual([b.x, b.z], [0, RUN_SPEED]);
    for (let i = 0; i < 20; i++) w.step();
    assert.deepEqual([a.x, a.z], [10, 0]);
    assert.deepEqual([b.x, b.z], [0, 10]);
    assert.equal(b.running, false, "running stops at the destination");
  });

  it("replaces the old path with a new command", () => {
    const w = world();
    const a = w.addPlayer(playerData());
    send(w, a.id, "player:move", { x: 10, z: 0 });
    w.step();
    send(w, a.id, "player:move", { x: 1, z: 5 });
    for (let i = 0; i < 10; i++) w.step();
    assert.deepEqual([a.x, a.z], [1, 5]);
  });

  it("answers a move over 200 tiles with TOO_FAR and changes nothing", () => {
    const w = world();
    const a = w.addPlayer(playerData());
    send(w, a.id, "player:move", { x: 40, z: 0 });
    w.step();
    w.drainOutbox();
    send(w, a.id, "player:move", { x: 500, z: 0 });
    w.step();
    const err = w.drainOutbox().find((m) => m.type === "error");
    assert.deepEqual(err?.data, { code: "TOO_FAR", message: "That tile is more than 200 tiles away.", event: "player:move" });
    assert.deepEqual(a.path.at(-1), { x: 40, z: 0 }, "the walk already under way goes on");
  });

  it("searches one path per player per tick, for the last move of the tick", () => {
    const w = world();
    const a = w.addPlayer(playerData());
    for (let i = 1; i <= 36; i++) send(w, a.id, "player:move", { x: i, z: -i });
    w.step();
    assert.equal(w.pathStats.searches, 1);
    assert.deepEqual(a.path.at(-1), { x: 36, z: -36 });
  });

  it("answers a move to a tile it cannot get nearer to with NO_PATH, from the movement phase", () => {
    // Shut in a 3×3 room.
    const w = world([
      { minX: -2, maxX: 2, minZ: -2, maxZ: -2 },
      { minX: -2, maxX: 2, minZ: 2, maxZ: 2 },
      { minX: -2, maxX: -2, minZ: -2, maxZ: 2 },
      { minX: 2, maxX: 2, minZ: -2, maxZ: 2 },
    ]);
    const a = w.addPlayer(playerData());
    send(w, a.id, "player:move", { x: 40, z: 0 });
    w.step();
    const err = w.drainOutbox().find((m) => m.type === "error");
    assert.deepEqual(err?.data, { code: "NO_PATH", message: "No way there from here.", event: "player:move" });
    assert.deepEqual([a.x, a.z, a.path.length], [0, 0, 0]);
  });

  /** Players at the left edge of a world split by a wall, each asking to walk round it (thousands of nodes each). */
  function floodedWorld(flooders: number) {
    const w = world([{ minX: 0, maxX: 0, minZ: -50, maxZ: 45 }]);
    const players = Array.from({ length: flooders }, (_, i) => w.addPlayer(playerData({ x: -45, z: -45 + i })));
    const flood = () => {
      for (const p of players) send(w, p.id, "player:move", { x: 45, z: p.z });
    };
    return { w, players, flood };
  }

  it("keeps a tick's path searches within its budget and serves the waiting walks on later ticks", () => {
    const { w, players, flood } = floodedWorld(30);
    flood();
    w.step();
    assert.ok(w.pathStats.expansions >= PATH_BUDGET_PER_TICK, "the walks cost more than one tick's budget");
    assert.ok(w.pathStats.expansions <= PATH_BUDGET_PER_TICK + MAX_EXPANSIONS);
    assert.ok(w.pathStats.deferred > 0 && w.pathStats.deferred < 30);
    let ticks = 1;
    while (w.pathStats.deferred > 0 && ticks < 100) {
      w.step();
      assert.ok(w.pathStats.expansions <= PATH_BUDGET_PER_TICK + MAX_EXPANSIONS);
      ticks++;
    }
    assert.equal(w.pathStats.deferred, 0);
    for (const p of players) assert.ok(p.x > -45 || p.path.length > 0, `${p.id} got its path`);
  });

  it("serves cheap walks first: a flood of expensive moves does not delay anyone else's", () => {
    const { w, flood } = floodedWorld(40);
    for (let i = 0; i < 5; i++) {
      flood();
      w.step();
    }
    assert.ok(w.pathStats.deferred > 0, "the flooders' walks are waiting");
    const walker = w.addPlayer(playerData({ x: 20, z: 0 }));
    flood();
    send(w, walker.id, "player:move", { x: 30, z: 10 });
    w.step();
    assert.deepEqual([walker.x, walker.z], [21, 1], "it walked in the tick of its request");
    assert.ok(w.pathStats.deferred > 0);
  });

  it("never walks onto a blocked tile", () => {
    const w = world([{ minX: 3, maxX: 3, minZ: -50, maxZ: 5 }]);
    const a = w.addPlayer(playerData());
    send(w, a.id, "player:move", { x: 6, z: 0 });
    for (let i = 0; i < 30; i++) {
      w.step();
      assert.ok(!(a.x === 3 && a.z <= 5), `at ${a.x},${a.z}`);
    }
    assert.deepEqual([a.x, a.z], [6, 0]);
  });

  it("finds an account's live character without a scan: the first that entered, then the next when it leaves", () => {
    const w = world();
    const other = w.addPlayer(playerData({ accountId: "acc-other" }));
    const first = w.addPlayer(playerData({ accountId: "acc-1" }));
    const second = w.addPlayer(playerData({ accountId: "acc-1" }));
    assert.equal(w.firstPlayerOfAccount("acc-1"), first);
    assert.equal(w.firstPlayerOfAccount("acc-other"), other);
    w.removePlayer(first.id);
    assert.equal(w.firstPlayerOfAccount("acc-1"), second);
    w.removePlayer(second.id);
    assert.equal(w.firstPlayerOfAccount("acc-1"), undefined);
    assert.equal(w.firstPlayerOfAccount("nobody"), undefined);
  });

  it("puts a player loaded on a blocked tile back at the spawn", () => {
    const w = world([{ minX: 5, maxX: 5, minZ: 5, maxZ: 5 }]);
    const a = w.addPlayer(playerData({ x: 5, z: 5 }));
    assert.deepEqual([a.x, a.z], [0, 0]);
    assert.deepEqual([a.data.x, a.data.z], [0, 0], "and that is what is saved");
  });

  it("keeps a player's position and its saved data alike through a load, walks, a teleport and a death", async () => {
    const g = await gameWorld();
    const spawn = g.world.content.world.spawn;
    const p = g.add({ x: spawn.x + 0.4, z: spawn.z });
    const same = (when: string) => assert.deepEqual([p.x, p.z], [p.data.x, p.data.z], when);
    same("loaded (rounded)");
    assert.equal(p.x, spawn.x);
    g.send(p, "player:move", { x: spawn.x + 3, z: spawn.z });
    g.tick();
    same("walking");
    assert.notEqual(p.x, spawn.x, "it moved");
    g.tick(5);
    same("arrived");
    assert.ok(g.world.teleport(p, { x: spawn.x, z: spawn.z + 2 }));
    same("teleported");
    assert.equal(p.z, spawn.z + 2);
    g.send(p, "player:move", { x: spawn.x + 2, z: spawn.z + 2 });
    g.tick(3);
    killPlayer(g.world, p, null);
    same("respawned");
    assert.deepEqual([p.x, p.z], [spawn.x, spawn.z]);
  });

  it("sends player:sync once on the first tick and not again until private state changes", () => {
    const w = world();
    const a = w.addPlayer(playerData());
    w.step();
    assert.equal(w.drainOutbox().filter((m) => m.type === "player:sync" && m.to === a.id).length, 1);
    w.step();
    assert.equal(w.drainOutbox().filter((m) => m.type === "player:sync").length, 0);
  });

  it("finds the players within the view radius only", () => {
    const w = world();
    const a = w.addPlayer(playerData({ x: 0, z: 0 }));
    const near = w.addPlayer(playerData({ x: VIEW_RADIUS, z: -VIEW_RADIUS }));
    const far = w.addPlayer(playerData({ x: VIEW_RADIUS + 1, z: 0 }));
    const ids = w
      .playersNear(a)
      .map((p) => p.id)
      .sort();
    assert.deepEqual(ids, [a.id, near.id].sort());
    assert.ok(!ids.includes(far.id));
  });

  it("finds the same players, resource nodes and places through its cells as a scan of everything would", async () => {
    const g = await gameWorld(5);
    const w = g.world;
    const b = w.collision.bounds;
    const added = Array.from({ length: 60 }, (_, i) => g.add({ x: b.minX + ((i * 37) % (b.maxX - b.minX)), z: b.minZ + ((i * 53) % (b.maxZ - b.minZ)) }));
    // Players leave and move between cells (teleports and walks), so the index has been updated.
    for (const p of added.filter((_, i) => i % 7 === 0)) w.removePlayer(p.id);
    for (const [i, p] of added.entries()) {
      if (i % 7 === 0) continue;
      if (i % 3 === 0) w.teleport(p, w.content.world.spawn);
      else g.send(p, "player:move", { x: Math.min(b.maxX, p.x + 12), z: p.z });
    }
    g.tick(12);
    assert.ok(w.resources.size > 10, "the bundled content has resource nodes");
    for (let x = b.minX - 20; x <= b.maxX + 20; x += 7) {
      for (let z = b.minZ - 20; z <= b.maxZ + 20; z += 11) {
        for (const radius of [0, 5, VIEW_RADIUS, VIEW_RADIUS + 3]) {
          const near = (e: { x: number; z: number }) => Math.max(Math.abs(e.x - x), Math.abs(e.z - z)) <= radius;
          const players: string[] = [];
          w.forEachPlayerNear({ x, z }, radius, (p) => players.push(p.id));
          assert.deepEqual(
            players.sort(),
            [...w.players.values()]
              .filter(near)
              .map((p) => p.id)
              .sort(),
          );
          const found: string[] = [];
          w.forEachEntityNear({ x, z }, "", radius, (e) => found.push(e.id));
          const expected = [...w.npcs.values(), ...w.resources.values(), ...w.places.values()]
            .filter((e) => near(e) && !("deadUntil" in e && e.deadUntil !== 0))
            .map((e) => e.id);
          assert.deepEqual(found.sort(), expected.sort(), `entities within ${radius} of ${x},${z}`);
        }
      }
    }
  });
});

describe("chat", () => {
  it("reaches the players in view, from the server-given sender, sanitised", () => {
    const w = world();
    const a = w.addPlayer(playerData({ name: "Alice" }));
    const b = w.addPlayer(playerData({ x: 5 }));
    const far = w.addPlayer(playerData({ x: 40 }));
    send(w, a.id, "player:chat", { message: "  hello\u0007 there\u202e  " });
    w.step();
    const msgs = w.drainOutbox().filter((m) => m.type === "chat:message");
    assert.deepEqual(msgs.map((m) => m.to).sort(), [a.id, b.id].sort());
    const data = msgs[0]!.data as Record<string, unknown>;
    assert.equal(data.message, "hello there");
    assert.equal(data.fromId, a.id);
    assert.equal(data.fromName, "Alice");
    assert.equal(data.channel, "local");
    assert.ok(!msgs.some((m) => m.to === far.id));
  });

  it("refuses empty and over-long messages", () => {
    const w = world();
    const a = w.addPlayer(playerData());
    send(w, a.id, "player:chat", { message: " \u0000\u0001 " });
    send(w, a.id, "player:chat", { message: "x".repeat(256) });
    w.step();
    const out = w.drainOutbox();
    assert.equal(out.filter((m) => m.type === "error").length, 2);
    assert.equal(out.filter((m) => m.type === "chat:message").length, 0);
    assert.equal(sanitizeChat("a\u0000b\tc\nd"), "abcd");
  });

  it(`limits a player to ${CHAT_LIMIT} messages in the window`, () => {
    const w = world();
    const a = w.addPlayer(playerData());
    // One a tick (the per-tick cap is another rule); the world's clock stands still.
    for (let i = 0; i < CHAT_LIMIT + 2; i++) {
      send(w, a.id, "player:chat", { message: `m${i}` });
      w.step();
    }
    const out = w.drainOutbox();
    assert.equal(out.filter((m) => m.type === "chat:message").length, CHAT_LIMIT);
    assert.equal(out.filter((m) => m.type === "error" && (m.data as { code: string }).code === "RATE_LIMITED").length, 2);
  });

  it("grants the admin role for the right admin code only, privately, and refuses a limited player", () => {
    const w = world([], () => 1_000_000);
    const a = w.addPlayer(playerData());
    send(w, a.id, "player:chat", { message: "/admin wrong" });
    w.step();
    assert.equal(a.role, "player");
    const replies = w.drainOutbox().filter((m) => m.type === "chat:message");
    assert.equal((replies[0]!.data as { channel: string }).channel, "system");
    assert.ok(
      replies.every((m) => m.to === a.id),
      "the attempt is not broadcast",
    );
    // The budgets are the server's (src/auth/adminCode.ts); the game answers its verdict.
    send(w, a.id, "player:chat", { message: "/admin limited" });
    w.step();
    assert.equal(a.role, "player");
    assert.ok(w.drainOutbox().some((m) => m.to === a.id && m.type === "error" && (m.data as { code: string }).code === "RATE_LIMITED"));
    send(w, a.id, "player:chat", { message: "/admin sesame" });
    w.step();
    assert.equal(a.role, "admin");
  });
});

describe("chat: unknown commands", () => {
  it("answers a line starting with / that is no command to its sender alone, and sends it to no one (a typo of /admin would have shown the code)", () => {
    const w = world([], () => 1_000_000);
    const a = w.addPlayer(playerData({ name: "Alice" }));
    const b = w.addPlayer(playerData({ x: 5 }));
    for (const message of ["/amdin sesame", "/help", "/", "/ shrug", "/adminsesame"]) {
      send(w, a.id, "player:chat", { message });
      w.step();
      const out = w.drainOutbox();
      assert.deepEqual(
        out.filter((m) => m.type === "chat:message"),
        [],
        `${message}: nothing said`,
      );
      const errors = out.filter((m) => m.type === "error");
      assert.equal(errors.length, 1, message);
      assert.equal(errors[0]!.to, a.id);
      const err = errors[0]!.data as { code: string; message: string; event: string };
      assert.equal(err.code, "INVALID_PAYLOAD");
      assert.equal(err.event, "player:chat");
      assert.equal(err.message, "That is not a command, so it was not sent. The commands are /admin <code>.", "a player is not told the admins' commands");
      assert.ok(!err.message.includes("sesame"), "the arguments are not echoed");
    }
    assert.equal(a.role, "player");
    // An admin is told its moderation commands too.
    a.role = "admin";
    send(w, a.id, "player:chat", { message: "/kik Bob" });
    w.step();
    const told = w
      .drainOutbox()
      .filter((m) => m.type === "error")
      .map((m) => (m.data as { message: string }).message);
    assert.equal(told.length, 1);
    assert.match(told[0]!, /^That is not a command, so it was not sent\. The commands are \/admin <code>, \/kick, .*\/ban/);
    a.role = "player";
    // A line with a slash further on is chat as before.
    send(w, a.id, "player:chat", { message: "and/or :/" });
    w.step();
    assert.deepEqual(
      w
        .drainOutbox()
        .filter((m) => m.type === "chat:message")
        .map((m) => m.to)
        .sort(),
      [a.id, b.id].sort(),
    );
  });
});

describe("event validation", () => {
  const bad: [string, unknown][] = [
    ["player:move", {}],
    ["player:move", { x: "1", z: 2 }],
    ["player:move", { x: 1.5, z: 2 }],
    ["player:move", { x: 1e308, z: 0 }],
    ["player:move", { x: -1e20, z: 0 }],
    ["player:move", { x: 1, z: 2, run: "yes" }],
    ["player:move", null],
    ["player:chat", { message: 5 }],
    ["player:chat", {}],
  ];
  for (const [type, data] of bad) {
    it(`refuses ${type} ${JSON.stringify(data)}`, () => {
      const r = validateEvent(type, data);
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.code, "INVALID_PAYLOAD");
    });
  }
  it("refuses unknown events", () => {
    assert.deepEqual(validateEvent("player:fly", {}), { ok: false, code: "UNKNOWN_EVENT", message: 'unknown event "player:fly"' });
  });
});
