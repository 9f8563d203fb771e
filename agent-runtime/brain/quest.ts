/**
 * The `quest` goal: do one quest (the goal's target) from where it stands to its completion. It
 * asks for its quest list (`quest:getList`, answered by `quest:list`, sent again by the server after
 * every change), decides the step every tick (questPlan.ts nextStep) and plays it with the other
 * goals' behaviours (a fight, a gathering trip, a purchase, making, cooking, a fire, the bank), or
 * its own: talking to an NPC and answering its dialogue (questOption), using a place, climbing a
 * ladder, walking into an area (opening a shut door that stops the walk). A step the plan no
 * longer asks for is dropped at once; one that keeps failing, or a quest that moves no further for
 * QUEST_STUCK_TICKS, gives the goal up.
 */
import { dist } from "../AgentView.ts";
import { nameOf, type Spot } from "../knowledge.ts";
import { Bank, Cook, Firemake, Gather, Shop } from "./behaviours.ts";
import { ended, errorOf, going, STALL_TICKS, Walker, type Behaviour, type BehaviourEventArgs, type Ctx, type Outcome } from "./behaviourKit.ts";
import { Fight } from "./fight.ts";
import { Make } from "./making.ts";
import { nextStep, questOption, type QuestDef, type QuestEntry, type QuestStep } from "./questPlan.ts";

/** Ticks without any change to the quest after which the goal is given up. */
export const QUEST_STUCK_TICKS = 1500;
/** Failures of one step after which the goal is given up. */
export const STEP_FAILURES = 4;

export class QuestGoal implements Behaviour {
  private readonly questId: string;
  private entry: QuestEntry | undefined;
  private askedAt = -Infinity;
  private sub: { key: string; behaviour: Behaviour } | undefined;
  private readonly failures = new Map<string, number>();
  private changedAt: number | undefined;
  private lastNote = "";
  /** The last step was cooking: the batch is cooked out before more raw food is gathered (questPlan.ts StepMemory). */
  private cooking = false;

  constructor(questId: string) {
    this.questId = questId;
  }

  /** Fighting for a `kill` stage now (its prayers stay on: Agent.endPrayers). */
  get fighting(): boolean {
    return this.sub?.behaviour instanceof Fight;
  }

  private quest(ctx: Ctx): QuestDef | undefined {
    return ctx.know.registry.quests.quests.get(this.questId);
  }

  private progress(quest: QuestDef): number {
    const e = this.entry;
    if (e === undefined || e.status === "not_started") return 0;
    if (e.status === "completed") return 100;
    const i = quest.stages.findIndex((s) => s.id === e.stage);
    const part = e.progress === undefined ? 0 : e.progress.count / Math.max(1, e.progress.required);
    return Math.min(99, Math.round((100 * (Math.max(0, i) + part)) / quest.stages.length));
  }

  step(ctx: Ctx): Outcome {
    this.changedAt ??= ctx.tick;
    const quest = this.quest(ctx);
    if (quest === undefined) return ended("failed", `no quest ${this.questId} in this world`, 0);
    if (this.entry === undefined && ctx.tick - this.askedAt >= STALL_TICKS) {
      this.askedAt = ctx.tick;
      ctx.send("quest:getList", {});
    }
    const progress = this.progress(quest);
    if (ctx.tick - this.changedAt > QUEST_STUCK_TICKS) return ended("failed", `${quest.name}: no step done in ${QUEST_STUCK_TICKS} ticks`, progress);
    const step = nextStep(ctx, quest, this.entry, { cooking: this.cooking });
    this.cooking = step.kind === "cook";
    if (step.kind === "done") return ended("done", step.why);
    if (step.kind === "fail") return ended("failed", `${quest.name}: ${step.why}`, progress);
    if (step.kind === "wait") return going(progress);
    const key = stepKey(step);
    if (this.sub?.key !== key) {
      this.sub = { key, behaviour: behaviourOf(step, quest) };
      if (step.why !== this.lastNote) ctx.note(`${quest.name}: ${step.why}`);
      this.lastNote = step.why;
    }
    const out = this.sub.behaviour.step(ctx);
    if (out.end !== undefined) {
      this.sub = undefined;
      if (out.end === "failed") {
        const n = (this.failures.get(key) ?? 0) + 1;
        this.failures.set(key, n);
        if (n >= STEP_FAILURES) return ended("failed", `${quest.name}: ${step.why}: ${out.why}`, progress);
      }
    }
    return going(progress);
  }

  onEvent(...event: BehaviourEventArgs): void {
    const [type, raw, ctx] = event;
    const data = raw as Record<string, unknown>;
    if (type === "quest:list") {
      const entry = (data as { quests: QuestEntry[] }).quests.find((q) => q.id === this.questId);
      if (entry !== undefined && JSON.stringify(entry) !== JSON.stringify(this.entry)) this.changedAt = ctx.tick;
      this.entry = entry;
    }
    this.sub?.behaviour.onEvent?.(...event);
  }
}

/** What makes two steps the same (the behaviour playing it goes on). */
function stepKey(step: QuestStep): string {
  const { why: _why, ...rest } = step;
  void _why;
  return JSON.stringify(rest);
}

function behaviourOf(step: QuestStep, quest: QuestDef): Behaviour {
  switch (step.kind) {
    case "talk":
      return new Talk(step.npcId, quest);
    case "fight":
      // No altar trip between a quest's kills: one took 80 ticks between Tusks in the Hollow's two boars in a run of 17:05.
      return new Fight(step.mobId, { altar: false });
    case "gather":
      return new Gather(step.skill, step.resourceId);
    case "buy":
      return new Shop(step.storeId, [{ itemId: step.itemId, quantity: step.quantity }]);
    case "make":
      return new Make(step.recipeId);
    case "cook":
      return new Cook();
    case "light":
      return new Firemake();
    case "bank":
      return new Bank();
    case "use":
    case "climb":
      return new Use(step.kind === "use" ? step.targetId : step.ladderId);
    case "walk":
      return new WalkThrough(step.to);
    default:
      return new Use("");
  }
}

/**
 * Talks to an NPC for the quest: walks to where it stands until it is in view, asks to talk, and
 * answers each `dialogue:open` with the quest's option (questOption); a dialogue with nothing for
 * the quest is closed. Ends (failed) after a few talks that changed nothing: the quest goal decides
 * again from the quest list, which a talk that did its part has changed.
 */
export class Talk implements Behaviour {
  private readonly npcId: string;
  private readonly quest: QuestDef;
  private readonly walker = new Walker();
  private askedAt = -Infinity;
  private talks = 0;
  private failure: string | undefined;

  constructor(npcId: string, quest: QuestDef) {
    this.npcId = npcId;
    this.quest = quest;
  }

  step(ctx: Ctx): Outcome {
    if (this.failure !== undefined) return ended("failed", this.failure, 0);
    const npc = ctx.view.find("npc", (e) => e.ref === this.npcId && e.dead !== true)[0];
    if (npc === undefined) {
      const spot = ctx.know.registry.areas.flatMap((a) => a.npcs).find((n) => n.id === this.npcId)?.position;
      if (spot === undefined) return ended("failed", `no ${this.npcId} in this world`, 0);
      this.walker.walk(ctx, { x: spot.x, z: spot.z });
      return going(10);
    }
    if (ctx.tick - this.askedAt >= 2 * STALL_TICKS) {
      if (this.talks >= 3) return ended("failed", `${npc.name ?? this.npcId} had nothing for ${this.quest.name}`, 0);
      this.talks++;
      this.askedAt = ctx.tick;
      ctx.send("player:action", { action: "talk", targetId: npc.id });
      ctx.note(`talk to ${npc.name ?? nameOf(ctx.know, this.npcId)}`);
    }
    return going(50);
  }

  onEvent(...[type, raw, ctx]: BehaviourEventArgs): void {
    const data = raw as Record<string, unknown>;
    if (type === "dialogue:open") {
      const open = data as { nodeId: string; text: string; options: { id: string; text: string }[] };
      const choice = questOption(ctx.know, this.npcId, this.quest, open);
      if (choice === undefined) {
        ctx.send("dialogue:close", {});
        return;
      }
      ctx.note(`answer "${open.options.find((o) => o.id === choice)!.text}"`);
      ctx.send("dialogue:choose", { optionId: choice });
      return;
    }
    const err = errorOf(type, data);
    if (err === undefined) return;
    if (err.event === "dialogue:choose") this.failure = `refused: ${String(data.message ?? err.code)}`;
    else if (err.event === "player:action") this.askedAt = -Infinity;
  }
}

/** Uses a place or station by id (`interact`: the server walks there): a door, a ladder, an obstacle. */
export class Use implements Behaviour {
  private readonly targetId: string;
  private askedAt = -Infinity;
  private tries = 0;
  private failure: string | undefined;

  constructor(targetId: string) {
    this.targetId = targetId;
  }

  step(ctx: Ctx): Outcome {
    if (this.failure !== undefined) return ended("failed", this.failure, 0);
    if (this.targetId === "") return ended("failed", "nothing to use", 0);
    if (ctx.tick - this.askedAt >= 3 * STALL_TICKS) {
      if (this.tries >= 3) return ended("failed", `${this.targetId} did nothing`, 0);
      this.tries++;
      this.askedAt = ctx.tick;
      ctx.send("player:action", { action: "interact", targetId: this.targetId });
      ctx.note(`use ${this.targetId}`);
    }
    return going(50);
  }

  onEvent(...[type, raw]: BehaviourEventArgs): void {
    const data = raw as Record<string, unknown>;
    const err = errorOf(type, data);
    if (err !== undefined && err.event === "player:action") this.failure = `cannot use ${this.targetId}: ${String(data.message ?? err.code)}`;
  }
}

/**
 * Walks to a tile; when the walk stops short (a shut door's tile is blocked: the path ends in front
 * of it), opens the nearest shut door in view and walks on.
 */
export class WalkThrough implements Behaviour {
  private readonly to: Spot;
  private walker = new Walker();
  private last: Spot | undefined;
  private movedAt = 0;
  private door: string | undefined;
  private doorAt = -Infinity;
  private doors = 0;

  constructor(to: Spot) {
    this.to = to;
  }

  step(ctx: Ctx): Outcome {
    const here = ctx.view.position;
    if (dist(here, this.to) <= 1) return ended("done", `arrived at ${this.to.x},${this.to.z}`);
    if (this.last === undefined || dist(this.last, here) > 0) {
      this.last = here;
      this.movedAt = ctx.tick;
    }
    // Opening a door: the server walks to it; the walk waits until it is open (or a while).
    if (this.door !== undefined) {
      const door = ctx.view.entities.get(this.door);
      if (door?.open !== true && ctx.tick - this.doorAt < 2 * STALL_TICKS) return going(50);
      this.door = undefined;
      this.movedAt = ctx.tick;
      this.walker = new Walker();
    }
    if (ctx.tick - this.movedAt >= 4) {
      const door = ctx.view.find("object", (e) => e.ref === "door" && e.open === false && dist(e, here) <= 3)[0];
      if (door !== undefined && this.doors < 5) {
        this.doors++;
        this.door = door.id;
        this.doorAt = ctx.tick;
        ctx.send("player:action", { action: "interact", targetId: door.id });
        ctx.note(`open the door at ${door.x},${door.z}`);
        return going(50);
      }
    }
    if (ctx.tick - this.movedAt > 6 * STALL_TICKS) return ended("failed", `no way to ${this.to.x},${this.to.z}`, 0);
    this.walker.walk(ctx, this.to);
    return going(50);
  }
}
