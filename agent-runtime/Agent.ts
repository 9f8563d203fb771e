/**
 * One running agent: its connection, what it sees, its brain and its goal.
 *
 * The server owns the goal (`agent:goal` says what it is and whether goals are paused); the agent
 * pursues it with a behaviour (brain/behaviours.ts) stepped once a game tick, reports progress
 * (`agent:goalProgress`), and when a goal ends and goals are not paused, asks its brain for the
 * next one and sets it on the server as `autonomous` (`agent:setGoal`). Chat commands (from the
 * owner's `agent:message` or one of the owner's characters addressing it by name: owners.ts) run as
 * the same kind of behaviour ahead of the goal; while goals are paused, the agent idles again after
 * a command. It never says a line that would be a command (speech.ts). Its reflexes (reflexes.ts:
 * eating, leaving a lost fight, prayers off) come before the goal's behaviour in each tick; a goal
 * of its own that gets nowhere is given up (goalWatch.ts).
 */
import type { Focus } from "./brain/focus.ts";
import type { ServerEvent, ServerEventArgs } from "../src/game/serverEvents.ts";
import type { ClientEvent, ClientEventName } from "../src/game/clientEvents.ts";
import { ACTIVITY_KEPT, agentSeed, type Activity, type AgentRecord, type AgentState } from "./agentRecord.ts";
import { AgentView } from "./AgentView.ts";
import { ChatCommands } from "./chatCommands.ts";
import type { AgentLink, LinkFactory } from "./GameConnection.ts";
import { fieldFireLog, Fight, GoTo, type Behaviour, type Ctx, type Outcome } from "./brain/behaviours.ts";
import { fleeSpot } from "./brain/fighting.ts";
import { RECENT_GOALS, type Brain, type GoalOption, type Observation } from "./brain/Brain.ts";
import { addressedTo } from "./brain/commands.ts";
import { QuestGoal } from "./brain/quest.ts";
import { LampRubber } from "./brain/lamp.ts";
import type { QuestEntry } from "./brain/questPlan.ts";
import { Random } from "./brain/random.ts";
import { type ScriptedBrain } from "./brain/scripted.ts";
import { nameOf, type Knowledge } from "./knowledge.ts";
import { Reflexes } from "./reflexes.ts";
import { GoalWatch } from "./goalWatch.ts";
import type { ServerApi } from "./serverApi.ts";

export { ACTIVITY_KEPT, type Activity, type AgentRecord, type AgentState };
import { behaviourFor, type Goal } from "./goalBehaviour.ts";

/** Progress is reported when it moved this many points (and always at 100). */
export const PROGRESS_STEP = 10;
/** Ticks to wait for the server to confirm a chosen goal before choosing again. */
export const CHOICE_TIMEOUT_TICKS = 10;

export interface AgentDeps {
  record: AgentRecord;
  /** Its way to the world: its own socket (GameConnection) or a session on a multiplexed one (MuxConnection). */
  link: LinkFactory;
  api: ServerApi;
  know: Knowledge;
  brain: Brain;
  /** The offline choice when the brain's answer is unusable. */
  fallback: ScriptedBrain;
  seed: string;
  /** Called when the agent's state changes (the runtime persists and logs). */
  onState?(agent: Agent): void;
  /** Called when its owner sets or clears its focus (the runtime persists it). */
  onFocus?(agent: Agent): void;
}

export class Agent {
  readonly record: AgentRecord;
  readonly view: AgentView;
  state: AgentState = "connecting";
  /** Why the agent is in `error` or `stopped`. */
  reason: string | undefined;
  goal: Goal | null = null;
  goalsPaused = false;
  availableGoals: GoalOption[] = [];
  /** Its quest list, as the server last sent it (`quest:list`, asked for at each welcome). */
  quests: QuestEntry[] | undefined;
  readonly activity: Activity[] = [];
  /** Ticks stepped, and the ticks in which its goal made progress (for the benches). */
  ticks = 0;
  lastProgressAt = 0;
  /** Gives up an autonomous goal that gets nowhere (goalWatch.ts). */
  private readonly watch: GoalWatch;

  private readonly deps: AgentDeps;
  private readonly conn: AgentLink;
  private readonly rng: Random;
  private behaviour: Behaviour | undefined;
  private behaviourGoalId: string | undefined;
  private command: { behaviour: Behaviour; label: string } | undefined;
  private readonly endedGoals = new Set<string>();
  private readonly recentGoals: Observation["recentGoals"] = [];
  /** A quest goal's quest entry (`quest:list`) when the goal began: unchanged at a failure, the attempt moved the quest no further (`stalled`). */
  private questAtStart: string | undefined;
  private choosingSince: number | undefined;
  /**
   * The focus its last choice was made under (choose), until the goal comes back from the server:
   * a goal chosen before the focus changed is ended when it comes, and the next chosen by the focus
   * (setFocus ends only a goal already begun).
   */
  private chosenUnder: { focus: Focus | undefined } | undefined;
  /** Asked the server for fresh options (`agent:getGoal`) to choose from when they come. */
  private awaitingOptions = false;
  private reportedProgress = -1;
  /** The most progress the goal's behaviour has shown (the stall watchdog's measure: a new high, not a value above the last reported step). */
  private bestProgress = -1;
  /** Eats, flees a lost fight, ends its prayers (reflexes.ts). */
  private readonly reflexes: Reflexes;
  /** Rubs the xp lamps it carries (brain/lamp.ts). */
  private readonly lamp = new LampRubber();
  private readonly ctx: Ctx;
  /** The commands it hears and the lines it says (chatCommands.ts). */
  private readonly chat: ChatCommands;

  constructor(deps: AgentDeps) {
    this.deps = deps;
    this.record = deps.record;
    this.rng = new Random(agentSeed(deps.seed, deps.record));
    this.conn = deps.link(deps.record.token, {
      onOpen: () => this.log("event", "connected"),
      onEvent: (...event) => this.onEvent(...event),
      onClose: (code, reason, final) => this.onClose(code, reason, final),
      onViewUpdate: (tick) => this.view.moved(tick),
    });
    // On a multiplexed connection the agent sees its part of the connection's view.
    this.view = new AgentView(this.conn.sharedView);
    const ticks = () => this.ticks;
    this.ctx = {
      view: this.view,
      know: deps.know,
      rng: this.rng,
      get tick() {
        return ticks();
      },
      send: <K extends ClientEventName>(type: K, data: ClientEvent<K>) => void this.conn.send(type, data as never),
      note: (text: string) => this.log("action", text),
    };
    this.reflexes = new Reflexes(this.ctx);
    this.watch = new GoalWatch(this.view, this.deps.know);
    this.chat = new ChatCommands(this, {
      ...deps,
      sendChat: (line) => this.conn.send("player:chat", { message: line }),
      command: (behaviour, label) => (this.command = { behaviour, label }),
    });
  }

  start(): void {
    this.setState("connecting");
    this.conn.connect();
  }

  /** Leaves the world for good (DELETE /agents/:id, runtime shutdown). */
  stop(reason = "stopped by its owner"): void {
    this.reason = reason;
    // Stopped first: a close the link reports at once is not taken for the server's.
    this.setState("stopped");
    this.conn.close();
  }

  get messagesSent(): number {
    return this.conn.sent;
  }

  /** Its link can send now. */
  get linkOpen(): boolean {
    return this.conn.open;
  }

  private setState(state: AgentState): void {
    if (this.state === state) return;
    this.state = state;
    this.deps.onState?.(this);
  }

  log(kind: Activity["kind"], text: string): void {
    this.activity.unshift({ at: new Date().toISOString(), kind, text });
    if (this.activity.length > ACTIVITY_KEPT) this.activity.length = ACTIVITY_KEPT;
  }

  /**
   * Sets or clears its owner's standing instruction (brain/focus.ts). A new focus is followed at
   * once: the goal it chose for itself before is ended and the next chosen by the focus (a ladder
   * run of 12:13 chose a fight at 1/1/1 a tick before `focus melee` came, and spent 480 ticks and
   * all its food on two cows where the focus does its quests first). A goal chosen before the focus
   * came and not yet confirmed by the server is ended when it comes (onGoal): one of 2026-11-30 02:02
   * came between the two, and the fighter spent 480 ticks and its five loaves on cows at 1/1/1.
   */
  setFocus(focus: Focus | null): void {
    const changed = (focus ?? undefined) !== this.record.focus;
    this.record.focus = focus ?? undefined;
    this.log("decision", focus === null ? "focus cleared" : `focus: ${focus}`);
    this.deps.onFocus?.(this);
    if (changed && focus !== null && this.goal?.lockedBy === "autonomous" && this.behaviour !== undefined)
      this.endGoal("done", `focus ${focus}: choosing again`);
  }

  /** `GET /agents/:id`. */
  toJSON(): object {
    const self = this.view.self;
    return {
      agentId: this.record.agentId,
      characterId: this.record.characterId,
      name: self?.name ?? this.record.name,
      state: this.state,
      ...(this.reason !== undefined && (this.state === "error" || this.state === "stopped") ? { reason: this.reason } : {}),
      brain: this.deps.brain.name,
      goal: this.goal,
      goalsPaused: this.goalsPaused,
      focus: this.record.focus ?? null,
      progress: this.goal?.progress ?? null,
      command: this.command?.label ?? null,
      position: self === undefined ? null : this.view.position,
      activity: this.activity,
    };
  }

  // ---- the connection's events ---------------------------------------------------------------

  private onClose(code: number, reason: string, final: boolean): void {
    if (this.state === "stopped") return;
    this.log("event", `disconnected (${code}): ${reason}`);
    this.reason = reason;
    this.setState(final ? "error" : "connecting");
  }

  private onEvent(...event: ServerEventArgs): void {
    const [type, data] = event;
    switch (type) {
      case "welcome":
        this.view.welcome(data);
        this.choosingSince = undefined;
        this.conn.send("quest:getList", {});
        break;
      case "quest:list":
        this.quests = data.quests;
        break;
      case "player:sync":
        this.view.sync(data);
        if (this.state === "connecting") this.setState(this.goalsPaused ? "paused" : "playing");
        break;
      case "world:update":
        this.view.update(data);
        break;
      case "agent:goal":
        this.onGoal(data);
        break;
      case "agent:message":
        this.onCommandText(data.message, "owner");
        break;
      case "chat:message": {
        const m = data;
        if (m.channel !== "local" || m.fromId === this.view.playerId) break;
        const text = addressedTo(this.view.self?.name ?? this.record.name, m.message);
        if (text !== undefined) this.onCommandText(text, m.fromName, m.fromId);
        break;
      }
      case "player:death": {
        const d = data;
        this.log("event", `died${d.killedBy !== null ? ` (killed by ${d.killedBy})` : ""}`);
        this.endGoal("failed", "died");
        break;
      }
      case "error":
        if (data.event === "agent:setGoal") {
          this.choosingSince = undefined;
          this.log("event", `goal refused: ${data.message}`);
          this.recentGoals.unshift({ type: "?", outcome: "failed" });
        }
        break;
    }
    const rubbed = this.lamp.onEvent(event, this.view, this.record.focus, this.ctx.send);
    if (rubbed !== undefined) return this.log("action", rubbed);
    this.command?.behaviour.onEvent?.(...event, this.ctx);
    this.behaviour?.onEvent?.(...event, this.ctx);
  }

  private onGoal(e: ServerEvent<"agent:goal"> & { availableGoals?: GoalOption[] }): void {
    if (e.availableGoals !== undefined) this.availableGoals = e.availableGoals;
    if (e.goalsPaused && !this.goalsPaused) {
      this.goalsPaused = true;
      this.behaviour = undefined;
      this.command = undefined;
      this.choosingSince = undefined;
      // Whatever the agent was doing ends now; the server cancelled the path too.
      this.conn.send("player:action", { action: "stop" });
      this.log("decision", "goals paused: idle");
      if (this.state === "playing") this.setState("paused");
    } else if (!e.goalsPaused && this.goalsPaused) {
      this.goalsPaused = false;
      this.log("decision", "goals resumed");
      if (this.state === "paused") this.setState("playing");
    }
    const goal = e.goal;
    if (this.awaitingOptions) {
      this.awaitingOptions = false;
      this.choosingSince = undefined;
      if (!this.goalsPaused && this.behaviour === undefined && goal?.id === this.goal?.id && this.view.self !== undefined) {
        this.goal = goal;
        this.choose();
        return;
      }
    }
    if (goal === null) {
      this.goal = null;
      this.behaviour = undefined;
      // Resumed (or connected) without a goal: choose one now rather than at the next step.
      if (!this.goalsPaused && this.view.self !== undefined && this.choosingSince === undefined) this.choose();
      return;
    }
    const fresh = goal.id !== this.goal?.id;
    this.goal = goal;
    if (!fresh) return;
    this.choosingSince = undefined;
    this.reportedProgress = goal.progress;
    this.bestProgress = goal.progress;
    if (this.endedGoals.has(goal.id)) return;
    this.behaviour = behaviourFor(goal, {
      know: this.deps.know,
      view: this.view,
      focus: this.record.focus,
      observation: () => this.observation(),
      keep: this.deps.fallback.keep,
    });
    this.behaviourGoalId = goal.id;
    this.questAtStart = goal.type === "quest" ? this.questEntry(goal.target) : undefined;
    this.watch.began(this.ticks);
    this.log("decision", `goal: ${goal.description}${goal.target !== undefined ? ` (${nameOf(this.deps.know, goal.target)})` : ""} [${goal.lockedBy}]`);
    const chosen = this.chosenUnder;
    this.chosenUnder = undefined;
    const focus = this.record.focus;
    if (chosen !== undefined && goal.lockedBy === "autonomous" && focus !== undefined && chosen.focus !== focus)
      this.endGoal("done", `focus ${focus}: choosing again`);
  }

  // ---- one game tick -------------------------------------------------------------------------

  /** Called once a game tick by the runtime. Cheap when there is nothing to decide. */
  step(): void {
    if ((this.state !== "playing" && this.state !== "paused") || this.view.self === undefined) return;
    this.ticks++;
    if (this.chat.waiting) this.chat.flush();
    if (this.command !== undefined) {
      const out = this.command.behaviour.step(this.ctx);
      if (out.end !== undefined) {
        this.log("action", `${this.command.label}: ${out.why}`);
        this.command = undefined;
        if (this.goalsPaused) this.log("decision", "goals paused: idle");
      }
      return;
    }
    if (!this.goalsPaused && this.reflex()) return;
    // An xp lamp is rubbed out of a fight and a quest (whose dialogues the quest goal answers).
    if (!(this.behaviour instanceof QuestGoal || this.behaviour instanceof Fight) && this.lamp.step(this.view, this.deps.know, this.ticks, this.ctx.send))
      return;
    this.reflexes.prayersOff(this.behaviour);
    // While paused, the only goal is one set by hand after the pause (a command or the owner's
    // REST call): pursued, then the agent idles again instead of choosing another.
    if (this.behaviour !== undefined) {
      const out = this.behaviour.step(this.ctx);
      this.report(out);
      if (out.end !== undefined) this.endGoal(out.end, out.why, out.crowded === true);
      else {
        const givenUp = this.watch.givenUp(this.goal, this.ticks, this.lastProgressAt);
        if (givenUp !== undefined) this.endGoal("failed", givenUp.why, givenUp.crowded);
      }
      return;
    }
    if (this.goalsPaused) return;
    if (this.choosingSince === undefined || this.ticks - this.choosingSince > CHOICE_TIMEOUT_TICKS) this.requestOptions();
  }

  /** The options change with what the agent carries: ask for fresh ones, and choose when they come. */
  private requestOptions(): void {
    this.choosingSince = this.ticks;
    this.awaitingOptions = true;
    this.conn.send("agent:getGoal", {});
  }

  /** Its reflexes (reflexes.ts): eats when hurt, or ends a fight it is losing and walks home. True when it acted. */
  private reflex(): boolean {
    const reflex = this.reflexes.eatOrFlee(this.behaviour, this.goal?.type, this.quests);
    if (reflex === "flee") {
      const self = this.view.self!;
      const training = this.goal?.type === "combat";
      this.endGoal("failed", `leaving a losing fight (health ${self.health}/${self.maxHealth})`, false, true);
      // From a training fight with raw food and a fire it can light here, only out of the fight: it
      // cooks in the field (cooking.ts Cook). From a quest, home: a flight of 12 tiles from the
      // Sunken Cistern's sentries stayed in the cistern (a run of 16:33).
      const raw = self.inventory.some((s) => this.deps.know.registry.recipes.cooking.some((r) => r.raw === s.itemId));
      this.command =
        training && raw && fieldFireLog(this.view, this.deps.know) !== undefined
          ? { behaviour: new GoTo(fleeSpot(this.view.position, this.deps.know.spawn), "out of the fight"), label: "flee the fight" }
          : { behaviour: new GoTo(this.deps.know.spawn, "home"), label: "flee home" };
    }
    return reflex !== undefined;
  }

  private report(out: Outcome): void {
    const goal = this.goal;
    if (goal === null || this.behaviourGoalId !== goal.id) return;
    // A new high only: 25 % held after a report of 20 % is no progress (it kept a stalled make alive for 4,000 ticks).
    if (out.progress > this.bestProgress) {
      this.bestProgress = out.progress;
      this.lastProgressAt = this.ticks;
    }
    if (out.progress >= this.reportedProgress + PROGRESS_STEP || (out.progress === 100 && this.reportedProgress < 100)) {
      this.reportedProgress = out.progress;
      this.conn.send("agent:goalProgress", { goalId: goal.id, progress: out.progress });
    }
  }

  private endGoal(end: "done" | "failed", why: string, crowded = false, fled = false): void {
    const goal = this.goal;
    if (goal === null || this.behaviour === undefined) return;
    this.endedGoals.add(goal.id);
    this.behaviour = undefined;
    const stalled = end === "failed" && goal.type === "quest" && this.questEntry(goal.target) === this.questAtStart;
    this.recentGoals.unshift({
      type: goal.type,
      target: goal.target,
      outcome: end,
      ...(crowded ? { crowded } : {}),
      ...(stalled ? { stalled } : {}),
      ...(fled ? { fled } : {}),
    });
    this.recentGoals.length = Math.min(this.recentGoals.length, RECENT_GOALS);
    // A goal given up is no progress (the benches count agents getting somewhere).
    if (end === "done") this.lastProgressAt = this.ticks;
    this.log("decision", `goal ${end}: ${goal.description} (${why})`);
  }

  /** A quest's entry of the last `quest:list`, as text (to compare); "" when not heard. */
  private questEntry(questId: string | undefined): string {
    return JSON.stringify(this.quests?.find((q) => q.id === questId) ?? "");
  }

  observation(): Observation {
    const self = this.view.self!;
    const nearby: Record<string, number> = {};
    for (const e of this.view.entities.values()) {
      if (e.id === this.view.playerId) continue;
      const key = `${e.kind}:${e.ref ?? e.name ?? ""}`;
      nearby[key] = (nearby[key] ?? 0) + 1;
    }
    return {
      name: self.name,
      position: this.view.position,
      health: self.health,
      maxHealth: self.maxHealth,
      combatLevel: self.combatLevel,
      coins: self.coins,
      skills: self.skills,
      inventory: self.inventory,
      freeSlots: this.view.freeSlots(),
      equipment: Object.fromEntries(Object.entries(self.equipment).map(([k, v]) => [k, v.itemId])),
      nearby,
      availableGoals: this.availableGoals,
      quests: this.quests,
      focus: this.record.focus,
      recentGoals: this.recentGoals,
    };
  }

  /** Asks the brain for the next goal, off the tick: the answer is sent when it comes. */
  private choose(): void {
    if (this.availableGoals.length === 0) return;
    this.choosingSince = this.ticks;
    const obs = this.observation();
    const started = this.ticks;
    const usable = (c: { type: string; target?: string | undefined }) => {
      const option = this.availableGoals.find((g) => g.type === c.type);
      return option !== undefined && (c.target === undefined || option.targets.length === 0 || option.targets.includes(c.target));
    };
    void this.deps.brain
      .chooseGoal(obs)
      .catch(() => this.deps.fallback.choose(obs))
      .then((choice) => {
        // A pause or a new goal while the brain thought makes its answer moot.
        if (this.goalsPaused || this.choosingSince !== started || this.behaviour !== undefined) return;
        const c = usable(choice) ? choice : this.deps.fallback.choose(obs);
        this.log("decision", `choose ${c.type}${c.target !== undefined ? ` (${nameOf(this.deps.know, c.target)})` : ""}: ${c.reason}`);
        this.chosenUnder = { focus: obs.focus };
        this.conn.send("agent:setGoal", { type: c.type, ...(c.target !== undefined ? { target: c.target } : {}) });
      });
  }

  // ---- commands ------------------------------------------------------------------------------

  /** `fromId`: the character that said it in chat (undefined: the owner's `agent:message`). */
  private onCommandText(text: string, from: string, fromId?: string): void {
    this.chat.heard(text, from, fromId);
  }
}
