/**
 * A Colyseus join is two steps: matchmaking reserves a seat in the world room, then the client's
 * socket takes it. The seat waits `SEAT_RESERVATION_S` seconds (README, configuration): a world
 * taking a burst of logins reaches the sockets seconds after it answered the matchmaking.
 */
import assert from "node:assert/strict";
import { Client } from "@colyseus/sdk";
import { startTestServer, type TestServer } from "../support/server.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Reservation = Parameters<Client["consumeSeatReservation"]>[0];

describe("a Colyseus seat reserved by matchmaking (SEAT_RESERVATION_S)", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ DISABLE_RATE_LIMIT: "true", TICK_MS: "50", SEAT_RESERVATION_S: "2" });
  });
  after(async () => {
    await t.close();
  });

  async function reserve(sdk: Client): Promise<Reservation> {
    const res = await sdk.http.post("/matchmake/joinOrCreate/world", { headers: { Accept: "application/json", "Content-Type": "application/json" }, body: {} as never });
    return res.data as Reservation;
  }

  it("is taken by a socket that comes within the setting", async () => {
    const sdk = new Client(t.baseUrl);
    const reservation = await reserve(sdk);
    await sleep(1_000);
    const room = await sdk.consumeSeatReservation(reservation);
    assert.equal(room.roomId, reservation.roomId);
    await room.leave();
  });

  it("is gone once the setting has passed (not Colyseus' 15 s): the socket is refused as expired, and no player was added", async () => {
    const players = () => t.server.world.world.players.size;
    const before = players();
    const sdk = new Client(t.baseUrl);
    const reservation = await reserve(sdk);
    await sleep(2_600);
    await assert.rejects(sdk.consumeSeatReservation(reservation), /seat reservation expired/);
    assert.equal(players(), before);
  });
});
