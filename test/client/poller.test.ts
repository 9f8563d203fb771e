/**
 * The dashboard's panel poller (client/src/dashboard/poller.ts) on Node's mocked timers and clock:
 * when a stopped poller that starts again polls (a card scrolled out of view and back, a page
 * hidden and shown). The dashboard's own test drives it in Chromium.
 */
import assert from "node:assert/strict";
import { mock } from "node:test";
import { Poller } from "../../client/src/dashboard/poller.ts";

/** Lets the poll's promise chain settle (setImmediate is not mocked). */
const settle = () => new Promise((r) => setImmediate(r));

describe("dashboard poller", () => {
  let runs: number;
  let fail: boolean;
  let poller: Poller;
  beforeEach(() => {
    mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_000_000 });
    runs = 0;
    fail = false;
    poller = new Poller({
      everyMs: 10_000,
      run: async () => {
        runs++;
        if (fail) throw new Error("down");
      },
      report: () => {},
    });
  });
  afterEach(() => {
    poller.stop();
    mock.timers.reset();
  });

  it("started again within its interval of the last good poll, polls when that is due, not at once", async () => {
    poller.start();
    await settle();
    assert.equal(runs, 1, "the first start polls at once");
    mock.timers.tick(3_000);
    poller.stop();
    poller.start();
    await settle();
    assert.equal(runs, 1, "back within the interval: no poll yet");
    mock.timers.tick(6_999);
    await settle();
    assert.equal(runs, 1);
    mock.timers.tick(1);
    await settle();
    assert.equal(runs, 2, "due 10 s after the last poll");
    mock.timers.tick(10_000);
    await settle();
    assert.equal(runs, 3, "then on its interval");
  });

  it("started again after its interval has passed, polls at once", async () => {
    poller.start();
    await settle();
    poller.stop();
    mock.timers.tick(60_000);
    await settle();
    assert.equal(runs, 1, "a stopped poller does not poll");
    poller.start();
    await settle();
    assert.equal(runs, 2);
  });

  it("after a failed poll, starting again retries at once", async () => {
    fail = true;
    poller.start();
    await settle();
    assert.equal(runs, 1);
    poller.stop();
    fail = false;
    poller.start();
    await settle();
    assert.equal(runs, 2, "a failure is retried at once, whatever its interval");
  });
});
