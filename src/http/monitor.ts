/**
 * The Colyseus monitor (`@colyseus/monitor`, mounted at /colyseus behind the admin guard), with
 * two corrections to its room list (`GET /colyseus/api`), made on the monitor's own answer:
 * - its CPU card is this process's (the percentage of all cores it used over the last sampling
 *   window, see ProcessCpuSampler), not the machine's (the monitor reads node-os-utils);
 * - `/ws` players count as connections, and the world room's row carries them in a `wsPlayers`
 *   column (its `clients` column counts Colyseus clients only).
 * The world room's inspector lists `/ws` players too (WorldRoom.getInspectData), and its room
 * actions are checked before the monitor runs them (monitorCalls.ts), and the panel shows a
 * refusal's reason on screen (monitorPanel.ts).
 */
import { monitor } from "@colyseus/monitor";
import { matchMaker } from "@colyseus/core";
import type { RequestHandler } from "express";
import type { ProcessCpu } from "./routes/adminPlayers.ts";
import { monitorCalls, type MonitorCallRooms } from "./monitorCalls.ts";
import { monitorPanel } from "./monitorPanel.ts";

export interface MonitorExtras extends MonitorCallRooms {
  /** This process's CPU (the sampler shared with /api/admin/players). */
  cpu: () => ProcessCpu;
  /** `/ws` players of this process (attached to a connection). */
  wsPlayers: () => number;
}

/** The rooms grid: the monitor's default columns plus the world room's `/ws` players. */
export const MONITOR_COLUMNS = ["roomId", "name", "clients", { metadata: "wsPlayers" }, "maxClients", "locked", "elapsedTime"] as const;

interface RoomRow {
  name?: string;
  processId?: string;
  metadata?: Record<string, unknown> | null;
}
interface RoomList {
  rooms?: RoomRow[];
  connections?: number;
  cpu?: number;
  [k: string]: unknown;
}

/** The monitor's handlers, to mount behind the admin guard at the monitor's path. */
export function adminMonitor(extras: MonitorExtras | undefined): RequestHandler[] {
  const panel = monitor({ columns: [...MONITOR_COLUMNS] });
  if (extras === undefined) return [panel];
  const roomList = (panel as unknown as Record<string, (ctx: object) => Promise<RoomList | Response>>)["monitor-api-rooms"];
  if (roomList === undefined) throw new Error("@colyseus/monitor: no monitor-api-rooms endpoint (its API changed)");
  // A plain middleware rather than a route: the monitor's paths are its own, not the REST API's
  // (the OpenAPI test lists routes, and this one would show as `/api` without its mount path).
  const rooms: RequestHandler = (req, res, next) => {
    if (req.method !== "GET" || req.path !== "/api") return next();
    void (async () => {
      const answer = await roomList({});
      if (answer instanceof Response) {
        res
          .status(answer.status)
          .type("application/json")
          .send(await answer.text());
        return;
      }
      const ws = extras.wsPlayers();
      for (const row of answer.rooms ?? []) {
        // Rows of other processes (Redis presence) are theirs to count.
        if (row.name === extras.worldRoom && (row.processId === undefined || row.processId === matchMaker.processId))
          row.metadata = { ...(row.metadata ?? {}), wsPlayers: ws };
      }
      res.json({ ...answer, connections: (answer.connections ?? 0) + ws, cpu: extras.cpu().percentOfCores, machineCpu: answer.cpu });
    })().catch(next);
  };
  return [rooms, monitorCalls(extras), monitorPanel(), panel];
}
