/**
 * When a tick's updates leave (TICK_WRITES, README "configuration"; WorldRoom.tickOnce): every
 * socket is corked for the tick and written when uncorked, once a tick. The Colyseus patches are
 * written N sockets at a time as soon as N are encoded (`each` is 1); `burst` writes every socket
 * once all patches are encoded, the `/ws` ones first: the default.
 */
import assert from "node:assert/strict";
import type { Encoder } from "@colyseus/schema";
import { matchMaker } from "@colyseus/core";
import type { Connection } from "../../src/sessions/WorldService.ts";
import { WORLD_ROOM, type WorldRoom } from "../../rooms/WorldRoom.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WorldTestClient } from "../support/colyseusClient.ts";
import { WsTestClient } from "../support/wsClient.ts";
import { until } from "../support/until.ts";

type Entry = { tick: number; what: "encode" | "encoded" } | { tick: number; what: "write"; transport: Connection["transport"]; conn: Connection };

/** Per setting: the Colyseus sockets written before the second and before the third patch is encoded (of three). */
const SETTINGS = [
  { env: undefined, before2nd: 0, before3rd: 0, what: "the default (burst): every patch encoded, then the /ws sockets, then the Colyseus ones" },
  { env: "burst", before2nd: 0, before3rd: 0, what: "burst: every patch encoded, then the /ws sockets, then the Colyseus ones" },
  { env: "each", before2nd: 1, before3rd: 2, what: "each: a Colyseus socket as soon as its patch is encoded" },
  { env: "2", before2nd: 0, before3rd: 2, what: "2: the first two sockets once their two patches are encoded" },
] as const;

for (const setting of SETTINGS) {
  describe(`a tick's writes, TICK_WRITES=${setting.env ?? "(unset)"}`, function () {
    this.timeout(20_000);
    let t: TestServer;
    const log: Entry[] = [];
    const clients: { close(): unknown }[] = [];
    before(async () => {
      t = await startTestServer({ TICK_MS: "50", ...(setting.env === undefined ? {} : { TICK_WRITES: setting.env }) });
    });
    after(async () => {
      for (const c of clients) await c.close();
      await t.close();
    });

    it(`writes each socket once a tick; ${setting.what}`, async () => {
      for (const name of ["Cora", "Colm", "Cleo"]) {
        const c = await WorldTestClient.join(t.baseUrl, { name });
        clients.push({ close: () => c.room.leave() });
      }
      for (const name of ["Wren", "Wade"]) {
        const w = await WsTestClient.connect(`${t.wsUrl}?name=${name}`);
        await w.next("welcome");
        clients.push(w);
      }
      const service = t.server.world;
      const connections = () => [...service.world.players.keys()].flatMap((id) => service.connectionOf(id) ?? []);
      await until(() => (connections().length === 5 ? true : undefined), "five connections");
      const room = (await matchMaker.query({ name: WORLD_ROOM }))[0]!;
      const world = matchMaker.getLocalRoomById(room.roomId) as WorldRoom;
      // Logs the encoder's views and every connection's uncork (its write of the tick; a socket
      // uncorked again writes nothing more).
      const encoder = (world as unknown as { _serializer: { encoder: Encoder } })._serializer.encoder;
      const encodeView = encoder.encodeView.bind(encoder);
      encoder.encodeView = (...args) => {
        log.push({ tick: service.world.tick, what: "encode" });
        try {
          return encodeView(...args);
        } finally {
          log.push({ tick: service.world.tick, what: "encoded" });
        }
      };
      for (const conn of connections()) {
        const uncork = conn.uncork!.bind(conn);
        conn.uncork = () => {
          log.push({ tick: service.world.tick, what: "write", transport: conn.transport, conn });
          uncork();
        };
      }
      const first = service.world.tick + 1;
      await until(() => (service.world.tick >= first + 5 ? true : undefined), "five ticks");

      const ticks = [...new Set(log.map((e) => e.tick))].filter((tick) => tick >= first && tick < first + 5);
      assert.ok(ticks.length >= 4, `ticks logged: ${ticks.join(", ")}`);
      for (const tick of ticks) {
        const entries = log.filter((e) => e.tick === tick);
        const kinds = entries.map((e) => (e.what === "write" ? e.transport : e.what));
        const said = `tick ${tick}: ${kinds.join(" ")}`;
        const written = entries.flatMap((e) => (e.what === "write" ? [e.conn] : []));
        assert.equal(new Set(written).size, 5, `every connection written (${said})`);
        const encoded = kinds.flatMap((k, i) => (k === "encoded" ? [i] : []));
        assert.equal(encoded.length, 3, `three patches (${said})`);
        const colyseusBefore = (end: number) => kinds.slice(0, end).filter((k) => k === "colyseus").length;
        assert.equal(colyseusBefore(encoded[1]!), setting.before2nd, `Colyseus sockets written before the second patch is encoded (${said})`);
        assert.equal(colyseusBefore(encoded[2]!), setting.before3rd, `Colyseus sockets written before the third patch is encoded (${said})`);
        if (setting.before3rd === 0) {
          // Nothing written until every patch is encoded: then the /ws sockets, then the Colyseus ones, once each.
          assert.deepEqual(kinds.slice(encoded[2]! + 1), ["ws", "ws", "colyseus", "colyseus", "colyseus"], said);
        }
      }
    });
  });
}
