/**
 * The world room's tick (tickOnce): the game step, its messages, the schema mirror, the views, one
 * patch per Colyseus client and the `/ws` frames, with the writes batched as `tickWrites` says
 * (batchPatchWrites); and a tick that throws (onUncaughtException).
 */
import { ServerError } from "@colyseus/core";
import type { Entity } from "../src/game/world/World.ts";
import { runQueueWaitNs } from "../src/metrics.ts";
import { Interest } from "../src/game/world/Interest.ts";
import type { WorldView } from "./WorldView.ts";
import type { WorldSerializer } from "./worldBuffers.ts";
import { DEFAULT_TICK_WRITES, TICK_WRITES_BURST } from "../src/config/env.ts";
import { ClientViewsRoom } from "./ClientViewsRoom.ts";

/** Ticks in a row that may throw outside the game step before the process gives up (see onUncaughtException). */
export const MAX_TICK_FAULTS = 5;

/** A tick's sending of the `/ws` frames (see WorldRoom.sendWs): whether done, and its times (ms). */
interface WsSending {
  deltas: number;
  flush: number;
  sent: boolean;
  /** The part of them spent between Colyseus patches. */
  polled: number;
}

/** The calling thread's CPU time since `start` (a `process.threadCpuUsage()`), in ms. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.threadCpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** The calling thread's run-queue wait since `start` (a runQueueWaitNs()), in ms; undefined where not known. */
function waitedMsSince(start: number | undefined): number | undefined {
  const now = runQueueWaitNs();
  return start === undefined || now === undefined ? undefined : (now - start) / 1e6;
}

export class TickingRoom extends ClientViewsRoom {
  /** The sockets of the clients whose patches were encoded since the last batch was written (see batchPatchWrites). */
  protected readonly releasePending: (() => void)[] = [];

  /** Ticks in a row that threw outside the game step (which contains its own faults). */
  protected tickFaults = 0;

  /**
   * Colyseus calls this for an exception in a room method or timer instead of letting it escape.
   * The tick's: the sockets it corked are released, the fault is counted and logged, and the next
   * tick runs; MAX_TICK_FAULTS in a row mean the room cannot go on, so the exception goes to the
   * process's last resort (main.ts: every player saved, exit non-zero for the supervisor).
   * Others (a join, a leave) are logged; Colyseus still fails the join itself.
   */
  override onUncaughtException(error: Error, methodName: string): void {
    const { service } = this.services;
    if (methodName === "setTimestep") {
      service.uncork();
      service.reportFault({ where: "tick", error });
      if (++this.tickFaults >= MAX_TICK_FAULTS) {
        setImmediate(() => {
          throw error;
        });
      }
      return;
    }
    // A refused join (a ServerError we threw) is an answer, not a fault.
    if (error.cause instanceof ServerError) return;
    service.reportFault({ where: `room:${methodName}`, error });
  }

  /** The Colyseus patches written in batches of `tickWrites` sockets, the `/ws` frames between them (see tickOnce). */
  protected batchPatchWrites(encoder: WorldSerializer["encoder"]): void {
    const { service } = this.services;
    // The patches leave in batches of `tickWrites` sockets (see tickOnce): a batch's sockets are
    // released when the encoder moves on to the view after it (Colyseus sends a patch right after
    // encoding it), so a client waits for its batch's patches to be encoded, not every client's.
    // `burst` (0) leaves every socket corked until all are encoded.
    const encodeView = encoder.encodeView.bind(encoder);
    const batch = this.services.tickWrites ?? DEFAULT_TICK_WRITES;
    let encodes = 0;
    encoder.encodeView = (view, ...rest) => {
      if (batch === TICK_WRITES_BURST) {
        // With the socket process (flushWrites), sending the `/ws` frames costs this thread one IPC
        // message, not a write a socket: they go as soon as the delta worker has them (checked
        // every 32 patches), so the child writes them while the patches are encoded.
        // Every 32 patches, what was flushed but not yet taken by the pipe to the child is moved
        // on too (the event loop, which would, does not run until the tick ends).
        if (service.flushWrites !== undefined && (++encodes & 31) === 0) {
          const ws = this.wsThisTick;
          if (ws !== undefined && !ws.sent) this.sendWs(ws, false);
          service.pumpWrites?.();
        }
        return encodeView(view, ...rest);
      }
      if (this.releasePending.length >= batch) {
        for (const release of this.releasePending) release();
        this.releasePending.length = 0;
        // Where the writes are batched beyond the sockets (the socket process), the batch leaves now.
        service.flushWrites?.();
        // A delta worker's `/ws` frames leave as soon as they are in, between two batches.
        const ws = this.wsThisTick;
        if (ws !== undefined && !ws.sent) this.sendWs(ws, false);
      }
      const release = (view as WorldView).release;
      if (release !== undefined) this.releasePending.push(release);
      return encodeView(view, ...rest);
    };
  }

  /**
   * One tick: the game step, this tick's `/ws` feed (see WsDeltas), the step's messages, the
   * schema mirror, then one patch per Colyseus client and the `/ws` frames. Without a delta worker
   * the `/ws` frames are built before the patches; with one they are built there meanwhile.
   *
   * The writes (`tickWrites`): every socket is written once a tick. By default (`burst`) every
   * socket stays corked until every patch is encoded; then the `/ws` frames are written, then the
   * Colyseus patches, in a row. With batches of N, once N patches are encoded their N sockets are
   * written, then the `/ws` frames if the worker has them (else before the last batch). Where a
   * system call is dear, fewer runs of writes between the encodes pay: on the benchmark's VM,
   * JavaScript run after a system call was 40-50 % slower, and the Colyseus patch phase (writes
   * included) took 54-66 ms in a burst, ~72 ms in batches of 64 and 67-86 ms writing each patch as
   * soon as encoded (N = 1), which gets the first patches out sooner (bench/README.md, world-load).
   */
  tickOnce(): void {
    const started = performance.now();
    const cpu = process.threadCpuUsage();
    const waited = runQueueWaitNs();
    const { service } = this.services;
    // Every socket is corked for the tick: a client's messages and its update leave in one write.
    service.cork();
    service.step();
    const world = service.world;
    const t1 = performance.now();
    service.publishStart();
    const t2 = performance.now();
    service.deliverMessages();
    const t2b = performance.now();
    this.state.tick = world.tick;
    if (this.removedAt.size > 0) this.forgetRemoved(world.tick);
    // A joining client is in `clients` from before its login, so the state is current again
    // before its view is filled (and onJoin catches up in case no tick came between).
    if (this.clients.length > 0) this.mirrorAll(world);
    else this.mirrorBehind = true;
    const t2c = performance.now();
    const ws = { deltas: 0, flush: 0, sent: false, polled: 0 };
    this.wsThisTick = ws;
    if (!service.deltasThreaded) this.sendWs(ws, true);
    const t3 = performance.now();
    // The views' changes: from the delta worker, which worked them out on the other core while
    // this thread delivered the messages and mirrored the state (waiting here if it is not done),
    // or refreshed here. Every refresh first, then every view's changes: the refreshes read the
    // players' positions of the whole crowd, and the view changes walk the schema's trees;
    // interleaved, each evicted the other's data from the caches.
    // The worker answers in parts (INTEREST_PARTS): the first part's views are changed while it
    // works out the rest, which is taken after them.
    const changes = this.viewChanges;
    const threaded = service.interestsThreaded && this.byInterest.size > 0;
    if (threaded) this.takeInterestChanges(world, false);
    for (const client of this.clients) {
      const data = client.userData;
      const player = data && world.players.get(data.playerId);
      if (player === undefined) continue;
      const conn = data!.conn;
      if (conn.interestId !== undefined) {
        if (threaded) {
          if (conn.missing !== undefined) this.addMissing(conn);
          continue;
        }
        // The worker failed: this view is worked out here again, from what it holds (what is no
        // longer in the world is let go now: a refresh here would never find it to say so).
        this.byInterest.delete(conn.interestId);
        conn.interestId = undefined;
        conn.missing = undefined;
        conn.interest = new Interest();
        const held: Entity[] = [];
        for (const id of conn.inView) {
          const e = world.entityById(id);
          if (e !== undefined) held.push(e);
          else {
            conn.inView.delete(id);
            const s = this.schemaFor(id);
            if (s !== undefined) client.view?.remove(s);
          }
        }
        conn.interest.seed(held);
      }
      const change = this.refreshInterest(conn, world, player);
      if (change !== undefined) changes.push(conn, player, change);
    }
    const t3b = performance.now();
    this.applyViewChanges();
    // The rest of the worker's answer: the time waited for it counts as the interest phase's.
    let restWaited = 0;
    if (threaded) {
      const a = performance.now();
      this.takeInterestChanges(world, true);
      restWaited = performance.now() - a;
      this.applyViewChanges();
    }
    const t4 = performance.now();
    this.broadcastPatch();
    // The last batch's sockets are written below, with every other corked Colyseus socket.
    this.releasePending.length = 0;
    const t5 = performance.now();
    // `/ws` frames not written between the batches go before the last ones (with a worker they
    // were built meanwhile; in a burst they are the first).
    if (!ws.sent) this.sendWs(ws, true);
    const t5b = performance.now();
    service.uncork("colyseus");
    const t6 = performance.now();
    this.wsThisTick = undefined;
    this.services.metrics?.recordTick(
      performance.now() - started,
      {
        game: service.lastTickTimes.gameMs,
        messages: t2b - t2,
        schemaMirror: t2c - t2b,
        wsFeed: t2 - t1,
        colyseusInterest: t3b - t3 + restWaited,
        colyseusViews: t4 - t3b - restWaited,
        // The polls and sending of `/ws` frames between patches (see onCreate) count as the `/ws` phases.
        colyseusPatch: t5 - t4 - ws.polled,
        colyseusFlush: t6 - t5b,
        wsDeltas: ws.deltas,
        wsFlush: ws.flush,
      },
      cpuMsSince(cpu),
      started,
      waitedMsSince(waited),
    );
    this.services.metrics?.recordPaths(world.pathStats);
    this.services.metrics?.recordViewChanges(this.viewsEntered, this.viewsLeft);
    this.viewsEntered = 0;
    this.viewsLeft = 0;
    this.tickFaults = 0;
  }

  /** This tick's `/ws` sending (see tickOnce): done or not, and its time. */
  protected wsThisTick: WsSending | undefined;

  /**
   * The `/ws` frames to their sockets: waiting for them (`wait`), or only if they are in (a
   * worker's, polled between Colyseus patches). Times the finishing and the writing.
   */
  protected sendWs(ws: WsSending, wait: boolean): void {
    const { service } = this.services;
    const a = performance.now();
    if (wait) service.publishFinish();
    else if (!service.publishPoll()) {
      const spent = performance.now() - a;
      ws.deltas += spent;
      ws.polled += spent;
      return;
    }
    const b = performance.now();
    service.uncork("ws");
    const c = performance.now();
    ws.deltas += b - a;
    ws.flush = c - b;
    ws.sent = true;
    if (!wait) ws.polled += c - a;
  }
}
