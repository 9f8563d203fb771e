/**
 * An owner's focus that comes while the agent's own choice is on its way to the server
 * (agent-runtime/Agent.ts setFocus, onGoal): the goal chosen before the focus is ended when the
 * server confirms it, and the next is chosen under the focus. A ladder run of 2026-11-30 02:02 had
 * `focus melee` arrive between its `agent:setGoal` and the `agent:goal` answering it, and the
 * fighter spent 480 ticks and its five loaves on cows at 1/1/1 instead of its quests.
 * The agent runs over a link of the test's own: what it sends is recorded, what the server says is
 * fed to it by hand.
 */
import assert from "node:assert/strict";
import { Agent } from "../../agent-runtime/Agent.ts";
import type { AgentLink, ConnectionEvents } from "../../agent-runtime/GameConnection.ts";
import type { Brain, GoalChoice, Observation } from "../../agent-runtime/brain/Brain.ts";
import { ScriptedBrain } from "../../agent-runtime/brain/scripted.ts";
import type { ServerApi } from "../../agent-runtime/serverApi.ts";
import type { ServerEvent } from "../../src/game/serverEvents.ts";
import { bundledKnowledge, selfOf, skillsAt } from "./support.ts";

/** Chooses a cow fight with no focus, Supper at the Kettle under `focus melee`; remembers the focus of each choice. */
class FocusBrain implements Brain {
  readonly name = "focus-test";
  readonly asked: (string | undefined)[] = [];
  chooseGoal(obs: Observation): Promise<GoalChoice> {
    this.asked.push(obs.focus);
    return Promise.resolve(
      obs.focus === "melee"
        ? { type: "quest", target: "kettle_supper", reason: "the focus's quest" }
        : { type: "combat", target: "brindle_cow", reason: "a fight" },
    );
  }
  reply(): Promise<string> {
    return Promise.resolve("");
  }
}

const OPTIONS = [
  { type: "combat", description: "Fight monsters", targets: ["brindle_cow"] },
  { type: "quest", description: "Do a quest", targets: ["kettle_supper"] },
];

describe("agent runtime: a focus that comes while a choice is on its way", () => {
  let sent: { type: string; data: Record<string, unknown> }[];
  let events: ConnectionEvents;
  let agent: Agent;
  let brain: FocusBrain;
  let goals = 0;

  /** The server's `agent:goal`: no goal (with the options), or an autonomous goal of `type` and `target`. */
  const goalEvent = (goal?: { type: string; target: string }): ServerEvent<"agent:goal"> => ({
    agentId: "a1",
    goal:
      goal === undefined
        ? null
        : { id: `g${++goals}`, ...goal, description: goal.type, progress: 0, startedAt: new Date(0).toISOString(), lockedBy: "autonomous" },
    goalsPaused: false,
    availableGoals: OPTIONS,
  });
  /** Until the brain's answer (a promise) has been sent. */
  const settle = () => new Promise((r) => setImmediate(r));
  const setGoals = () => sent.filter((m) => m.type === "agent:setGoal").map((m) => m.data);

  beforeEach(async () => {
    const know = await bundledKnowledge();
    sent = [];
    goals = 0;
    brain = new FocusBrain();
    const link = (_token: string, e: ConnectionEvents): AgentLink => {
      events = e;
      return {
        open: true,
        sent: 0,
        received: 0,
        refused: new Map(),
        connect: () => e.onOpen?.(),
        send: (type, data) => (sent.push({ type, data }), true),
        close: () => undefined,
      };
    };
    agent = new Agent({
      record: { agentId: "a1", token: "t", characterId: "c1", name: "Robin", ownerAccountId: "o1" },
      link,
      api: {} as ServerApi,
      know,
      brain,
      fallback: new ScriptedBrain(know, "focus-test"),
      seed: "focus-test",
    });
    agent.start();
    events.onEvent("welcome", { playerId: "me", characterId: "c1", accountId: "o1", name: "Robin", anonymous: false, tick: 0, tickMs: 600 });
    events.onEvent("player:sync", selfOf({ skills: skillsAt({}) }));
    // At login the server says: no goal, these options; the agent chooses a fight (no focus yet).
    events.onEvent("agent:goal", goalEvent());
    await settle();
    assert.deepEqual(setGoals(), [{ type: "combat", target: "brindle_cow" }], "its first choice, with no focus");
  });

  it("ends the goal chosen before the focus when the server confirms it, and chooses again under the focus", async () => {
    agent.setFocus("melee");
    const confirmed = goalEvent({ type: "combat", target: "brindle_cow" });
    events.onEvent("agent:goal", confirmed);
    assert.match(agent.activity[0]!.text, /^goal done: .*\(focus melee: choosing again\)$/, "the old choice ended as it came");
    // Its next step asks for fresh options (the server's goal is still the fight), and it chooses from them under the focus.
    agent.step();
    assert.equal(sent.at(-1)!.type, "agent:getGoal");
    events.onEvent("agent:goal", confirmed);
    await settle();
    assert.deepEqual(setGoals().at(-1), { type: "quest", target: "kettle_supper" });
    assert.deepEqual(brain.asked, [undefined, "melee"]);
    // The goal chosen under the focus is kept when it comes.
    events.onEvent("agent:goal", goalEvent({ type: "quest", target: "kettle_supper" }));
    assert.equal(agent.goal?.type, "quest");
    assert.doesNotMatch(agent.activity[0]!.text, /choosing again/);
  });

  it("keeps a goal confirmed with no change of focus", () => {
    events.onEvent("agent:goal", goalEvent({ type: "combat", target: "brindle_cow" }));
    assert.match(agent.activity[0]!.text, /^goal: /);
    assert.equal(agent.goal?.type, "combat");
    assert.ok(!agent.activity.some((a) => /choosing again/.test(a.text)));
  });
});
