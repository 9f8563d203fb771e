/**
 * The world room's encoding with its own large buffers (rooms/worldBuffers.ts), while every other
 * room keeps the library's default: views given 2,000 players in one patch (five clients joining a
 * crowd in one tick) each decode all of them, as the room encodes them (one buffer for every
 * view's patch in turn, the server's views and visible-changes index).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Decoder, Encoder, type StateView } from "@colyseus/schema";
import { indexVisibleChanges } from "../../rooms/visibleChanges.ts";
import { useWorldBuffers, WORLD_BUFFER_BYTES } from "../../rooms/worldBuffers.ts";
import { WorldView } from "../../rooms/WorldView.ts";
import { PlayerState, WorldState } from "../../schema/WorldState.ts";

const DEFAULT_BUFFER = 16 * 1024;

/** `joiners` views, each given all `players` in one patch: how many players each decodes right. */
function joinCrowd(world: boolean, players: number, joiners: number): number[] {
  const state = new WorldState();
  const serializer = { encoder: new Encoder(state), fullEncodeBuffer: new Uint8Array(DEFAULT_BUFFER) };
  indexVisibleChanges(serializer.encoder);
  if (world) useWorldBuffers(serializer);
  const encoder = serializer.encoder;
  for (let i = 0; i < players; i++) {
    const id = randomUUID();
    state.players.set(id, new PlayerState({ id, name: `P${i}`, x: i % 30, z: i % 29, health: 10, maxHealth: 10 }));
  }
  encoder.encode({ offset: 1 });
  encoder.discardChanges();

  // Each joins with the full state of its (empty) view, then its view is given everyone.
  const clients: { view: StateView; decoder: Decoder<WorldState> }[] = [];
  for (let j = 0; j < joiners; j++) {
    const view = new WorldView();
    const decoder = new Decoder(new WorldState());
    const it = { offset: 0 };
    encoder.encodeAll(it);
    decoder.decode(encoder.encodeAllView(view, it.offset, { ...it }));
    for (const p of state.players.values()) view.add(p);
    clients.push({ view, decoder });
  }
  // One patch, as SchemaSerializer.applyPatches writes it: the views' parts one after another.
  state.tick = 1;
  const it = { offset: 1 };
  encoder.encode(it);
  const shared = it.offset;
  const decoded: number[] = [];
  for (const { view, decoder } of clients) {
    const bytes = encoder.encodeView(view, shared, it);
    try {
      decoder.decode(bytes.subarray(1));
    } catch {
      // A patch cut short may not decode at all: what it holds is counted below.
    }
    let right = 0;
    for (const [id, p] of decoder.state.players) if (p.id === id && p.name !== "") right++;
    decoded.push(right);
  }
  encoder.discardChanges();
  return decoded;
}

describe("the world room's encoder buffers", function () {
  this.timeout(60_000);

  it("gives five views joining a crowd of 2,000 in one tick every player, and leaves the library's default for other rooms", () => {
    assert.equal(Encoder.BUFFER_SIZE, DEFAULT_BUFFER);
    assert.deepEqual(joinCrowd(true, 2_000, 5), [2_000, 2_000, 2_000, 2_000, 2_000]);
    assert.equal(Encoder.BUFFER_SIZE, DEFAULT_BUFFER, "the static is the default again after the world's encoding");
    assert.equal(new Encoder(new WorldState()).sharedBuffer.byteLength, DEFAULT_BUFFER, "a room made after it gets the default");
  });

  it("(the reason) the library alone, at its default, cuts such a patch short without a word", () => {
    const decoded = joinCrowd(false, 2_000, 5);
    assert.ok(
      decoded.some((n) => n < 2_000),
      `with 16 KiB of room ahead some views lose players (decoded ${decoded.join(", ")}); if none does, the library bounds its writes and worldBuffers.ts's raise could go`,
    );
  });

  it("keeps the world's buffers at their size", () => {
    const serializer = { encoder: new Encoder(new WorldState()), fullEncodeBuffer: new Uint8Array(DEFAULT_BUFFER) };
    useWorldBuffers(serializer);
    assert.equal(serializer.encoder.sharedBuffer.byteLength, WORLD_BUFFER_BYTES);
    assert.equal(serializer.fullEncodeBuffer.byteLength, WORLD_BUFFER_BYTES);
  });
});
