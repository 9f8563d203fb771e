/**
 * The Goal part of an agent's card (AgentCard.ts): the goal and its progress (from the card's goal
 * poll), **Stop** and **Resume** (the goal routes), and a goal to set, chosen among
 * `availableGoals` (from the goal poll, or the quick-actions poll before it answered), with its
 * target. The form follows the agent's goal until the owner picks another.
 */
import { api } from "../api.ts";
import { button, el } from "./dom.ts";

export interface AvailableGoal {
  type: string;
  description: string;
  targets: string[];
}

interface Goal {
  id: string;
  type: string;
  description: string;
  target?: string;
  progress: number;
  lockedBy: "manual" | "autonomous";
}

export interface GoalResponse {
  goal: Goal | null;
  goalsPaused: boolean;
  availableGoals: AvailableGoal[];
}

/** What the panel needs of its card. */
export interface GoalCard {
  readonly root: HTMLElement;
  displayName(): string;
  /** The owner's token. */
  token(): string;
  /** The agent's id, for a path. */
  readonly enc: string;
  /** An action of the card (one at a time, its failure said in words); false when it did not run or failed. */
  act(doing: string, action: () => Promise<void>): Promise<boolean>;
  say(text: string, error?: boolean): void;
  /** A content id's name (the id until content is loaded). */
  /** A target's name; `goalType` says what the id names where ids of kinds meet (a quest and its item). */
  name(id: string, goalType?: string): string;
  /** An action of the card is under way. */
  busy(): boolean;
  /** Polls the goal again now. */
  pollGoal(): void;
}

export class GoalPanel {
  readonly goalText = el("p", { className: "goal-text" });
  readonly progress = el("progress", { max: 100, value: 0 });
  readonly stopButton: HTMLButtonElement;
  readonly resumeButton: HTMLButtonElement;
  readonly form = el("form", { className: "goal-form" });
  private readonly card: GoalCard;
  private readonly goalSelect = el("select");
  /** The owner chose in the Goal form since the last goal was set: the form no longer follows the agent's goal. */
  private goalPicked = false;
  private readonly targetSelect = el("select");
  /** The goal routes' last answer. */
  goal: GoalResponse | undefined;
  /** The goals last drawn in the Goal select (from the goal poll or the quick-actions poll). */
  private goalsShown: AvailableGoal[] = [];
  /** Counts goal actions started and ended: a goal poll that saw it change answers from before. */
  private goalActions = 0;

  constructor(card: GoalCard, id: (part: string) => string) {
    this.card = card;
    this.progress.setAttribute("aria-label", "Goal progress");
    this.stopButton = button("Stop", () => void this.goalAction("stop"));
    this.resumeButton = button("Resume", () => void this.goalAction("resume"));
    this.goalSelect.id = id("goal");
    this.targetSelect.id = id("target");
    this.goalSelect.addEventListener("change", () => {
      this.goalPicked = true;
      this.renderTargets();
    });
    this.targetSelect.addEventListener("change", () => (this.goalPicked = true));
    this.form.append(
      el("label", { htmlFor: this.goalSelect.id, textContent: "Goal" }),
      this.goalSelect,
      el("label", { htmlFor: this.targetSelect.id, textContent: "Target" }),
      this.targetSelect,
      el("button", { type: "submit", textContent: "Set goal" }),
    );
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.setGoal();
    });
  }

  /** The goal poll's run. */
  async poll(): Promise<void> {
    const asked = this.goalActions;
    const r = await api<GoalResponse>(this.card.token(), "GET", `/api/agents/${this.card.enc}/goal`);
    // Asked before a goal action (Stop, Resume, Set goal) started or ended: the action's own
    // answer is newer.
    if (asked === this.goalActions) this.showGoal(r);
  }

  /** A goal action: goal polls asked before it started, or while it ran, are not shown. */
  private goalAct(doing: string, action: () => Promise<void>): Promise<boolean> {
    return this.card.act(doing, async () => {
      this.goalActions += 1;
      try {
        await action();
      } finally {
        this.goalActions += 1;
      }
    });
  }

  private async goalAction(which: "stop" | "resume"): Promise<void> {
    const hadFocus = document.activeElement;
    const ok = await this.goalAct(which === "stop" ? "Stopping" : "Resuming", async () => {
      this.showGoal(await api<GoalResponse>(this.card.token(), "POST", `/api/agents/${this.card.enc}/goal/${which}`));
      this.card.say(
        which === "stop"
          ? `${this.card.displayName()} stopped: goals are paused until you resume.`
          : `${this.card.displayName()} resumed: it chooses its goals again.`,
      );
    });
    if (!ok) return;
    // The pressed button may now be disabled: keep the keyboard on the other one.
    if (hadFocus === this.stopButton && this.stopButton.disabled) this.resumeButton.focus();
    if (hadFocus === this.resumeButton && this.resumeButton.disabled) this.stopButton.focus();
    // A resumed agent picks a goal within a tick or two: look again soon.
    if (which === "resume") setTimeout(() => this.card.pollGoal(), 1_000);
  }

  private async setGoal(): Promise<void> {
    const type = this.goalSelect.value;
    if (type === "") return;
    const target = this.targetSelect.value;
    await this.goalAct("Setting the goal", async () => {
      const set = await api<GoalResponse>(this.card.token(), "POST", `/api/agents/${this.card.enc}/goal`, target === "" ? { type } : { type, target });
      this.goalPicked = false;
      this.showGoal(set);
      this.card.say(`Goal set: ${this.goalDescription()}.`);
    });
  }

  private goalDescription(): string {
    const g = this.goal?.goal;
    if (g == null) return "none";
    return g.target !== undefined ? `${g.description} (${this.card.name(g.target, g.type)})` : g.description;
  }

  showGoal(r: GoalResponse): void {
    this.goal = r;
    const g = r.goal;
    if (g === null) {
      this.goalText.textContent = r.goalsPaused ? "Stopped: no goal, goals are paused until you resume." : "No goal at the moment.";
      this.progress.value = 0;
    } else {
      const by = g.lockedBy === "manual" ? "set by you" : "chosen by the agent";
      this.goalText.textContent = `${this.goalDescription()}, ${g.progress} % (${by})${r.goalsPaused ? ", paused" : ""}`;
      this.progress.value = g.progress;
    }
    this.card.root.dataset.goalsPaused = String(r.goalsPaused);
    this.renderControls(r.goalsPaused);
    this.renderGoalOptions(r.availableGoals);
    // The form shows the goal the agent has, until the owner picks another to set.
    if (g !== null && !this.goalPicked && this.goalsShown.some((o) => o.type === g.type)) {
      this.goalSelect.value = g.type;
      this.renderTargets();
      if (g.target !== undefined && Array.from(this.targetSelect.options).some((o) => o.value === g.target)) this.targetSelect.value = g.target;
    }
  }

  renderControls(paused: boolean): void {
    this.stopButton.disabled = paused || this.card.busy();
    this.resumeButton.disabled = !paused || this.card.busy();
  }

  renderGoalOptions(goals: AvailableGoal[]): void {
    const key = JSON.stringify(goals);
    if (this.goalSelect.dataset.key === key) return;
    this.goalSelect.dataset.key = key;
    this.goalsShown = goals;
    const chosen = this.goalSelect.value;
    this.goalSelect.replaceChildren(...goals.map((g) => new Option(g.description, g.type)));
    if (goals.some((g) => g.type === chosen)) this.goalSelect.value = chosen;
    this.renderTargets();
  }

  /** The chosen goal's targets, from the goals drawn in the select (whichever poll brought them). */
  renderTargets(): void {
    const goal = this.goalsShown.find((g) => g.type === this.goalSelect.value);
    const chosen = this.targetSelect.value;
    const targets = goal?.targets ?? [];
    this.targetSelect.replaceChildren(
      new Option(targets.length === 0 ? "None" : "Any", ""),
      ...targets.map((t) => new Option(this.card.name(t, goal?.type), t)),
    );
    if (targets.includes(chosen)) this.targetSelect.value = chosen;
    this.targetSelect.disabled = targets.length === 0;
  }
}
