/**
 * The social service as several processes will run it: three SocialService instances (one per
 * "process", each with its own players and connections) sharing one presence and one database,
 * as processes share Redis presence and PostgreSQL. Nothing passes between them but the presence
 * and the database, so what works here does not depend on a process's memory.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { LocalPresence } from "@colyseus/core";
import { pino } from "pino";
import { FriendRequest, Friendship, User } from "../../entities/index.ts";
import { loadConfig } from "../../src/config/env.ts";
import { openDatabase, type Database } from "../../src/db/orm.ts";
import { FRIENDS_LIMIT } from "../../src/game/clientEvents.ts";
import { checkServerEvent } from "../../src/game/serverEvents.ts";
import { Player } from "../../src/game/world/Player.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import { createCharacter, type StoredPlayer } from "../../src/persistence/players.ts";
import type { SocialError } from "../../src/persistence/social.ts";
import type { Connection } from "../../src/sessions/WorldService.ts";
import { ONLINE_KEY, SocialService } from "../../src/social/SocialService.ts";
import { bundledContent } from "../support/content.ts";
import { forEachDialect } from "../support/dialects.ts";
import { until } from "../support/until.ts";
import { uniqueName } from "./clients.ts";

const ACK_MS = 300;

/**
 * LocalPresence delivering as Redis does: later, not inside publish(), and a copy through JSON,
 * so nothing here can lean on LocalPresence's synchronous delivery of the very same object.
 */
class RedisLikePresence extends LocalPresence {
  override publish(topic: string, data: unknown): this {
    const copy: unknown = JSON.parse(JSON.stringify(data));
    setImmediate(() => super.publish(topic, copy));
    return this;
  }
}
type Event = { type: string; data: Record<string, unknown> };

/** One "process": its social service, its players' connections (recording what they are sent). */
class Node {
  readonly social: SocialService;
  private readonly conns = new Map<string, Connection>();
  constructor(db: Database, world: number) {
    this.social = new SocialService({ db, connectionOf: (id) => this.conns.get(id), logger: pino({ level: "silent" }), world, ackTimeoutMs: ACK_MS });
  }

  /** A character enters this process's world, with a connection (as WorldService.attach does it). */
  async enter(stored: StoredPlayer): Promise<{ player: Player; events: Event[] }> {
    const player = new Player(stored);
    const events: Event[] = [];
    this.conns.set(player.id, {
      transport: "ws",
      send: (type, data) => {
        assert.equal(checkServerEvent(type, data), undefined);
        events.push({ type, data: data as Record<string, unknown> });
      },
      close: () => {},
    });
    const entered = await this.social.hooks.beforeEnter(stored.accountId);
    entered(player);
    return { player, events };
  }

  /** The connection goes; the player stays in the world (lingering). */
  disconnect(player: Player): void {
    this.conns.delete(player.id);
  }

  leave(player: Player): void {
    player.gone = true;
    this.conns.delete(player.id);
    this.social.hooks.left(player);
  }
}

const of = (events: Event[], type: string) => events.filter((e) => e.type === type).map((e) => e.data);
const wait = (events: Event[], type: string, n = 1, what = type) => until(() => (of(events, type).length >= n ? of(events, type) : undefined), what);
const quiet = (ms = 200) => new Promise((r) => setTimeout(r, ms));

forEachDialect("social across processes (shared presence and database)", (ctx) => {
  let db: Database;
  let content: ContentRegistry;
  let presence: RedisLikePresence;
  let nodes: Node[];
  before(async () => {
    db = await openDatabase(loadConfig({ NODE_ENV: "test", DATABASE_URL: ctx.url }), pino({ level: "silent" }));
    content = await bundledContent();
  });
  after(() => db?.close());
  beforeEach(async () => {
    presence = new RedisLikePresence();
    nodes = [new Node(db, 1), new Node(db, 1), new Node(db, 2)];
    for (const n of nodes) await n.social.start(presence);
  });
  afterEach(async () => {
    for (const n of nodes) await n.social.close();
  });

  const character = () => createCharacter(db, content, `acc-${randomUUID()}`, uniqueName("X"));

  /** a (on node i) and b (on node j) become friends through their own processes. */
  async function friends(a: { player: Player; events: Event[] }, i: number, b: { player: Player; events: Event[] }, j: number) {
    await nodes[i]!.social.change(a.player.data.accountId, "social:addFriend", b.player.data.name);
    await wait(b.events, "social:list", 1, "the request, on b's process");
    await nodes[j]!.social.change(b.player.data.accountId, "social:acceptFriend", a.player.data.name);
    await wait(a.events, "social:list", 2, "the acceptance, on a's process");
    await wait(b.events, "social:list", 2);
  }

  it("delivers a private message from one process to a player on another, once, and confirms it to the sender", async () => {
    const a = await nodes[0]!.enter(await character());
    const b = await nodes[1]!.enter(await character());
    await friends(a, 0, b, 1);
    assert.equal((of(b.events, "social:list")[0]!.change as { kind: string }).kind, "requestReceived", "the request reached b's process");
    nodes[0]!.social.privateMessage(a.player, b.player.data.name, "across");
    nodes[0]!.social.privateMessage(a.player, b.player.data.name, "in order");
    const got = await wait(b.events, "social:message", 2);
    assert.deepEqual(
      got.map((m) => [m.from, m.message]),
      [
        [a.player.data.name, "across"],
        [a.player.data.name, "in order"],
      ],
    );
    const sent = await wait(a.events, "social:messageSent", 2);
    assert.deepEqual(
      sent.map((m) => m.id),
      got.map((m) => m.id),
    );
    await quiet(ACK_MS + 100);
    assert.equal(of(b.events, "social:message").length, 2, "once each");
    assert.deepEqual(of(a.events, "error"), [], "and no late PLAYER_OFFLINE after the wait");
  });

  it("tells friends on other processes of a login, a hop to another world, and a logout", async () => {
    const a = await nodes[0]!.enter(await character());
    const bStored = await character();
    const b = await nodes[1]!.enter(bStored);
    await friends(a, 0, b, 1);
    nodes[1]!.leave(b.player);
    const [offline] = await wait(a.events, "social:status");
    assert.deepEqual(offline, { accountId: bStored.accountId, name: bStored.name, online: false, world: null });

    const b1 = await nodes[1]!.enter(bStored);
    assert.deepEqual((await wait(a.events, "social:status", 2))[1], { accountId: bStored.accountId, name: bStored.name, online: true, world: 1 });
    // A hop: the character is now on world 2 (node 2), then the world-1 copy goes: no offline in between or after.
    await nodes[2]!.enter(bStored);
    assert.deepEqual((await wait(a.events, "social:status", 3))[2], { accountId: bStored.accountId, name: bStored.name, online: true, world: 2 });
    nodes[1]!.leave(b1.player);
    await quiet();
    assert.equal(of(a.events, "social:status").length, 3, "the old process says nothing once the new one holds the character");
    assert.deepEqual(JSON.parse(await presence.hget(ONLINE_KEY, bStored.accountId)).world, 2);
    const lists = await nodes[0]!.social.lists(a.player.data.accountId);
    assert.deepEqual(lists.friends, [{ accountId: bStored.accountId, name: bStored.name, online: true, world: 2 }]);
  });

  it("answers PLAYER_OFFLINE when the recipient's process holds the character without a connection", async () => {
    const a = await nodes[0]!.enter(await character());
    const b = await nodes[1]!.enter(await character());
    await friends(a, 0, b, 1);
    nodes[1]!.disconnect(b.player);
    nodes[0]!.social.privateMessage(a.player, b.player.data.name, "hello?");
    const [error] = await wait(a.events, "error");
    assert.deepEqual([error!.code, error!.event], ["PLAYER_OFFLINE", "social:sendMessage"]);
    assert.deepEqual(of(a.events, "social:messageSent"), []);
  });

  it("answers PLAYER_OFFLINE after the wait when the process listed as holding the recipient is gone", async () => {
    const a = await nodes[0]!.enter(await character());
    const b = await nodes[1]!.enter(await character());
    await friends(a, 0, b, 1);
    // b's process was killed: its listing stays, nobody listens on b's channel.
    nodes[1]!.disconnect(b.player);
    await nodes[1]!.social.close();
    await presence.hset(ONLINE_KEY, b.player.data.accountId, JSON.stringify({ node: "killed", characterId: b.player.id, name: b.player.data.name, world: 1 }));
    const started = Date.now();
    nodes[0]!.social.privateMessage(a.player, b.player.data.name, "anyone?");
    const [error] = await wait(a.events, "error");
    assert.equal(error!.code, "PLAYER_OFFLINE");
    assert.ok(Date.now() - started >= ACK_MS - 20, "only once the wait ran out");
  });

  it("refreshes a live player's ignore set when its account's list is changed on another process", async () => {
    const a = await nodes[0]!.enter(await character());
    const c = await character();
    await nodes[2]!.social.change(a.player.data.accountId, "social:addIgnore", c.name);
    const [list] = await wait(a.events, "social:list");
    assert.equal((list!.change as { kind: string }).kind, "ignoreAdded");
    assert.ok(a.player.ignored.has(c.accountId));
  });

  it("counts a limit in the database: two processes asking for the last place at once, one gets it", async () => {
    const a = await character();
    const [b, c] = [await character(), await character()];
    // Every account has its users row (the Authenticator makes it): the rows a change locks.
    await db.em().insertMany(
      User,
      [a, b, c].map((x) => ({ id: x.accountId })),
    );
    await db.em().insertMany(
      Friendship,
      Array.from({ length: FRIENDS_LIMIT - 1 }, () => ({ accountId: a.accountId, friendAccountId: `filler-${randomUUID()}` })),
    );
    const outcomes = await Promise.allSettled([
      nodes[0]!.social.change(a.accountId, "social:addFriend", b.name),
      nodes[1]!.social.change(a.accountId, "social:addFriend", c.name),
    ]);
    assert.deepEqual(outcomes.map((o) => o.status).sort(), ["fulfilled", "rejected"]);
    const refused = outcomes.find((o) => o.status === "rejected")!.reason as SocialError;
    assert.equal(refused.code, "FRIENDS_FULL");
    assert.equal(await db.em().count(FriendRequest, { fromAccountId: a.accountId }), 1);
  });

  it("tells friends at shutdown that its players are gone", async () => {
    const a = await nodes[0]!.enter(await character());
    const b = await nodes[1]!.enter(await character());
    await friends(a, 0, b, 1);
    await nodes[1]!.social.close();
    const [status] = await wait(a.events, "social:status");
    assert.deepEqual([status!.accountId, status!.online], [b.player.data.accountId, false]);
    assert.equal(await presence.hget(ONLINE_KEY, b.player.data.accountId), null);
  });
});
