/**
 * The `world:update` deltas of every `/ws` connection, built in a worker thread.
 *
 * Per tick the World's thread calls {@link WsDeltas.start} right after the game step and
 * {@link WsDeltas.finish} when the frames are to be written: at once without a worker; with one,
 * as soon as they are in while the Colyseus patches are encoded ({@link WsDeltas.poll}), or after
 * them (see WorldRoom.tickOnce). Without a worker `finish` does the work:
 * one walk over the world gives the diff of what clients can see (see ViewFeed), a DeltaBuilder
 * applies it and builds every `/ws` viewer's frame, and the frames go to their sockets.
 *
 * With `worker: true` (the default on a machine with two cores or more: see env.ts), `start`
 * sends the diff to a worker thread, which builds the frames while the World's thread delivers
 * the tick's messages and encodes and sends the Colyseus patches; `poll` writes them as soon as
 * they are in, and `finish` blocks until the worker's answer is in (Atomics.wait on a shared
 * counter, so no event-loop turn is needed) and writes the frames, in the same tick.
 *
 * Sockets never leave the World's thread. A connection's first frame (everything in its view)
 * comes with the first tick after it joined.
 *
 * If the worker fails, the deltas are built on the World's thread from then on (logged as an
 * error), starting over with a full frame per connection. An answer that takes longer than
 * `waitMs` is delivered at the next tick instead, ahead of that tick's frames.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { DeltaBuilder, type DeltaInput, type InterestChanges } from "../game/world/ViewTracker.ts";
import { ViewFeed } from "../game/world/ViewWorld.ts";
import type { World } from "../game/world/World.ts";
import type { Logger } from "../logger.ts";
import type { InterestChange } from "../game/world/Interest.ts";

/** How long `finish` waits for the worker before it lets the tick go on. */
export const DEFAULT_WAIT_MS = 1_000;
/** A worker that has not answered a tick's input for this long is taken for hung, and given up (see fail). */
export const HUNG_WORKER_MS = 10_000;

export type { InterestChange };

/** The worker's answers to one tick's input: its interest viewers' changes (if asked), then its frames; or an error. */
/**
 * The worker answers a tick's interest changes in this many parts (each a run of the viewers): the
 * World's thread takes the first as soon as it is in (takeInterests(false)) and changes those views
 * while the worker works out the rest. With one answer it waited for all of them: 5-7 ms a tick at
 * 1,000 Colyseus clients (bench/README.md), 15-47 ms in slow ticks.
 */
export const INTEREST_PARTS = 2;

export type Reply =
  | { tick: number; frames: (number | string)[] }
  | { tick: number; interests: InterestChanges; unseeded: (number | string[])[]; last: boolean }
  | { tick: number; error: string };

interface Sink {
  playerId: string;
  send: (frame: string) => void;
  compact: boolean;
  /** Its group (see addGroup), 0: none. */
  group: number;
}

interface GroupSink {
  send: (frame: string) => void;
  compact: boolean;
}

export interface WsDeltasOptions {
  logger: Logger;
  /** True: build the deltas in a worker thread; false (the default): on the calling thread. */
  worker?: boolean;
  waitMs?: number;
  /** See HUNG_WORKER_MS. */
  hungMs?: number;
  /** The worker's script (tests: one that misbehaves). */
  workerEntry?: URL;
}

export class WsDeltas {
  private readonly logger: Logger;
  private readonly waitMs: number;
  private readonly hungMs: number;
  /**
   * The ticks posted to the worker and not answered yet (their frames), oldest first, with when
   * they were posted: the worker answers in order, so the last is the one `finish` waits for.
   */
  private readonly unanswered: [tick: number, postedAt: number][] = [];
  private feed = new ViewFeed();
  private readonly sinks = new Map<number, Sink>();
  private readonly groups = new Map<number, GroupSink>();
  private joined: DeltaInput["joined"] = [];
  private left: number[] = [];
  private groupsJoined: DeltaInput["groupsJoined"] = [];
  private groupsLeft: number[] = [];
  /** Interest viewers (see addInterest): their player ids, by viewer id; and those that came and went since the last input. */
  private readonly interestViewers = new Map<number, string>();
  private interestJoined: NonNullable<DeltaInput["interestJoined"]> = [];
  private interestLeft: number[] = [];
  /** The tick whose interest changes the worker has not answered yet, every part of them (-1: none). */
  private awaitingInterests = -1;
  /** Whether a part of the awaited tick's interest changes is in (see takeInterests). */
  private awaitedPartIn = false;
  /** Interest changes answered and not yet taken (see takeInterests), in tick order. */
  private interestsIn: { changes: InterestChanges; unseeded: (number | string[])[] }[] = [];
  private nextId = 1;
  private worker: { thread: Worker; port: MessagePort; signal: Int32Array } | undefined;
  private inline: DeltaBuilder | undefined;
  /** Without a worker: the world whose deltas `finish` builds (`start` only notes it). */
  private due: World | undefined;
  /** The worker's answer counter when its port was last read (see poll). */
  private seen = 0;
  private closed = false;

  constructor(options: WsDeltasOptions) {
    this.logger = options.logger;
    this.waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
    this.hungMs = options.hungMs ?? HUNG_WORKER_MS;
    if (options.worker !== true) {
      this.inline = new DeltaBuilder();
      return;
    }
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    const thread = new Worker(options.workerEntry ?? new URL("./deltaWorker.ts", import.meta.url), {
      workerData: { port: port2, signal },
      transferList: [port2],
      name: "ws-deltas",
    });
    this.worker = { thread, port: port1, signal };
    thread.on("error", (err) => this.fail("the /ws delta worker failed", err));
    thread.on("exit", (code) => {
      if (!this.closed) this.fail("the /ws delta worker exited", new Error(`exit code ${code}`));
    });
  }

  /** Whether the deltas are built in the worker (false after a failure, or when asked). */
  get threaded(): boolean {
    return this.worker !== undefined;
  }

  /**
   * A connection whose player is `playerId`: its frames go to `send`, from the next tick on
   * (`compact`: see ViewTracker). In a group (see addGroup) it has no frames of its own: its view
   * is part of the group's.
   */
  add(playerId: string, send: (frame: string) => void, compact = false, group = 0): number {
    const id = this.nextId++;
    this.sinks.set(id, { playerId, send, compact, group });
    this.joined.push([id, playerId, compact, group]);
    return id;
  }

  remove(id: number): void {
    if (!this.sinks.delete(id)) return;
    this.left.push(id);
  }

  /**
   * A view worked out in the worker but sent by the caller (a Colyseus client's: see
   * WorldRoom.tickOnce), starting with the ids already in it: what enters and leaves it comes back
   * from {@link takeInterests}, from the next tick on. Undefined without a worker (the caller works
   * it out itself).
   */
  addInterest(playerId: string, seed: string[]): number | undefined {
    if (this.worker === undefined || this.closed) return undefined;
    const id = this.nextId++;
    this.interestViewers.set(id, playerId);
    this.interestJoined.push([id, playerId, seed]);
    return id;
  }

  removeInterest(id: number): void {
    if (!this.interestViewers.delete(id)) return;
    this.interestLeft.push(id);
  }

  /** Whether interest viewers are worked out in the worker (false after a failure: see addInterest). */
  get interestsThreaded(): boolean {
    return this.worker !== undefined;
  }

  /**
   * This tick's interest changes (waiting for the worker if they are not in), with any an earlier
   * tick's late answer held, oldest first. An answer later than `waitMs` comes with the next call.
   * `all` false: only until a part of them is in (see INTEREST_PARTS); a second call takes the rest.
   */
  takeInterests(all = true): InterestChange[] {
    if (this.worker !== undefined) {
      const deadline = performance.now() + this.waitMs;
      while (this.awaitingInterests >= 0 && (all || !this.awaitedPartIn)) {
        const seen = Atomics.load(this.worker.signal, 0);
        if (this.receive()) continue;
        if (this.worker === undefined) break;
        const left = deadline - performance.now();
        if (left <= 0) {
          this.logger.warn(
            { tick: this.awaitingInterests, waitMs: this.waitMs },
            "the Colyseus views' changes are late; they are applied with the next tick's",
          );
          break;
        }
        Atomics.wait(this.worker.signal, 0, seen, left);
      }
    }
    const out: InterestChange[] = [];
    for (const { changes: a, unseeded } of this.interestsIn) {
      for (let i = 0; i < unseeded.length; i += 2) out.push({ viewer: unseeded[i] as number, entered: [], left: unseeded[i + 1] as string[] });
      for (let i = 0; i < a.length;) {
        const viewer = a[i]!;
        const nEntered = a[i + 1]!;
        const nLeft = a[i + 2]!;
        i += 3;
        const entered = this.idsOf(a, i, nEntered);
        const left = this.idsOf(a, i + nEntered, nLeft);
        i += nEntered + nLeft;
        out.push({ viewer, entered, left });
      }
    }
    this.interestsIn = [];
    return out;
  }

  /** The World's ids of the `count` entity numbers at `from` (those still known: see ViewFeed.idOf). */
  private idsOf(nums: Int32Array, from: number, count: number): string[] {
    const ids: string[] = [];
    for (let i = from; i < from + count; i++) {
      const id = this.feed.idOf(nums[i]!);
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }

  /** Viewers whose views go out as one frame a tick, the union of them (a multiplexed connection; GroupView). */
  addGroup(send: (frame: string) => void, compact: boolean): number {
    const id = this.nextId++;
    this.groups.set(id, { send, compact });
    this.groupsJoined.push([id, compact]);
    return id;
  }

  /** The group and its members go. */
  removeGroup(id: number): void {
    if (!this.groups.delete(id)) return;
    for (const [sid, s] of this.sinks) if (s.group === id) this.sinks.delete(sid);
    this.groupsLeft.push(id);
  }

  /** After the game step: this tick's diff goes to the worker (without one, `finish` builds it). */
  start(world: World): void {
    // Without `/ws` connections there is nothing to build. The next diff still covers everything
    // since the last one, so the replica catches up when one connects.
    const interests = this.worker !== undefined && this.interestViewers.size > 0;
    if (this.closed || (this.sinks.size === 0 && this.left.length === 0 && this.groupsLeft.length === 0 && !interests && this.interestLeft.length === 0))
      return;
    if (this.worker === undefined) {
      this.due = world;
      return;
    }
    // A worker that stopped answering (stuck, not dead: a dead one is noticed at its exit) is given up.
    const oldest = this.unanswered[0];
    if (oldest !== undefined && performance.now() - oldest[1] > this.hungMs) {
      this.fail("the /ws delta worker stopped answering", new Error(`no answer to tick ${oldest[0]} in ${Math.round(performance.now() - oldest[1])} ms`));
      this.due = world;
      return;
    }
    this.worker.port.postMessage({ ...this.input(world), interests });
    this.unanswered.push([world.tick, performance.now()]);
    if (interests) {
      this.awaitingInterests = world.tick;
      this.awaitedPartIn = false;
    }
  }

  /** The diff since the last tick sent, with the viewers that came and went meanwhile. */
  private input(world: World): DeltaInput {
    const input: DeltaInput = {
      ...this.feed.diff(world),
      joined: this.joined,
      left: this.left,
      groupsJoined: this.groupsJoined,
      groupsLeft: this.groupsLeft,
      interestJoined: this.interestJoined,
      interestLeft: this.interestLeft,
    };
    this.joined = [];
    this.left = [];
    this.groupsJoined = [];
    this.groupsLeft = [];
    this.interestJoined = [];
    this.interestLeft = [];
    return input;
  }

  /**
   * Without waiting: writes the worker's frames if its answer is in. True when nothing of this
   * tick is left to wait for (so the frames can be flushed while the tick goes on; see
   * WorldRoom.tickOnce). Without a worker, false: `finish` builds the frames.
   */
  poll(): boolean {
    if (this.worker === undefined) return this.due === undefined;
    if (this.unanswered.length === 0) return true;
    if (Atomics.load(this.worker.signal, 0) === this.seen) return false;
    while (this.unanswered.length > 0 && this.worker !== undefined && this.receive());
    return this.unanswered.length === 0;
  }

  /** Writes this tick's frames to their connections, waiting for the worker if it is not done. */
  finish(): void {
    if (this.worker === undefined) {
      const world = this.due;
      this.due = undefined;
      if (world !== undefined && this.inline !== undefined) this.deliver(this.inline.step(this.input(world)));
      return;
    }
    const deadline = performance.now() + this.waitMs;
    while (this.unanswered.length > 0) {
      const seen = Atomics.load(this.worker.signal, 0);
      if (this.receive()) continue;
      if (this.worker === undefined) return;
      const left = deadline - performance.now();
      if (left <= 0) {
        this.logger.warn({ tick: this.unanswered.at(-1)![0], waitMs: this.waitMs }, "the /ws deltas are late; they go out with the next tick");
        return;
      }
      Atomics.wait(this.worker.signal, 0, seen, left);
    }
  }

  /** Takes one answer of the worker, if there is one, and writes its frames; false if none was in. */
  private receive(): boolean {
    const worker = this.worker!;
    this.seen = Atomics.load(worker.signal, 0);
    // The port's message is `any`: the assertion types it (the rule sees no change through the any).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    const received = receiveMessageOnPort(worker.port) as { message: Reply } | undefined;
    if (received === undefined) return false;
    const reply = received.message;
    if ("error" in reply) {
      this.fail("the /ws delta worker could not build a tick's frames", new Error(reply.error));
      return false;
    }
    if ("interests" in reply) {
      if (reply.tick === this.awaitingInterests) {
        this.awaitedPartIn = true;
        if (reply.last) this.awaitingInterests = -1;
      }
      this.interestsIn.push({ changes: reply.interests, unseeded: reply.unseeded });
      return true;
    }
    while (this.unanswered.length > 0 && this.unanswered[0]![0] <= reply.tick) this.unanswered.shift();
    this.deliver(reply.frames);
    return true;
  }

  private deliver(frames: (number | string)[]): void {
    for (let i = 0; i < frames.length; i += 2) {
      const id = frames[i] as number;
      if (id < 0) this.groups.get(-id)?.send(frames[i + 1] as string);
      else this.sinks.get(id)?.send(frames[i + 1] as string);
    }
  }

  /** From now on, build on this thread, starting over: every connection gets a full frame again. */
  private fail(message: string, err: unknown): void {
    if (this.worker === undefined || this.closed) return;
    this.logger.error({ err }, `${message}; building the /ws deltas on the main thread from now on`);
    const { thread } = this.worker;
    this.worker = undefined;
    this.unanswered.length = 0;
    // The interest viewers' callers work their views out themselves from now on (see interestsThreaded).
    this.awaitingInterests = -1;
    this.interestsIn = [];
    this.interestViewers.clear();
    this.interestJoined = [];
    this.interestLeft = [];
    void thread.terminate();
    this.inline = new DeltaBuilder();
    this.feed = new ViewFeed();
    this.groupsJoined = [...this.groups].map(([id, g]) => [id, g.compact]);
    this.joined = [...this.sinks].map(([id, s]) => [id, s.playerId, s.compact, s.group]);
    this.left = [];
    this.groupsLeft = [];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const thread = this.worker?.thread;
    this.worker = undefined;
    if (thread !== undefined) await thread.terminate();
  }
}
