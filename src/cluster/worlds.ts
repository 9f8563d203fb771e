/**
 * The world list: one `world` room per process, numbered (WORLD_ID), each publishing its players,
 * capacity, status and addresses as its room listing's metadata (WorldRoom), which Colyseus'
 * driver shares between processes (Redis in a cluster). The matchmaker routes a join with
 * `{world: n}` to that world's room through `filterBy(["world"])`; a join without a choice goes
 * to the world of the highest {@link worldRank}: the fullest one below {@link FILL_TARGET} of its
 * capacity, else the emptiest.
 */
import { matchMaker } from "@colyseus/core";

/** Below this share of its capacity a world is filled first; above it, the emptiest is chosen. */
export const FILL_TARGET = 0.8;

export type WorldStatus = "online" | "full" | "restarting";

/** What a world room publishes in its listing's metadata (Colyseus replaces it whole on each update). */
export interface WorldMetadata {
  world: number;
  players: number;
  /** Of those, the ones on `/ws` (the monitor's `wsPlayers` column, for every process's world row). */
  wsPlayers: number;
  capacity: number;
  status: WorldStatus;
  /** The matchmaker's order for a join without a choice (sortBy rank, descending). */
  rank: number;
  /** Where a client reaches this world: the `/ws` socket with its world chosen, and the HTTP base (REST, Colyseus matchmaking). */
  wsUrl: string;
  httpUrl: string;
}

export interface WorldListing extends WorldMetadata {
  roomId: string;
  processId: string;
  /** Colyseus' address of the process (PUBLIC_ADDRESS), where SDK clients connect; null for a process on its own. */
  publicAddress: string | null;
}

export function worldStatus(players: number, capacity: number, restarting: boolean): WorldStatus {
  if (restarting) return "restarting";
  return players >= capacity ? "full" : "online";
}

/**
 * The order of worlds for a join that names none: a world below the fill target ranks by its
 * players (the fullest first, so that players meet players); above it, below all of those, the
 * emptiest first; full and restarting worlds last.
 */
export function worldRank(players: number, capacity: number, status: WorldStatus): number {
  if (status === "restarting") return -2_000_000_000;
  if (status === "full") return -1_000_000_000;
  if (players < capacity * FILL_TARGET) return players;
  return -1 - players;
}

/** The world a join without a choice goes to (the matchmaker's pick, for `/ws`). */
export function chooseWorld(worlds: readonly WorldListing[]): WorldListing | undefined {
  let best: WorldListing | undefined;
  for (const w of worlds) if (best === undefined || w.rank > best.rank || (w.rank === best.rank && w.world < best.world)) best = w;
  return best;
}

/**
 * Every world of the cluster, by number. A process that no longer listens on its Colyseus channel
 * (killed) is left out at once, and Colyseus' health check is started to remove its rooms.
 */
export async function listWorlds(roomName: string): Promise<WorldListing[]> {
  const rooms = await matchMaker.query({ name: roomName });
  const listening = new Set((await matchMaker.presence.channels("p:*")).map((c) => c.slice(2)));
  const out: WorldListing[] = [];
  for (const room of rooms) {
    const meta = room.metadata as Partial<WorldMetadata> | undefined;
    if (typeof meta?.world !== "number") continue;
    if (room.processId !== matchMaker.processId && !listening.has(room.processId)) {
      void matchMaker.healthCheckProcessId(room.processId);
      continue;
    }
    out.push({
      world: meta.world,
      players: meta.players ?? 0,
      wsPlayers: meta.wsPlayers ?? 0,
      capacity: meta.capacity ?? 0,
      status: meta.status ?? "online",
      rank: meta.rank ?? 0,
      wsUrl: meta.wsUrl ?? "",
      httpUrl: meta.httpUrl ?? "",
      roomId: room.roomId,
      processId: room.processId,
      publicAddress: room.publicAddress ?? null,
    });
  }
  return out.sort((a, b) => a.world - b.world);
}
