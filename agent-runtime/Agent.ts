/**
 * One running agent: its connection, what it sees, its brain and its goal.
 *
 * The server owns the goal (`agent:goal` says what it is and whether goals are paused); the agent
 * pursues it with a behaviour (brain/behaviours.ts) stepped once a game tick, reports progress
 * (`agent:goalProgress`), and when a goal ends and goals are not paused, asks its brain for the
 * next one and sets it on the server as `autonomous` (`agent:setGoal`). Chat commands (from the
 * owner's `agent:message` or one of the owner's characters addressing it by name: owners.ts) run as
 * the same kind of behaviour ahead of the goal; while goals are paused, the agent idles again after
 * a command. It never says a line that would be a command (speech.ts).
 */
import type { ServerEvent } from "../src/game/serverEvents.ts";
import { CHAT_LIMIT, CHAT_WINDOW_MS, type ClientEvent, type ClientEventName } from "../src/game/clientEvents.ts";
import { AgentView } from "./AgentView.ts";
import type { AgentLink, LinkFactory } from "./GameConnection.ts";
import { Bank, Cook, Explore, Fight, Firemake, Follow, Gather, GoTo, Idle, Shop, type Behaviour, type Ctx, type Outcome } from "./brain/behaviours.ts";
import type { Brain, GoalOption, Observation } from "./brain/Brain.ts";
import { addressedTo, parseCommand, type Command } from "./brain/commands.ts";
import { kitOf, prayerState, runePurchase, shouldEat, threat, togglePrayer } from "./brain/fighting.ts";
import { Random } from "./brain/random.ts";
import { toolPurchases, type ScriptedBrain } from "./brain/scripted.ts";
import { nameOf, type Knowledge } from "./knowledge.ts";
import type { ServerApi } from "./serverApi.ts";
import { OwnerCharacters } from "./owners.ts";
import { spokenLine } from "./speech.ts";

export type AgentState = "connecting" | "playing" | "paused" | "error" | "stopped";
type Goal = NonNullable<ServerEvent<"agent:goal">["goal"]>;

export const ACTIVITY_KEPT = 50;
/** Progress is reported when it moved this many points (and always at 100). */
export const PROGRESS_STEP = 10;
/** Ticks to wait for the server to confirm a chosen goal before choosing again. */
export const CHOICE_TIMEOUT_TICKS = 10;
/**
 * Eat below this share of health (or within one max hit of a monster next to it: brain/fighting.ts
 * shouldEat); leave a fight below the second, or within a max hit, with nothing to eat.
 */
export const EAT_BELOW = 0.5;
export const FLEE_BELOW = 0.3;
/** Between goals, eat below this share (the scripted policy fights at 70 % and up). */
export const TOP_UP_BELOW = 0.75;
/**
 * An autonomous training goal (gathering, combat) that gained no experience for this many ticks is
 * given up as failed, so the brain tries something else: with many agents in one place the trees,
 * rocks and monsters are taken, and waiting for them is no way to train.
 */
export const GOAL_STALL_TICKS = 80;
const TRAINING_GOALS = new Set(["woodcutting", "mining", "fishing", "combat"]);

export interface Activity {
  at: string;
  kind: "decision" | "action" | "chat" | "event";
  text: string;
}

export interface AgentRecord {
  agentId: string;
  token: string;
  characterId: string;
  name: string;
  /** The owner's account (the game server's account id). */
  ownerAccountId: string;
}

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
  readonly activity: Activity[] = [];
  /** Ticks stepped, and the ticks in which its goal made progress (for the benches). */
  ticks = 0;
  lastProgressAt = 0;
  /** The experience total last seen, and the tick it last grew (a training goal's sign of life). */
  private xpSeen = -1;
  private xpGrewAt = 0;

  private readonly deps: AgentDeps;
  private readonly conn: AgentLink;
  private readonly rng: Random;
  private behaviour: Behaviour | undefined;
  private behaviourGoalId: string | undefined;
  private command: { behaviour: Behaviour; label: string } | undefined;
  private readonly endedGoals = new Set<string>();
  private readonly recentGoals: Observation["recentGoals"] = [];
  private choosingSince: number | undefined;
  /** Asked the server for fresh options (`agent:getGoal`) to choose from when they come. */
  private awaitingOptions = false;
  private reportedProgress = -1;
  private lastEatTick = -Infinity;
  /** Chat lines waiting for the server's chat limit, and when the last ones went out (ms). */
  private readonly chatQueue: string[] = [];
  /** Commands run one after another, in the order they were heard ("resume" then "stop" ends stopped). */
  private commands: Promise<void> = Promise.resolve();
  private readonly chatTimes: number[] = [];
  private readonly ctx: Ctx;
  /** The owner's characters: the only players whose chat commands it obeys. */
  private readonly owners: OwnerCharacters;

  constructor(deps: AgentDeps) {
    this.deps = deps;
    this.record = deps.record;
    this.owners = new OwnerCharacters(deps.api, deps.record.agentId, deps.record.token);
    this.rng = new Random(`${deps.seed}:${deps.record.agentId}`);
    this.conn = deps.link(deps.record.token, {
      onOpen: () => this.log("event", "connected"),
      onEvent: (type, data) => this.onEvent(type, data),
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

  private onEvent(type: string, data: Record<string, unknown>): void {
    switch (type) {
      case "welcome":
        this.view.welcome(data as ServerEvent<"welcome">);
        this.choosingSince = undefined;
        break;
      case "player:sync":
        this.view.sync(data as ServerEvent<"player:sync">);
        if (this.state === "connecting") this.setState(this.goalsPaused ? "paused" : "playing");
        break;
      case "world:update":
        this.view.update(data as ServerEvent<"world:update">);
        break;
      case "agent:goal":
        this.onGoal(data as ServerEvent<"agent:goal"> & { availableGoals?: GoalOption[] });
        break;
      case "agent:message":
        this.onCommandText(String(data.message), "owner");
        break;
      case "chat:message": {
        const m = data as ServerEvent<"chat:message">;
        if (m.channel !== "local" || m.fromId === this.view.playerId) break;
        const text = addressedTo(this.view.self?.name ?? this.record.name, m.message);
        if (text !== undefined) this.onCommandText(text, m.fromName, m.fromId);
        break;
      }
      case "player:death": {
        const d = data as ServerEvent<"player:death">;
        this.log("event", `died${d.killedBy !== null ? ` (killed by ${d.killedBy})` : ""}`);
        this.endGoal("failed", "died");
        break;
      }
      case "error":
        if (data.event === "agent:setGoal") {
          this.choosingSince = undefined;
          this.log("event", `goal refused: ${String(data.message)}`);
          this.recentGoals.unshift({ type: "?", outcome: "failed" });
        }
        break;
    }
    this.command?.behaviour.onEvent?.(type, data, this.ctx);
    this.behaviour?.onEvent?.(type, data, this.ctx);
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
    if (this.endedGoals.has(goal.id)) return;
    this.behaviour = this.behaviourFor(goal);
    this.behaviourGoalId = goal.id;
    this.xpGrewAt = this.ticks;
    this.log("decision", `goal: ${goal.description}${goal.target !== undefined ? ` (${nameOf(this.deps.know, goal.target)})` : ""} [${goal.lockedBy}]`);
  }

  private behaviourFor(goal: Goal): Behaviour {
    const know = this.deps.know;
    const bestResource = (skill: string) =>
      [...know.registry.resources.values()]
        .filter((r) => r.gathering === skill && r.levelRequired <= (this.view.self?.skills[skill]?.level ?? 1) && this.view.has(r.toolRequired) && know.resourceSpots.has(r.id))
        .sort((a, b) => b.levelRequired - a.levelRequired)[0]?.id;
    switch (goal.type) {
      case "woodcutting":
      case "mining":
      case "fishing":
        return new Gather(goal.type, goal.target ?? bestResource(goal.type) ?? "");
      case "combat": {
        const mob = goal.target ?? [...know.mobSpots.keys()].sort((a, b) => (know.registry.npcs.get(a)?.stats?.level ?? 1) - (know.registry.npcs.get(b)?.stats?.level ?? 1))[0];
        return new Fight(mob ?? "");
      }
      case "banking":
        return new Bank();
      case "cooking":
        return new Cook();
      case "firemaking":
        return new Firemake();
      case "shopping": {
        // Runes: for the strongest spell it can afford to cast many times (brain/fighting.ts).
        if (goal.target !== undefined && know.registry.magic.runes.has(goal.target)) {
          const runes = runePurchase(kitOf(this.view.self!), know);
          return runes === undefined ? new Idle() : new Shop(runes.storeId, runes.items);
        }
        const buy = toolPurchases(know).find((t) => t.itemId === goal.target) ?? toolPurchases(know)[0];
        return buy === undefined ? new Idle() : new Shop(buy.storeId, buy.itemId);
      }
      case "explore":
        return new Explore(goal.target);
      default:
        return new Idle();
    }
  }

  // ---- one game tick -------------------------------------------------------------------------

  /** Called once a game tick by the runtime. Cheap when there is nothing to decide. */
  step(): void {
    if ((this.state !== "playing" && this.state !== "paused") || this.view.self === undefined) return;
    this.ticks++;
    if (this.chatQueue.length > 0) this.flushChat();
    if (this.command !== undefined) {
      const out = this.command.behaviour.step(this.ctx);
      if (out.end !== undefined) {
        this.log("action", `${this.command.label}: ${out.why}`);
        this.command = undefined;
        if (this.goalsPaused) this.log("decision", "goals paused: idle");
      }
      return;
    }
    if (!this.goalsPaused && this.reflexes()) return;
    this.endPrayers();
    // While paused, the only goal is one set by hand after the pause (a command or the owner's
    // REST call): pursued, then the agent idles again instead of choosing another.
    if (this.behaviour !== undefined) {
      const out = this.behaviour.step(this.ctx);
      this.report(out);
      if (out.end !== undefined) this.endGoal(out.end, out.why, out.crowded === true);
      else if (this.stalled()) this.endGoal("failed", `crowded or out of reach: no experience in ${GOAL_STALL_TICKS} ticks`, true);
      return;
    }
    if (this.goalsPaused) return;
    if (this.choosingSince === undefined || this.ticks - this.choosingSince > CHOICE_TIMEOUT_TICKS) this.requestOptions();
  }

  /** True when an autonomous training goal has gained no experience for GOAL_STALL_TICKS. */
  private stalled(): boolean {
    const goal = this.goal;
    if (goal === null || goal.lockedBy !== "autonomous" || !TRAINING_GOALS.has(goal.type)) return false;
    let xp = 0;
    for (const s of Object.values(this.view.self!.skills)) xp += s.xp;
    if (xp !== this.xpSeen) {
      this.xpSeen = xp;
      this.xpGrewAt = this.ticks;
      return false;
    }
    return this.ticks - this.xpGrewAt > GOAL_STALL_TICKS;
  }

  /** The options change with what the agent carries: ask for fresh ones, and choose when they come. */
  private requestOptions(): void {
    this.choosingSince = this.ticks;
    this.awaitingOptions = true;
    this.conn.send("agent:getGoal", {});
  }

  /** Out of a fight, the prayers it left on are switched off (they drain points for nothing). */
  private endPrayers(): void {
    const active = prayerState(this.view.self!)?.active;
    if (active === undefined || active.length === 0 || this.behaviour instanceof Fight || this.ticks - this.prayersOffAt < 3) return;
    this.prayersOffAt = this.ticks;
    for (const id of active) togglePrayer(this.ctx.send, id, false);
    this.log("action", `stop praying (${active.join(", ")})`);
  }

  private prayersOffAt = -Infinity;

  /** Eat when hurt; leave a fight that is being lost with nothing to eat. True when it acted. */
  private reflexes(): boolean {
    const self = this.view.self!;
    // Health does not come back by itself: between goals it eats up to the level it fights at.
    const threshold = this.behaviour === undefined ? TOP_UP_BELOW : EAT_BELOW;
    if (!shouldEat(this.view, this.deps.know, threshold)) return false;
    const food = self.inventory.find((s) => (this.deps.know.registry.item(s.itemId)?.healAmount ?? 0) > 0);
    if (food !== undefined) {
      if (this.ticks - this.lastEatTick < 3) return false;
      this.lastEatTick = this.ticks;
      this.conn.send("inventory:use", { slot: food.slot });
      this.log("action", `eat ${nameOf(this.deps.know, food.itemId)} (health ${self.health}/${self.maxHealth})`);
      return true;
    }
    const losing = self.health < self.maxHealth * FLEE_BELOW || self.health <= threat(this.view, this.deps.know);
    if (losing && this.goal?.type === "combat" && this.behaviour !== undefined) {
      this.endGoal("failed", `leaving a losing fight (health ${self.health}/${self.maxHealth})`);
      this.command = { behaviour: new GoTo(this.deps.know.spawn, "home"), label: "flee home" };
      return true;
    }
    return false;
  }

  private report(out: Outcome): void {
    const goal = this.goal;
    if (goal === null || this.behaviourGoalId !== goal.id) return;
    if (out.progress > this.reportedProgress) this.lastProgressAt = this.ticks;
    if (out.progress >= this.reportedProgress + PROGRESS_STEP || (out.progress === 100 && this.reportedProgress < 100)) {
      this.reportedProgress = out.progress;
      this.conn.send("agent:goalProgress", { goalId: goal.id, progress: out.progress });
    }
  }

  private endGoal(end: "done" | "failed", why: string, crowded = false): void {
    const goal = this.goal;
    if (goal === null || this.behaviour === undefined) return;
    this.endedGoals.add(goal.id);
    this.behaviour = undefined;
    this.recentGoals.unshift({ type: goal.type, target: goal.target, outcome: end, ...(crowded ? { crowded } : {}) });
    this.recentGoals.length = Math.min(this.recentGoals.length, 10);
    // A goal given up is no progress (the benches count agents getting somewhere).
    if (end === "done") this.lastProgressAt = this.ticks;
    this.log("decision", `goal ${end}: ${goal.description} (${why})`);
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
        this.conn.send("agent:setGoal", { type: c.type, ...(c.target !== undefined ? { target: c.target } : {}) });
      });
  }

  // ---- commands ------------------------------------------------------------------------------

  /** `fromId`: the character that said it in chat (undefined: the owner's `agent:message`). */
  private onCommandText(text: string, from: string, fromId?: string): void {
    const command = parseCommand(text);
    this.log("chat", `${from}: ${text}`);
    const obeyed = fromId === undefined ? true : this.owners.has(fromId);
    this.commands = this.commands
      .then(async () => {
        // Anyone else's is plain chat: not obeyed, not answered (an answer would let anyone make it talk).
        if (!(await obeyed)) return this.log("decision", `not obeyed: ${from} is not one of its owner's characters`);
        await this.run(command, from);
      })
      .catch((err: unknown) => this.say(`I couldn't do that: ${(err as Error).message}`));
  }

  /** Says a line in chat, within the server's chat limit: lines beyond it wait (the oldest waiting ones are dropped past a few). */
  private say(message: string): void {
    const spoken = spokenLine(message);
    if (spoken === undefined) return;
    if ("withheld" in spoken) return this.log("chat", `withheld (it would be a command): ${spoken.withheld}`);
    const line = spoken.line;
    this.chatQueue.push(line);
    if (this.chatQueue.length > CHAT_LIMIT) this.chatQueue.shift();
    this.flushChat();
  }

  private flushChat(): void {
    const now = Date.now();
    // The server counts a line when its tick handles it, up to a tick after it was sent: keep a margin.
    const window = CHAT_WINDOW_MS + 2 * this.view.tickMs + 100;
    while (this.chatTimes.length > 0 && now - this.chatTimes[0]! >= window) this.chatTimes.shift();
    while (this.chatQueue.length > 0 && this.chatTimes.length < CHAT_LIMIT) {
      const line = this.chatQueue.shift()!;
      if (!this.conn.send("player:chat", { message: line })) return;
      this.chatTimes.push(now);
      this.log("chat", `me: ${line}`);
    }
  }

  private async run(command: Command, from: string): Promise<void> {
    const { api, know } = this.deps;
    const { agentId, token } = this.record;
    switch (command.kind) {
      case "stop":
        await api.stop(agentId, token);
        this.say("Stopping.");
        return;
      case "resume":
        await api.resume(agentId, token);
        this.say("Resuming.");
        return;
      case "status":
        this.say(this.status());
        return;
      case "home":
        this.command = { behaviour: new GoTo(know.spawn, "home"), label: "go home" };
        this.say("Going home.");
        return;
      case "follow":
        this.command = { behaviour: new Follow(command.name), label: `follow ${command.name}` };
        this.say(`Following ${command.name}.`);
        return;
      case "bank":
        this.command = { behaviour: new Bank(true), label: "go to bank" };
        this.say("Going to the bank.");
        return;
      case "goal": {
        let target = command.target;
        if (command.type === "combat" && target !== undefined) {
          // "fight goblins": the monster whose id or name matches.
          const want = target.toLowerCase();
          const option = this.availableGoals.find((g) => g.type === "combat");
          target = option?.targets.find((id) => id.includes(want.replace(/ /g, "_")) || (know.registry.npcs.get(id)?.name ?? "").toLowerCase().includes(want));
          if (target === undefined) {
            this.say(`I don't know where to find ${command.target}.`);
            return;
          }
        }
        return this.setManualGoal(command.type, target);
      }
      case "unknown": {
        const reply = await this.deps.brain.reply(command.text, from, this.observation()).catch(() => this.deps.fallback.reply(command.text));
        this.say(reply);
        return;
      }
    }
  }

  private async setManualGoal(type: string, target: string | undefined): Promise<void> {
    await this.deps.api.setGoal(this.record.agentId, this.record.token, { type, target });
    this.say(`On it: ${type}${target !== undefined ? ` (${target})` : ""}.`);
  }

  /** One chat line: goal, levels, inventory. */
  status(): string {
    const self = this.view.self;
    if (self === undefined) return "Not in the world yet.";
    const goal = this.goalsPaused ? "paused" : this.goal === null ? "none" : `${this.goal.description} ${this.goal.progress}%`;
    const skills = ["attack", "strength", "defense", "woodcutting", "fishing", "mining", "cooking", "firemaking"]
      .map((s) => `${s.slice(0, 4)} ${self.skills[s]?.level ?? 1}`)
      .join(", ");
    return `Goal: ${goal}. Combat ${self.combatLevel}; ${skills}. Inventory ${self.inventory.length}/28, ${self.coins} coins. HP ${self.health}/${self.maxHealth}.`;
  }
}
