/**
 * The agent runtime: the agents it plays, the store that keeps them across restarts, and one game
 * clock that steps them all (one timer for every agent, at the server's tick length). Its agents
 * play over multiplexed `/ws` connections, up to `muxSessions` agents on each (MuxConnection.ts),
 * or each on its own socket (`mux: false`, AGENT_RT_MUX=0).
 */
import type { Logger } from "pino";
import { Agent, type AgentRecord } from "./Agent.ts";
import { agentSeed } from "./agentRecord.ts";
import type { Brain } from "./brain/Brain.ts";
import { ScriptedBrain } from "./brain/scripted.ts";
import { GameConnection, type LinkFactory } from "./GameConnection.ts";
import type { Knowledge } from "./knowledge.ts";
import { MuxPool, type MuxOptions } from "./MuxConnection.ts";
import type { ServerApi } from "./serverApi.ts";
import type { AgentStore, StoredAgent } from "./store.ts";

export interface RuntimeOptions {
  api: ServerApi;
  wsUrl: string;
  know: Knowledge;
  store: AgentStore;
  seed: string;
  logger: Logger;
  /** The brain of one agent; the scripted one when it returns undefined. */
  brainFor?(agentId: string, fallback: ScriptedBrain): Brain | undefined;
  /** Multiplexed connections (the default), or one socket per agent. */
  mux?: boolean;
  /** Sessions on one multiplexed connection at most (DEFAULT_MUX_SESSIONS). */
  muxSessions?: number;
  /** The multiplexed connections' retry delays (tests). */
  muxOptions?: MuxOptions;
}

/** Agents on one multiplexed connection (AGENT_RT_MUX_SESSIONS); the server allows DEFAULT_MUX_MAX_SESSIONS. */
export const DEFAULT_MUX_SESSIONS = 500;

/** The step clock's period until an agent has learnt the server's tick (`welcome.tickMs`). */
export const DEFAULT_TICK_MS = 600;
/** "Progressing": its goal's progress moved (or a goal ended) within this many of its ticks (1 minute at 600 ms). */
export const PROGRESS_WINDOW_TICKS = 100;

export class Runtime {
  readonly agents = new Map<string, Agent>();
  /** CPU time spent stepping agents, µs, and the steps taken (for the benches). */
  stepCpuMicros = 0;
  steps = 0;
  private readonly opts: RuntimeOptions;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The multiplexed connections (undefined: one socket per agent). */
  readonly pool: MuxPool | undefined;
  private readonly link: LinkFactory;

  constructor(opts: RuntimeOptions) {
    this.opts = opts;
    if (opts.mux === false) {
      this.link = (token, events) => new GameConnection(opts.wsUrl, token, events);
    } else {
      const pool = new MuxPool(opts.wsUrl, opts.muxSessions ?? DEFAULT_MUX_SESSIONS, opts.muxOptions);
      this.pool = pool;
      this.link = (token, events) => pool.session(token, events);
    }
  }

  get running(): number {
    let n = 0;
    for (const a of this.agents.values()) if (a.state !== "stopped" && a.state !== "error") n++;
    return n;
  }

  /** Starts the clock and every stored agent that was playing. */
  start(): void {
    for (const stored of this.opts.store.all()) {
      if (stored.running) this.play(stored);
      else {
        // Known, not played: stopped, with the reason it stopped for (it was shown as connecting
        // for ever, and counted as playing in /health).
        const agent = this.create(stored);
        this.agents.set(stored.agentId, agent);
        agent.stop(stored.stoppedReason ?? "it was not playing when the runtime last stopped");
      }
    }
    this.schedule();
  }

  private tickMs(): number {
    for (const a of this.agents.values()) if (a.view.playerId !== "") return a.view.tickMs;
    return DEFAULT_TICK_MS;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const before = process.cpuUsage();
      for (const agent of this.agents.values()) agent.step();
      const used = process.cpuUsage(before);
      this.stepCpuMicros += used.user + used.system;
      this.steps++;
      this.schedule();
    }, this.tickMs());
  }

  private create(stored: AgentRecord): Agent {
    // Seeded by the runtime's seed and the character's name (agentSeed), not its random agentId.
    const fallback = new ScriptedBrain(this.opts.know, agentSeed(this.opts.seed, stored));
    const brain = this.opts.brainFor?.(stored.agentId, fallback) ?? fallback;
    return new Agent({
      record: stored,
      link: this.link,
      api: this.opts.api,
      know: this.opts.know,
      brain,
      fallback,
      seed: this.opts.seed,
      onFocus: (agent) => {
        const s = this.opts.store.get(agent.record.agentId);
        if (s !== undefined) this.opts.store.put({ ...s, focus: agent.record.focus });
      },
      onState: (agent) => {
        this.opts.logger.info({ agentId: agent.record.agentId, state: agent.state, reason: agent.reason }, "agent state");
        // The server refused the agent for good (deleted, token replaced): not resumed after a restart.
        if (agent.state === "error") {
          const s = this.opts.store.get(agent.record.agentId);
          if (s !== undefined && s.running) this.opts.store.put({ ...s, running: false, stoppedReason: agent.reason });
        }
      },
    });
  }

  /** Plays an agent (replacing a running one with the same id, e.g. with a new token). */
  play(stored: StoredAgent): Agent {
    this.agents.get(stored.agentId)?.stop("replaced");
    const agent = this.create(stored);
    this.agents.set(stored.agentId, agent);
    const { stoppedReason: _, ...playing } = stored;
    this.opts.store.put({ ...playing, running: true });
    agent.start();
    return agent;
  }

  /** Stops playing an agent; it stays known (state `stopped`) and can be given again. */
  stopAgent(agentId: string): Agent | undefined {
    const agent = this.agents.get(agentId);
    const stored = this.opts.store.get(agentId);
    if (agent === undefined || stored === undefined) return undefined;
    agent.stop();
    this.opts.store.put({ ...stored, running: false, stoppedReason: agent.reason });
    return agent;
  }

  /** Aggregates for `GET /stats`: how many agents, in which state, how many are getting somewhere. */
  stats(): object {
    const byState: Record<string, number> = {};
    let playing = 0;
    let progressing = 0;
    let sent = 0;
    let ownSockets = 0;
    for (const a of this.agents.values()) {
      byState[a.state] = (byState[a.state] ?? 0) + 1;
      sent += a.messagesSent;
      if (a.linkOpen) ownSockets++;
      if (a.state !== "playing") continue;
      playing++;
      if (a.ticks - a.lastProgressAt <= PROGRESS_WINDOW_TICKS) progressing++;
    }
    return {
      agents: this.agents.size,
      byState,
      progressing,
      progressingShare: playing === 0 ? null : progressing / playing,
      steps: this.steps,
      stepCpuMicros: this.stepCpuMicros,
      messagesSent: sent,
      // Sockets open to the server: the multiplexed connections', or one per connected agent.
      sockets: this.pool?.sockets ?? ownSockets,
      memory: process.memoryUsage(),
      cpu: process.cpuUsage(),
    };
  }

  /** Leaves the world with every agent (they stay `running` in the store, to resume at the next start). */
  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const a of this.agents.values()) if (a.state !== "stopped") a.stop("the runtime is shutting down");
  }
}
