/**
 * The run toggle across a logout and a restart, on both databases, through the real server and the
 * game's own events (docs/playtest.md 2026-11-29: run switched on before logging out was off after
 * logging back in): a player switches run on (`player:setRun`), the server shuts down (its
 * shutdown save), a new one starts on the same database, and the player logs back in running
 * (column `runMode`, migration `…_run_mode`); switched off, it stays off the same way. Auto Retaliate
 * (`player:setAutoRetaliate`, column `autoRetaliate`) is kept the same way.
 */
import assert from "node:assert/strict";
import { callJson as call } from "../support/http.ts";
import { forEachDialect } from "../support/dialects.ts";
import { restartableServers } from "../support/restarts.ts";
import type { TestServer } from "../support/server.ts";
import { until } from "../support/until.ts";
import { WsTestClient } from "../support/wsClient.ts";

forEachDialect("the run toggle across a restart", (ctx) => {
  const { start, last } = restartableServers(() => ctx.url, "run-mode-test-secret-of-at-least-32-bytes!");

  const login = async (t: TestServer, token: string, characterId: string) => {
    const ws = await WsTestClient.connect(`${t.wsUrl}?token=${token}`);
    await ws.next("welcome");
    const player = await until(() => t.server.world.world.players.get(characterId), "the player in the world");
    const sync = await ws.next("player:sync");
    return { ws, player, sync };
  };
  /** Switches run on or off with the game's event, restarts the server, and logs the player back in. */
  const setAndRestart = async (t: TestServer, session: Awaited<ReturnType<typeof login>>, token: string, characterId: string, run: boolean) => {
    session.ws.send("player:setRun", { run });
    // Auto Retaliate the other way (on by default): off while run is on, on again with it off.
    session.ws.send("player:setAutoRetaliate", { on: !run });
    await until(() => (session.player.runMode === run ? true : undefined), `run ${run ? "on" : "off"} on the server`);
    await until(() => (session.player.autoRetaliate === !run ? true : undefined), `auto retaliate ${run ? "off" : "on"} on the server`);
    await t.close();
    await session.ws.waitClosed().catch(() => {});
    return login(await start(), token, characterId);
  };

  it("keeps run on after logging back in, and off once switched off", async function () {
    this.timeout(90_000);
    const first = await start();
    const { body: anon } = await call(first.baseUrl, "POST", "/api/auth/anonymous");
    const token = String(anon.token);
    const created = await call(first.baseUrl, "POST", "/api/v1/player", token, { name: "Sprinter" });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const characterId = String(created.body.player.characterId);

    const on = await setAndRestart(first, await login(first, token, characterId), token, characterId, true);
    assert.equal(on.player.runMode, true, "run on after the restart");
    assert.equal(on.sync.runMode, true, "and the client told so");
    assert.equal(on.player.autoRetaliate, false, "Auto Retaliate off after the restart");
    assert.equal(on.sync.autoRetaliate, false);

    const off = await setAndRestart(last(), on, token, characterId, false);
    assert.equal(off.player.runMode, false, "off stays off");
    assert.equal(off.sync.runMode, false);
    assert.equal(off.player.autoRetaliate, true);
    assert.equal(off.sync.autoRetaliate, true);
    off.ws.close();
  });
});
