/**
 * Preloaded into a server process by a test (`node --import`): SIGUSR2 disposes the world room as
 * a bug (or a stray `disconnect()`) would, so the test can watch the process end instead of going
 * on without a world.
 */
import { matchMaker } from "@colyseus/core";

process.on("SIGUSR2", () => {
  void (async () => {
    for (const listing of await matchMaker.query({ name: "world" })) await matchMaker.getLocalRoomById(listing.roomId)?.disconnect();
  })();
});
