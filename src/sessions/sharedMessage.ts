/**
 * A message from the outbox to many players at once (a chat line or a hit to everyone in view):
 * each transport's encoding is made by the first connection of that transport that sends it, and
 * the others send the same frame (the socket process's outbox then writes it once for all of them,
 * see src/io/protocol.ts).
 */
export interface SharedMessage {
  readonly type: string;
  readonly data: object;
  /** Colyseus' `ROOM_DATA` bytes of it, once made. */
  colyseus: Uint8Array | undefined;
  /** The `/ws` envelope of it, once made. */
  ws: string | undefined;
}
