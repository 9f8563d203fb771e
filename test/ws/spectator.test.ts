/**
 * `/ws?spectate=<characterId>` (src/ws/spectator.ts): the character's owner (and no one else) may
 * watch it, sees what the character sees as it moves, cannot act (every event: SPECTATOR, nothing
 * changes), is no player and takes nothing over, and is closed when the character leaves.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WsTestClient, type WsEvent } from "../support/wsClient.ts";

describe("/ws spectators", function () {
  this.timeout(30_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ TICK_MS: "50" });
  });
  after(async () => {
    await t.close();
  });

  /** A new anonymous player: its socket, character id and token. */
  async function player(name: string): Promise<{ client: WsTestClient; id: string; token: string }> {
    const client = await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
    const welcome = await client.next("welcome");
    await client.next("player:sync");
    return { client, id: String(welcome.characterId), token: String(welcome.token) };
  }

  /** The entity `id` in the spectator's next `world:update`s, until `ok` holds for it. */
  async function seen(spectator: WsTestClient, id: string, ok: (e: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const update = await spectator.next("world:update");
      const e = (update.entities as Record<string, unknown>[]).find((x) => x.id === id);
      if (e !== undefined && ok(e)) return e;
    }
  }

  it("the owner watches the character move; the spectator's events are refused and change nothing", async () => {
    const owner = await player("Watched");
    const live = t.server.world.world.players.get(owner.id)!;
    const conn = t.server.world.connectionOf(owner.id);
    const online = t.server.world.onlineCount;
    const spectator = await WsTestClient.connect(`${t.wsUrl}?token=${owner.token}&spectate=${owner.id}`);
    const started = await spectator.next("spectate:started");
    assert.deepEqual([started.characterId, started.name], [owner.id, "Watched"]);
    const first = await seen(spectator, owner.id, () => true);
    assert.deepEqual([first.x, first.z], [live.data.x, live.data.z], "the character's own entity, where it stands");
    assert.equal(t.server.world.onlineCount, online, "a spectator is not a player");
    assert.equal(t.server.world.connectionOf(owner.id), conn, "the character's session is untouched");
    assert.equal(owner.client.closed, undefined);

    // A spectator cannot act: each event is refused, the character stays where it is.
    const before = { x: live.data.x, z: live.data.z, inventory: JSON.stringify(live.data.inventory) };
    for (const [type, data] of [
      ["player:move", { x: before.x + 2, z: before.z }],
      ["player:action", { action: "drop", slot: 0 }],
      ["player:chat", { message: "hello" }],
      ["nonsense:event", {}],
    ] as const) {
      spectator.send(type, data);
      const error = await spectator.next("error");
      assert.deepEqual([error.code, error.event], ["SPECTATOR", type]);
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual({ x: live.data.x, z: live.data.z, inventory: JSON.stringify(live.data.inventory) }, before, "nothing changed");
    assert.equal(live.moveTarget, undefined);

    // The character keeps playing while watched, and the spectator sees it move.
    owner.client.send("player:move", { x: before.x + 2, z: before.z });
    const moved = await seen(spectator, owner.id, (e) => e.x === before.x + 2);
    assert.equal(moved.z, before.z);
    assert.equal(live.data.x, before.x + 2);
    assert.equal(owner.client.events.filter((e: WsEvent) => e.type === "error").length, 0, "the player heard no refusal");

    // The character logs out: the spectator is told and closed.
    owner.client.socket.close(1000);
    assert.equal((await spectator.next("spectate:ended")).reason, "offline");
    assert.equal((await spectator.waitClosed()).code, 1000);
  });

  it("a stranger's token and a character not in the world are refused", async () => {
    const owner = await player("Private");
    const stranger = await player("Stranger");
    const refused = await WsTestClient.connect(`${t.wsUrl}?token=${stranger.token}&spectate=${owner.id}`);
    const error = await refused.next("error");
    assert.equal(error.code, "FORBIDDEN");
    assert.equal((await refused.waitClosed()).code, 4003);
    const nobody = await WsTestClient.connect(`${t.wsUrl}?token=${owner.token}&spectate=no-such-character`);
    assert.equal((await nobody.next("error")).code, "NOT_ONLINE");
    assert.equal((await nobody.waitClosed()).code, 4004);
    assert.equal(t.server.world.connectionOf(owner.id) !== undefined, true, "the owner's session goes on");
    owner.client.close();
    stranger.client.close();
  });
});
