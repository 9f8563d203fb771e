/**
 * The world room through `@colyseus/testing`, as the Colyseus app template tests rooms: a
 * `ColyseusTestServer` over the real, listening server (startTestServer), `connectTo` the world
 * room the server created, and the synced state and the room's patches.
 *
 * `ColyseusTestServer` is imported from `@colyseus/testing/TestServer`, not the package's index:
 * the index also loads `@colyseus/tools` (for `boot`), which on import reads `/etc/environment`
 * (overriding variables) and `.env` files into this process's environment, which every other
 * suite in the mocha process shares. `boot(server)` would also listen on a fixed port (2568);
 * the server listens on its own ephemeral one already.
 */
/* eslint-disable no-console -- the SDK warns on console.warn for messages that arrive before a handler: captured here */
import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import type { Room as ClientRoom } from "@colyseus/sdk";
import { ColyseusTestServer } from "@colyseus/testing/TestServer";
import { findPath } from "../../src/game/map/pathfinding.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

interface SyncedPlayer {
  id: string;
  name: string;
  x: number;
  z: number;
}

async function api<T>(t: TestServer, method: string, p: string, token?: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(t.baseUrl + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  assert.ok(res.ok, `${method} ${p}: ${res.status}`);
  return (await res.json()) as T;
}

/** A walkable tile a few steps from `from`, reachable by a path of at most `steps` tiles. */
function tileNear(t: TestServer, from: { x: number; z: number }, steps: number): { x: number; z: number } {
  const world = t.server.world.world;
  for (let dx = -steps; dx <= steps; dx++) {
    for (let dz = -steps; dz <= steps; dz++) {
      if (Math.max(Math.abs(dx), Math.abs(dz)) < 2) continue;
      const target = { x: from.x + dx, z: from.z + dz };
      const r = findPath(world.collision, from, target);
      if (r.ok && r.reachesTarget && r.path.length <= steps) return target;
    }
  }
  throw new Error("no reachable tile near the player");
}

function syncedPlayer(client: ClientRoom, id: string): SyncedPlayer | undefined {
  const state = client.state as { players: { get(id: string): SyncedPlayer | undefined } };
  return state.players.get(id);
}

describe("the world room through @colyseus/testing", function () {
  this.timeout(30_000);
  let t: TestServer;
  let colyseus: ColyseusTestServer;
  const warn = console.warn;

  before(async () => {
    t = await startTestServer({ TICK_MS: "50", DISABLE_RATE_LIMIT: "true" });
    // ColyseusTestServer reads the port the Colyseus server was told to listen on: 0 here (any
    // free port), so it is given the one the HTTP server actually got.
    t.server.colyseus["port"] = t.server.port;
    colyseus = new ColyseusTestServer(t.server.colyseus);
  });
  after(async () => {
    console.warn = warn;
    await t?.close();
  });

  it("connects a player to the server's world room, which syncs its position, and a move changes it", async () => {
    const { token } = await api<{ token: string }>(t, "POST", "/api/auth/anonymous");
    const created = await api<{ player: { characterId: string } }>(t, "POST", "/api/v1/player", token, { name: "Template Tester" });
    const id = created.player.characterId;

    // The server creates the one world room at startup (clients cannot create it): join it by id.
    const [listing] = await matchMaker.query({ name: "world" });
    assert.ok(listing, "the server's world room is listed");
    const room = colyseus.getRoomById(listing.roomId);

    // welcome, player:sync and quest:list (sent at login) arrive while connectTo waits for the
    // initial state, before any handler can be registered: the SDK warns about each
    // (test/world/sdkClient.test.ts).
    const warnings: string[] = [];
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
    let client: ClientRoom;
    try {
      client = await colyseus.connectTo(room, { token });
    } finally {
      console.warn = warn;
    }
    assert.ok(warnings.every((w) => /onMessage\(\) not registered for type '(welcome|player:sync|quest:list)'/.test(w)), warnings.join("\n"));

    const messages: string[] = [];
    client.onMessage("*", (type) => void messages.push(String(type)));

    // The initial state is there once connectTo resolves: the player, where the server has it.
    const position = (await api<{ position: { x: number; z: number }; online: boolean }>(t, "GET", `/api/characters/${id}/position`, token)).position;
    const me = syncedPlayer(client, id);
    assert.ok(me, "the player is in the synced state");
    assert.equal(me.name, "Template Tester");
    assert.deepEqual({ x: me.x, z: me.z }, { x: position.x, z: position.z });

    // A move: the room's patches carry the walk to the client, tile by tile, to the target.
    const target = tileNear(t, position, 6);
    client.send("player:move", target);
    const deadline = Date.now() + 10_000;
    const seen: string[] = [];
    for (;;) {
      await room.waitForNextPatch();
      await client.waitForNextPatch();
      const p = syncedPlayer(client, id)!;
      seen.push(`${p.x},${p.z}`);
      if (p.x === target.x && p.z === target.z) break;
      assert.ok(Date.now() < deadline, `the synced player did not reach ${target.x},${target.z}: ${seen.join(" ")}`);
    }
    assert.ok(new Set(seen).size >= 2, `walked over several tiles: ${seen.join(" ")}`);
    const after = (await api<{ position: { x: number; z: number } }>(t, "GET", `/api/characters/${id}/position`, token)).position;
    assert.deepEqual({ x: after.x, z: after.z }, target, "the server has it where the client sees it");
    assert.ok(!messages.includes("error"), `no error: ${messages.join(", ")}`);

    await client.leave();
  });
});
