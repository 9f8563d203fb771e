/**
 * The dashboard's watch on the agent runtime (index.ts): whether its health check answers, said
 * once per change in the page's runtime status, and while it does, its view of the owner's agents
 * (state, activity), polled every {@link RUNTIME_POLL_MS} and shown on their cards. When it does not
 * answer, it is checked again every {@link RUNTIME_PROBE_MS}.
 */
import { el } from "./dom.ts";
import { Poller, pollErrorText } from "./poller.ts";
import { RuntimeClient, RuntimeUnreachable, type RuntimeAgent } from "./runtime.ts";

/** How often the runtime's view of the agents is read while it answers. */
export const RUNTIME_POLL_MS = 5_000;
/** How often an unreachable runtime is checked again. */
export const RUNTIME_PROBE_MS = 30_000;

/** A card, as the runtime's view reaches it (AgentCard). */
interface RuntimeCard {
  readonly agent: { agentId: string };
  showRuntime(agent: RuntimeAgent | undefined): void;
  renderRuntime(): void;
}

export interface RuntimeWatchHost {
  /** The owner's token. */
  token(): string;
  cards(): Iterable<RuntimeCard>;
  /** The runtime is polled only while the owner is signed in and the page is shown. */
  polling(): boolean;
}

export class RuntimeWatch {
  readonly client = new RuntimeClient();
  /** The page's runtime status, said once per change. */
  readonly status = el("p", { id: "dash-runtime" });
  /** The poll's failure, with when it retries. */
  readonly error = el("p", { className: "poll-error" });
  private readonly host: RuntimeWatchHost;
  private reachableNow: boolean | undefined;
  /** The runtime's agents, as its last answered poll listed them (undefined: none answered since it became reachable). */
  private view: Map<string, RuntimeAgent> | undefined;
  /** The runtime's first health check while it is under way (a registration waits for it). */
  checking: Promise<void> = Promise.resolve();
  private probeTimer: ReturnType<typeof setTimeout> | undefined;

  private readonly poller = new Poller({
    everyMs: RUNTIME_POLL_MS,
    run: async () => {
      const agents = await this.client.agents(this.host.token());
      const byId = new Map(agents.map((a) => [a.agentId, a]));
      this.view = byId;
      for (const card of this.host.cards()) card.showRuntime(byId.get(card.agent.agentId));
    },
    report: (s) => (this.error.textContent = pollErrorText("agent runtime's view of your agents", s)),
    fatal: (err) => {
      // Gone quiet: said once in the runtime status, then checked again now and then.
      if (err instanceof RuntimeUnreachable) {
        this.setReachable(false);
        return true;
      }
      return false;
    },
  });

  constructor(host: RuntimeWatchHost) {
    this.host = host;
  }

  /** Whether the runtime answered its last check (undefined: the first is under way). */
  get reachable(): boolean | undefined {
    return this.reachableNow;
  }

  /**
   * Reachable, but its list of agents not read yet, is "checking" too: a card would otherwise say
   * "Not run in the agent runtime" of an agent the runtime plays until the next poll (5 s).
   */
  forCards(): boolean | undefined {
    return this.reachableNow === true && this.view === undefined ? undefined : this.reachableNow;
  }

  /** What the runtime last said of an agent. */
  agent(agentId: string): RuntimeAgent | undefined {
    return this.view?.get(agentId);
  }

  /** Starts polling again, if the runtime answers (the page is shown again). */
  resume(): void {
    if (this.reachableNow === true) this.poller.start();
  }

  stop(): void {
    this.poller.stop();
  }

  /** Reads the runtime's view now (an agent was just handed to it or taken out). */
  pollNow(): void {
    this.poller.now();
  }

  /** Checks the runtime (at sign-in); a registration waits for it (`checking`). */
  start(): void {
    this.checking = this.check();
  }

  private async check(): Promise<void> {
    clearTimeout(this.probeTimer);
    if (this.reachableNow === undefined) this.status.textContent = `Checking the agent runtime at ${this.client.url}…`;
    this.setReachable(await this.client.reachable());
  }

  private setReachable(reachable: boolean): void {
    const was = this.reachableNow;
    this.reachableNow = reachable;
    if (!reachable) this.view = undefined;
    if (was !== reachable) {
      // Said once per change, not on every poll.
      this.status.textContent = reachable
        ? `The agent runtime at ${this.client.url} is running: new agents are handed to it.`
        : `The agent runtime at ${this.client.url} is not reachable: agents are not handed to it and their running state is not shown. Everything else here works without it.`;
      this.status.dataset.reachable = String(reachable);
      for (const card of this.host.cards()) card.renderRuntime();
    }
    if (reachable) {
      if (this.host.polling()) this.poller.start();
    } else {
      this.poller.stop();
      this.error.textContent = "";
      clearTimeout(this.probeTimer);
      this.probeTimer = setTimeout(() => void this.check(), RUNTIME_PROBE_MS);
    }
  }

  /** A call to the runtime failed: one that did not answer at all is taken for unreachable. */
  failed(err: unknown): void {
    if (err instanceof RuntimeUnreachable) this.setReachable(false);
  }
}
