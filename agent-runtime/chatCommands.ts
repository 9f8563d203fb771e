/**
 * An agent's side of chat: the commands it hears (its owner's `agent:message`, or a line of one of
 * its owner's characters addressing it by name: owners.ts), run one after another in the order
 * heard ("resume" then "stop" ends stopped), and the lines it says back, within the server's chat
 * limit. It never says a line that would be a command (speech.ts).
 *
 * The agent (Agent.ts) hands it what it hears and flushes its waiting lines once a tick; a command
 * that moves the agent ("home", "follow", "bank") becomes the agent's command behaviour, run ahead
 * of its goal.
 */
import { CHAT_LIMIT, CHAT_WINDOW_MS } from "../src/game/clientEvents.ts";
import type { AgentView } from "./AgentView.ts";
import { Bank, Follow, GoTo, type Behaviour } from "./brain/behaviours.ts";
import type { Brain, GoalOption, Observation } from "./brain/Brain.ts";
import { parseCommand, type Command } from "./brain/commands.ts";
import type { Focus } from "./brain/focus.ts";
import type { ScriptedBrain } from "./brain/scripted.ts";
import type { Knowledge } from "./knowledge.ts";
import { OwnerCharacters } from "./owners.ts";
import type { ServerApi } from "./serverApi.ts";
import { spokenLine } from "./speech.ts";

/** What the commands read of their agent (Agent). */
export interface CommandAgent {
  readonly record: { agentId: string; token: string };
  readonly view: AgentView;
  readonly goal: { description: string; progress: number } | null;
  readonly goalsPaused: boolean;
  readonly availableGoals: GoalOption[];
  log(kind: "decision" | "chat", text: string): void;
  setFocus(focus: Focus | null): void;
  observation(): Observation;
}

export interface ChatCommandsDeps {
  api: ServerApi;
  know: Knowledge;
  brain: Brain;
  /** The offline reply when the brain's fails. */
  fallback: ScriptedBrain;
  /** Sends one chat line; false when the link could not. */
  sendChat(line: string): boolean;
  /** Runs a behaviour ahead of the goal (the agent's command). */
  command(behaviour: Behaviour, label: string): void;
}

export class ChatCommands {
  private readonly agent: CommandAgent;
  private readonly deps: ChatCommandsDeps;
  /** The owner's characters: the only players whose chat commands it obeys. */
  private readonly owners: OwnerCharacters;
  /** Commands run one after another, in the order they were heard ("resume" then "stop" ends stopped). */
  private commands: Promise<void> = Promise.resolve();
  /** Chat lines waiting for the server's chat limit, and when the last ones went out (ms). */
  private readonly chatQueue: string[] = [];
  private readonly chatTimes: number[] = [];

  constructor(agent: CommandAgent, deps: ChatCommandsDeps) {
    this.agent = agent;
    this.deps = deps;
    this.owners = new OwnerCharacters(deps.api, agent.record.agentId, agent.record.token);
  }

  /** Lines wait for the server's chat limit (see flush). */
  get waiting(): boolean {
    return this.chatQueue.length > 0;
  }

  /** `fromId`: the character that said it in chat (undefined: the owner's `agent:message`). */
  heard(text: string, from: string, fromId?: string): void {
    const command = parseCommand(text);
    this.agent.log("chat", `${from}: ${text}`);
    const obeyed = fromId === undefined ? true : this.owners.has(fromId);
    this.commands = this.commands
      .then(async () => {
        // Anyone else's is plain chat: not obeyed, not answered (an answer would let anyone make it talk).
        if (!(await obeyed)) return this.agent.log("decision", `not obeyed: ${from} is not one of its owner's characters`);
        await this.run(command, from);
      })
      .catch((err: unknown) => this.say(`I couldn't do that: ${(err as Error).message}`));
  }

  /** Says a line in chat, within the server's chat limit: lines beyond it wait (the oldest waiting ones are dropped past a few). */
  say(message: string): void {
    const spoken = spokenLine(message);
    if (spoken === undefined) return;
    if ("withheld" in spoken) return this.agent.log("chat", `withheld (it would be a command): ${spoken.withheld}`);
    const line = spoken.line;
    this.chatQueue.push(line);
    if (this.chatQueue.length > CHAT_LIMIT) this.chatQueue.shift();
    this.flush();
  }

  /** Sends the waiting lines the server's chat limit allows now. */
  flush(): void {
    const now = Date.now();
    // The server counts a line when its tick handles it, up to a tick after it was sent: keep a margin.
    const window = CHAT_WINDOW_MS + 2 * this.agent.view.tickMs + 100;
    while (this.chatTimes.length > 0 && now - this.chatTimes[0]! >= window) this.chatTimes.shift();
    while (this.chatQueue.length > 0 && this.chatTimes.length < CHAT_LIMIT) {
      const line = this.chatQueue.shift()!;
      if (!this.deps.sendChat(line)) return;
      this.chatTimes.push(now);
      this.agent.log("chat", `me: ${line}`);
    }
  }

  private async run(command: Command, from: string): Promise<void> {
    const { api, know } = this.deps;
    const { agentId, token } = this.agent.record;
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
        this.deps.command(new GoTo(know.spawn, "home"), "go home");
        this.say("Going home.");
        return;
      case "follow":
        this.deps.command(new Follow(command.name), `follow ${command.name}`);
        this.say(`Following ${command.name}.`);
        return;
      case "bank":
        this.deps.command(new Bank(true), "go to bank");
        this.say("Going to the bank.");
        return;
      case "goal": {
        let target = command.target;
        if (command.type === "combat" && target !== undefined) {
          // "fight goblins": the monster whose id or name matches.
          const want = target.toLowerCase();
          const option = this.agent.availableGoals.find((g) => g.type === "combat");
          target = option?.targets.find((id) => id.includes(want.replace(/ /g, "_")) || (know.registry.npcs.get(id)?.name ?? "").toLowerCase().includes(want));
          if (target === undefined) {
            this.say(`I don't know where to find ${command.target}.`);
            return;
          }
        }
        return this.setManualGoal(command.type, target);
      }
      case "focus":
        this.agent.setFocus(command.focus);
        this.say(command.focus === null ? "No focus: I'll train what I lack." : `Focusing on ${command.focus}.`);
        return;
      case "unknown": {
        const reply = await this.deps.brain.reply(command.text, from, this.agent.observation()).catch(() => this.deps.fallback.reply(command.text));
        this.say(reply);
        return;
      }
    }
  }

  private async setManualGoal(type: string, target: string | undefined): Promise<void> {
    await this.deps.api.setGoal(this.agent.record.agentId, this.agent.record.token, { type, target });
    this.say(`On it: ${type}${target !== undefined ? ` (${target})` : ""}.`);
  }

  /** One chat line: goal, levels, inventory. */
  status(): string {
    const { view, goal, goalsPaused } = this.agent;
    const self = view.self;
    if (self === undefined) return "Not in the world yet.";
    const goalText = goalsPaused ? "paused" : goal === null ? "none" : `${goal.description} ${goal.progress}%`;
    const skills = ["attack", "strength", "defense", "woodcutting", "fishing", "mining", "cooking", "firemaking"]
      .map((s) => `${s.slice(0, 4)} ${self.skills[s]?.level ?? 1}`)
      .join(", ");
    return `Goal: ${goalText}. Combat ${self.combatLevel}; ${skills}. Inventory ${self.inventory.length}/28, ${self.coins} coins. HP ${self.health}/${self.maxHealth}.`;
  }
}
