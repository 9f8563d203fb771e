/**
 * How the monitor's client list names a world room's players. Its panel shows one column of a
 * client, its `sessionId`, and sends that same string back to its disconnect button; so the
 * player's name goes into it, with the session id in brackets where the server finds it again:
 * `Name (ws:<character id>)` for a `/ws` player, `Name (<Colyseus session id>)` for a Colyseus
 * client. A bare session id (an API caller's) is taken as it is.
 */

/** The monitor's row id of a player: its name and its session id. */
export function monitorLabel(name: string | null | undefined, sessionId: string): string {
  return name ? `${name} (${sessionId})` : sessionId;
}

/** The session id a monitor row names (the last bracketed part of a label, or the whole of a bare id). */
export function sessionOfLabel(label: string): string {
  const m = /\(([^()]*)\)$/.exec(label);
  return m === null ? label : m[1]!;
}
