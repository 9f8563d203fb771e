/**
 * The server asks the kernel to hold LISTEN_BACKLOG connections it has not accepted yet (see
 * src/server.ts): a burst of logins at a loaded world waits in that queue instead of being
 * dropped and retried. `ss` reads the listening socket's backlog (its Send-Q column).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { LISTEN_BACKLOG } from "../../src/server.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

describe("the server's listen backlog", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it(`is ${LISTEN_BACKLOG} (as far as net.core.somaxconn allows), not Node's 511`, () => {
    const port = new URL(t.baseUrl).port;
    const line = execFileSync("ss", ["-ltnH", `sport = :${port}`], { encoding: "utf8" }).trim();
    const backlog = Number(line.split(/\s+/)[2]);
    const cap = Number(fs.readFileSync("/proc/sys/net/core/somaxconn", "utf8"));
    assert.equal(backlog, Math.min(LISTEN_BACKLOG, cap), `ss: ${line}`);
    assert.ok(backlog > 511, `ss: ${line}`);
  });
});
