/**
 * The world room's encoder works with large buffers; every other room with the library's default.
 *
 * `Encoder.BUFFER_SIZE` is one static of @colyseus/schema, read at two moments:
 * - when a room is made: its encoder and its serializer each allocate a zero-filled buffer of that
 *   size. Raised for the world (512 KiB), it made every trade room allocate 1 MiB: ~200 MB/s of
 *   garbage at 200 trades a second (bench/README.md, "trade").
 * - while encoding: the encoder keeps that much free room past its offset (`ensureCapacity`) before
 *   it writes a tree's queued view changes with no bounds check (`encodeView`; writes past a typed
 *   array's end are dropped). The world's patches go to every view one after another into one
 *   buffer, and a view given hundreds of players at once (a join or a teleport into a crowd: one
 *   map entry of ~45 bytes each) needs more than the default's 16 KiB: with it, such a view's
 *   patch is cut short and its client decodes a fraction of the players, silently.
 *
 * So the static stays at the default, and {@link useWorldBuffers} gives the world room's encoder and
 * serializer their own large buffers and raises the static for the time each of its encoder's
 * entry points runs (JavaScript runs one at a time: no other room encodes or is made meanwhile).
 */
import { Protocol } from "@colyseus/core";
import { Encoder } from "@colyseus/schema";

/** The world's buffers, and the free room its encoding keeps ahead. */
export const WORLD_BUFFER_BYTES = 512 * 1024;

/** What of Colyseus' SchemaSerializer this touches. */
export interface WorldSerializer {
  encoder: Encoder;
  fullEncodeBuffer: Uint8Array;
}

/** The encoder's methods the serializer calls (patches, and full states for joins). */
const ENTRY_POINTS = ["encode", "encodeView", "encodeAll", "encodeAllView"] as const;

/**
 * Large buffers for the world room's serializer and its encoder's work (see the file comment). Call
 * it after any other wrapping of the encoder's methods, so that it is the outermost.
 */
export function useWorldBuffers(serializer: WorldSerializer): void {
  const encoder = serializer.encoder;
  encoder.sharedBuffer = new Uint8Array(WORLD_BUFFER_BYTES);
  // A full state's first byte is its message type, written once by the serializer's reset.
  serializer.fullEncodeBuffer = new Uint8Array(WORLD_BUFFER_BYTES);
  serializer.fullEncodeBuffer[0] = Protocol.ROOM_STATE;
  for (const name of ENTRY_POINTS) {
    const inner = (encoder[name] as (...args: unknown[]) => Uint8Array).bind(encoder);
    (encoder as unknown as Record<string, (...args: unknown[]) => Uint8Array>)[name] = (...args) => {
      const before = Encoder.BUFFER_SIZE;
      Encoder.BUFFER_SIZE = WORLD_BUFFER_BYTES;
      try {
        return inner(...args);
      } finally {
        Encoder.BUFFER_SIZE = before;
      }
    };
  }
}
