/**
 * One agent on the dashboard: a region named by the agent, with its goal and progress (polled every
 * 10 s), position (every 5 s), skills and inventory (10 s; the inventory comes with quick-actions),
 * each panel saying when it failed and when it retries (1 s, 2 s, 4 s); **Stop** and **Resume**
 * (the goal routes), a goal chosen among `availableGoals`, a message, the quick commands; and, when
 * the agent runtime is reachable, its running state there and its recent activity. The Goal part
 * is a {@link GoalPanel}.
 */
import { api, ApiError } from "../api.ts";
import { itemLabel, type Content } from "../content.ts";
import { skillName } from "../panels/skills.ts";
import { button, el } from "./dom.ts";
import { GoalPanel, type AvailableGoal, type GoalCard } from "./GoalPanel.ts";
import { errorText, Poller, pollErrorText } from "./poller.ts";
import { isActive, type RuntimeAgent } from "./runtime.ts";
import { attachWatch } from "./WatchView.ts";

/** How often each panel is polled (the spec's "Polling"). */
export const POLL_MS = { goal: 10_000, position: 5_000, skills: 10_000, quickActions: 10_000 } as const;
/** Activity entries shown (the runtime keeps the last 50). */
const ACTIVITY_SHOWN = 8;

export interface AgentSummary {
  agentId: string;
  characterId: string;
  name: string | null;
  goalsPaused: boolean;
}

interface QuickActions {
  availableGoals: AvailableGoal[];
  quickCommands: { id: string; label: string; description: string }[];
  inventory: { slot: number; itemId: string; quantity: number }[];
}

/** What the dashboard gives each card. */
export interface CardHost {
  token(): string;
  content(): Content | undefined;
  /** undefined while the first check is under way. */
  runtimeReachable(): boolean | undefined;
  characterName(characterId: string): string | undefined;
  /** A new token, handed to the runtime: "Run in the runtime". */
  runInRuntime(card: AgentCard): Promise<void>;
  removeFromRuntime(card: AgentCard): Promise<void>;
  /** The agent was deleted here. */
  deleted(card: AgentCard): void;
  /** The agent no longer exists on the server (deleted elsewhere). */
  gone(card: AgentCard): void;
  /** The owner's token was refused (401). */
  signedOut(): void;
  newToken(card: AgentCard): Promise<void>;
}

let nextId = 0;

const timeFmt = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

export class AgentCard {
  readonly agent: AgentSummary;
  readonly root: HTMLElement;
  private readonly host: CardHost;
  private readonly uid = `agent-${++nextId}`;
  private readonly title = el("h3");
  private readonly meta = el("p", { className: "agent-meta" });
  private readonly runtimeState = el("p", { className: "runtime-state" });
  private readonly runButton: HTMLButtonElement;
  private readonly removeButton: HTMLButtonElement;
  /** The Goal part: the goal, Stop and Resume, a goal to set. */
  private readonly goalPanel: GoalPanel;
  private readonly positionText = el("p", { className: "position-text", textContent: "…" });
  private readonly skillsBody = el("tbody");
  private readonly inventoryList = el("ul", { className: "inventory-list" });
  private readonly commands = el("div", { className: "quick-commands" });
  private readonly messageInput = el("input", { type: "text", maxLength: 500, autocomplete: "off" });
  private readonly activityList = el("ol", { className: "activity-list" });
  private readonly activityNote = el("p", { className: "activity-note" });
  private readonly manage = el("div", { className: "agent-manage" });
  private readonly tokenArea = el("div", { className: "token-area" });
  private readonly status = el("p", { className: "agent-status" });
  private readonly errors = {
    goal: el("p", { className: "poll-error" }),
    position: el("p", { className: "poll-error" }),
    skills: el("p", { className: "poll-error" }),
    quickActions: el("p", { className: "poll-error" }),
  };
  private readonly pollers: Poller[];
  readonly goalPoller: Poller;
  private quick: QuickActions | undefined;
  private skills: Record<string, { level: number; xp: number }> | undefined;
  private position: { x: number; z: number; online: boolean } | undefined;
  private runtime: RuntimeAgent | undefined;
  /** An action of the card under way: its controls are off until it settles. */
  private busy = false;

  constructor(host: CardHost, agent: AgentSummary) {
    this.host = host;
    this.agent = agent;
    const id = (part: string) => `${this.uid}-${part}`;
    this.title.id = id("title");
    this.root = el("section", { className: "agent" });
    this.root.setAttribute("aria-labelledby", this.title.id);
    this.root.dataset.agentId = agent.agentId;

    this.runButton = button("Run in the runtime", () => void this.act("Handing it to the runtime", () => this.host.runInRuntime(this)));
    this.removeButton = button("Remove from the runtime", () => void this.act("Taking it out of the runtime", () => this.host.removeFromRuntime(this)));
    const card: GoalCard = {
      root: this.root,
      displayName: () => this.displayName,
      token: () => this.host.token(),
      enc: this.enc,
      act: (doing, action) => this.act(doing, action),
      say: (text, error) => this.say(text, error),
      name: (id, goalType) => this.name(id, goalType),
      busy: () => this.busy,
      pollGoal: () => this.goalPoller.now(),
    };
    this.goalPanel = new GoalPanel(card, id);
    const goal = this.goalPanel;

    const messageForm = el("form", { className: "message-form" });
    this.messageInput.id = id("message");
    messageForm.append(
      el("label", { htmlFor: this.messageInput.id, textContent: "Message" }),
      this.messageInput,
      el("button", { type: "submit", textContent: "Send message" }),
    );
    messageForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = this.messageInput.value.trim();
      if (text === "") return;
      void this.send(text).then((ok) => {
        if (ok) this.messageInput.value = "";
      });
    });

    const skillsTable = el(
      "table",
      { className: "skills-table" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", textContent: "Skill" }),
          el("th", { scope: "col", textContent: "Level" }),
          el("th", { scope: "col", textContent: "Experience" }),
        ),
      ),
      this.skillsBody,
    );
    const part = (name: string, className: string, ...children: Node[]) => {
      const h = el("h4", { id: id(className), textContent: name });
      const div = el("div", { className: `agent-part ${className}` }, h, ...children);
      div.setAttribute("role", "group");
      div.setAttribute("aria-labelledby", h.id);
      return div;
    };
    this.status.setAttribute("role", "status");
    this.manage.append(
      button("New token", () => void this.act("Making a new token", () => this.host.newToken(this))),
      button("Delete agent", () => this.confirmDelete(), "danger"),
    );

    this.root.append(
      el("header", { className: "agent-header" }, this.title, this.meta),
      this.status,
      part(
        "Goal",
        "agent-goal",
        goal.goalText,
        goal.progress,
        this.errors.goal,
        el("div", { className: "agent-controls" }, goal.stopButton, goal.resumeButton),
        goal.form,
      ),
      part("Commands", "agent-commands", this.commands, messageForm, this.errors.quickActions),
      part("Position", "agent-position", this.positionText, this.errors.position),
      part(
        "Agent runtime",
        "agent-runtime",
        this.runtimeState,
        el("div", { className: "agent-controls" }, this.runButton, this.removeButton),
        this.activityNote,
        this.activityList,
      ),
      part("Skills", "agent-skills", skillsTable, this.errors.skills),
      part("Inventory", "agent-inventory", this.inventoryList),
      part("Manage", "agent-manage-part", this.manage, this.tokenArea),
    );
    attachWatch(
      this.root,
      { token: () => this.host.token(), characterId: agent.characterId, goal: goal.goalText, decisions: this.activityList, content: () => this.host.content() },
      this.uid,
    );

    const poller = (what: keyof typeof this.errors, label: string, run: () => Promise<void>) =>
      new Poller({
        everyMs: POLL_MS[what],
        run,
        report: (s) => {
          this.errors[what].textContent = pollErrorText(label, s);
          this.root.classList.toggle(`stale-${what}`, !s.ok);
        },
        fatal: (err) => this.fatal(err),
      });
    this.goalPoller = poller("goal", "goal", () => goal.poll());
    this.pollers = [
      this.goalPoller,
      poller("position", "position", async () => {
        const r = await api<{ position: { x: number; z: number }; online: boolean }>(
          this.host.token(),
          "GET",
          `/api/characters/${encodeURIComponent(agent.characterId)}/position`,
        );
        this.position = { x: r.position.x, z: r.position.z, online: r.online };
        this.renderPosition();
      }),
      poller("skills", "skills", async () => {
        this.skills = (
          await api<{ skills: Record<string, { level: number; xp: number }> }>(
            this.host.token(),
            "GET",
            `/api/characters/${encodeURIComponent(agent.characterId)}/skills`,
          )
        ).skills;
        this.renderSkills();
      }),
      poller("quickActions", "inventory and quick commands", async () => {
        this.quick = await api<QuickActions>(this.host.token(), "GET", `/api/agents/${this.enc}/quick-actions`);
        this.renderQuick();
      }),
    ];
    this.renderTitle();
    this.renderRuntime();
    goal.renderControls(agent.goalsPaused);
  }

  private get enc(): string {
    return encodeURIComponent(this.agent.agentId);
  }

  get displayName(): string {
    return this.agent.name ?? this.host.characterName(this.agent.characterId) ?? this.agent.agentId;
  }

  get runtimeAgent(): RuntimeAgent | undefined {
    return this.runtime;
  }

  /** Whether the card is on screen (the dashboard's IntersectionObserver says so): only then it polls. */
  onScreen = false;

  start(): void {
    for (const p of this.pollers) p.start();
  }

  stop(): void {
    for (const p of this.pollers) p.stop();
  }

  /** 401: the owner is signed out; 404: the agent is gone. Both end this card's polling. */
  private fatal(err: unknown): boolean {
    if (!(err instanceof ApiError)) return false;
    if (err.status === 401) {
      this.host.signedOut();
      return true;
    }
    if (err.status === 404 && err.code === "NOT_FOUND") {
      this.host.gone(this);
      return true;
    }
    return false;
  }

  say(text: string, error = false): void {
    this.status.textContent = text;
    this.status.classList.toggle("error", error);
  }

  /**
   * Runs an action of the card, saying what failed in words. One at a time: the card's controls
   * are off while it runs (a double click sends one request), then on again.
   */
  private async act(doing: string, action: () => Promise<void>): Promise<boolean> {
    if (this.busy) return false;
    const hadFocus = document.activeElement;
    this.setBusy(true);
    this.say(`${doing}…`);
    try {
      await action();
      return true;
    } catch (err) {
      if (!this.fatal(err)) this.say(`${doing} failed: ${errorText(err)}`, true);
      return false;
    } finally {
      this.setBusy(false);
      // A control turned off under the keyboard lost it: give it back.
      const active = document.activeElement;
      if ((active === null || active === document.body) && hadFocus instanceof HTMLElement && hadFocus.isConnected && !(hadFocus as HTMLButtonElement).disabled)
        hadFocus.focus();
    }
  }

  private setBusy(on: boolean): void {
    this.busy = on;
    this.root.toggleAttribute("aria-busy", on);
    this.root.querySelectorAll("button").forEach((b) => (b.disabled = on));
    this.goalPanel.renderControls(this.goalPanel.goal?.goalsPaused ?? this.agent.goalsPaused);
  }

  private name(id: string, goalType?: string): string {
    const reg = this.host.content()?.registry;
    if (reg === undefined) return id;
    if (goalType === "quest") return reg.quests.quests.get(id)?.name ?? id;
    return reg.items.get(id)?.name ?? reg.resources.get(id)?.name ?? reg.npcs.get(id)?.name ?? reg.areas.find((a) => a.id === id)?.name ?? id;
  }

  /** Content arrived (names for items, targets, areas): render again with them. */
  contentLoaded(): void {
    if (this.goalPanel.goal !== undefined) this.goalPanel.showGoal(this.goalPanel.goal);
    this.renderPosition();
    this.renderQuick();
    // The targets' names (ids until now).
    this.goalPanel.renderTargets();
  }

  characterKnown(): void {
    this.renderTitle();
  }

  private renderTitle(): void {
    this.title.textContent = this.displayName;
    const character = this.host.characterName(this.agent.characterId);
    this.meta.textContent = character !== undefined ? `Plays ${character}` : `Plays character ${this.agent.characterId}`;
  }

  // ---- commands ----------------------------------------------------------------------------------

  /** A message (or a quick command's word) to the agent. */
  private async send(text: string): Promise<boolean> {
    return this.act(`Sending “${text}”`, async () => {
      const r = await api<{ delivered: boolean }>(this.host.token(), "POST", `/api/agents/${this.enc}/message`, { message: text });
      this.say(r.delivered ? `Sent “${text}” to ${this.displayName}.` : `${this.displayName} is not in the world: “${text}” was not delivered.`, !r.delivered);
    });
  }

  private renderQuick(): void {
    const q = this.quick;
    if (q === undefined) return;
    // Stop and Resume are the goal routes' buttons; the other commands are words the agent obeys.
    const words = q.quickCommands.filter((c) => c.id !== "stop" && c.id !== "resume");
    const key = JSON.stringify(words);
    if (this.commands.dataset.key !== key) {
      this.commands.dataset.key = key;
      this.commands.replaceChildren(
        ...words.map((c) => {
          const b = button(c.label, () => void this.send(c.id));
          b.title = c.description;
          b.disabled = this.busy;
          return b;
        }),
      );
    }
    const items = q.inventory.map((s) => itemLabelOr(this.host.content(), s.itemId, s.quantity));
    this.inventoryList.replaceChildren(
      ...(items.length === 0 ? [el("li", { className: "empty", textContent: "Empty" })] : items.map((t) => el("li", { textContent: t }))),
    );
    if (this.goalPanel.goal === undefined) this.goalPanel.renderGoalOptions(q.availableGoals);
  }

  // ---- position, skills --------------------------------------------------------------------------

  private renderPosition(): void {
    const p = this.position;
    if (p === undefined) return;
    const area = areaAt(this.host.content(), p.x, p.z);
    this.positionText.textContent = `${p.x}, ${p.z}${area !== undefined ? ` · ${area}` : ""} · ${p.online ? "in the world" : "not in the world"}`;
    this.root.dataset.position = `${p.x},${p.z}`;
  }

  private renderSkills(): void {
    const skills = this.skills;
    if (skills === undefined) return;
    const fmt = new Intl.NumberFormat("en");
    this.skillsBody.replaceChildren(
      ...Object.entries(skills).map(([skill, s]) =>
        el(
          "tr",
          {},
          el("th", { scope: "row", textContent: skillName(skill) }),
          el("td", { className: "level", textContent: String(s.level) }),
          el("td", { className: "xp", textContent: fmt.format(s.xp) }),
        ),
      ),
    );
  }

  // ---- runtime -----------------------------------------------------------------------------------

  /** The runtime's view of this agent (undefined: not run there), or nothing known (unreachable). */
  showRuntime(agent: RuntimeAgent | undefined): void {
    this.runtime = agent;
    this.renderRuntime();
  }

  renderRuntime(): void {
    const reachable = this.host.runtimeReachable();
    const a = this.runtime;
    this.root.dataset.runtimeState = reachable !== true ? "unknown" : (a?.state ?? "none");
    if (reachable === undefined) this.runtimeState.textContent = "Checking the agent runtime…";
    else if (!reachable) this.runtimeState.textContent = "The agent runtime is not reachable.";
    else if (a === undefined) this.runtimeState.textContent = "Not run in the agent runtime.";
    else {
      const reason = a.reason !== undefined ? ` (${a.reason})` : "";
      const command = a.command !== null ? `, doing “${a.command}”` : "";
      // The owner's focus ("focus melee" sent as a message): the goals it puts first.
      const focus = a.focus !== undefined && a.focus !== null ? `, focused on ${a.focus}` : "";
      this.runtimeState.textContent = `In the agent runtime: ${a.state}${reason}${command}${focus}.`;
    }
    this.runButton.hidden = reachable !== true || isActive(a);
    this.removeButton.hidden = reachable !== true || !isActive(a);
    const activity = reachable === true ? (a?.activity ?? []).slice(0, ACTIVITY_SHOWN) : [];
    this.activityNote.textContent =
      reachable === true && a !== undefined ? (activity.length === 0 ? "No activity yet." : "Recent activity, newest first:") : "";
    this.activityList.replaceChildren(
      ...activity.map((e) => {
        const time = el("time", { dateTime: e.at, textContent: timeFmt.format(new Date(e.at)) });
        return el("li", { className: `activity-${e.kind}` }, time, ` ${e.kind}: ${e.text}`);
      }),
    );
  }

  // ---- token, delete -------------------------------------------------------------------------------

  /** Shows a token just made for this agent (it is not shown again). */
  showToken(token: string, note: string): void {
    const input = el("input", { type: "text", readOnly: true, value: token, id: `${this.uid}-token` });
    input.addEventListener("focus", () => input.select());
    this.tokenArea.replaceChildren(
      el("label", { htmlFor: input.id, textContent: "Agent token" }),
      input,
      el("p", { className: "token-note", textContent: note }),
    );
  }

  private confirmDelete(): void {
    const keep = button("Keep", () => {
      this.manage.replaceChildren(...saved);
      (saved[1] as HTMLButtonElement).focus();
    });
    const saved = Array.from(this.manage.childNodes);
    const sure = button("Delete for good", () => void this.act(`Deleting ${this.displayName}`, () => this.delete()), "danger");
    this.manage.replaceChildren(el("span", { className: "confirm", textContent: `Delete ${this.displayName}? Its tokens stop working at once.` }), sure, keep);
    keep.focus();
  }

  private async delete(): Promise<void> {
    // Out of the runtime first, so that it logs the agent out cleanly (best effort: the server's
    // deletion ends the agent's session anyway).
    if (isActive(this.runtime)) await this.host.removeFromRuntime(this).catch(() => {});
    await api(this.host.token(), "DELETE", `/api/agent/${this.enc}`);
    this.stop();
    this.host.deleted(this);
  }
}

function itemLabelOr(content: Content | undefined, itemId: string, quantity: number): string {
  if (content !== undefined) return itemLabel(content, itemId, quantity);
  return quantity > 1 ? `${itemId} x ${quantity}` : itemId;
}

/** The smallest area holding the tile (a town inside a wider region). */
function areaAt(content: Content | undefined, x: number, z: number): string | undefined {
  if (content === undefined) return undefined;
  const size = (b: { minX: number; maxX: number; minZ: number; maxZ: number }) => (b.maxX - b.minX + 1) * (b.maxZ - b.minZ + 1);
  const holding = content.registry.areas.filter((a) => x >= a.bounds.minX && x <= a.bounds.maxX && z >= a.bounds.minZ && z <= a.bounds.maxZ);
  return holding.sort((a, b) => size(a.bounds) - size(b.bounds))[0]?.name;
}
