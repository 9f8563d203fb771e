/**
 * The agent dashboard, `/agents`: a page of the browser client (the server's index fallback serves
 * it; main.ts routes to it). The owner is whoever the game's start screen signed in: this browser's
 * kept anonymous token, or the identity-provider token kept for the tab (client/src/start.ts).
 *
 * It lists the owner's agents (`GET /api/agent`), registers one for a character (`POST
 * /api/agent`, the name optional), and each agent is an {@link AgentCard}. The agent runtime
 * (`window.env.PUBLIC_AGENT_RT_URL`, the server's AGENT_RT_URL) is optional: when its health check
 * answers, newly registered agents are handed to it with the token the registration returned,
 * existing ones on "Run in the runtime" (with a new token: the server gives a token only when it
 * makes one), and its view of the owner's agents (state, activity) is polled every 5 s. When it does
 * not answer, the page says so once, keeps working without it, and checks again every 30 s
 * (runtimeWatch.ts).
 */
import { api, ApiError, type CharacterSummary } from "../api.ts";
import { loadContent, type Content } from "../content.ts";
import { IDP_TOKEN_KEY, TOKEN_KEY } from "../start.ts";
import { AgentCard, type AgentSummary, type CardHost } from "./AgentCard.ts";
import { el } from "./dom.ts";
import { errorText } from "./poller.ts";
import { isActive } from "./runtime.ts";
import { RuntimeWatch } from "./runtimeWatch.ts";
import "./dashboard.css";

/** `/agents#owner=<token>`: the dashboard of that token's account, in this tab (see start). */
const OWNER_PARAM = "owner";
/** Where this tab keeps an owner's link's token (the tab's alone: sessionStorage). */
const OWNER_TOKEN_KEY = "rsworld.dashboardOwner";

class Dashboard implements CardHost {
  private ownerToken = "";
  private readonly provider = window.env?.PUBLIC_IDP_APP_ID;
  /** Whether the agent runtime answers, and its view of the agents (runtimeWatch.ts). */
  private readonly runtime = new RuntimeWatch({
    token: () => this.ownerToken,
    cards: () => this.cards.values(),
    polling: () => this.signedIn && !document.hidden,
  });
  private loadedContent: Content | undefined;
  private characters: CharacterSummary[] = [];
  private readonly cards = new Map<string, AgentCard>();
  private signedIn = false;
  /** A registration under way: "Register agent" is off until it settles. */
  private registering = false;
  /** The agents' list: asked for, listed, or not listed (said, with Retry). */
  private listState: "loading" | "loaded" | "failed" = "loading";
  /** The latest listing: an older one answering late is dropped. */
  private listings = 0;

  // The page.
  private readonly pageStatus = el("p", { id: "dash-status" });
  private readonly pageError = el("p", { id: "dash-error" });
  private readonly signIn = el("section", { id: "dash-sign-in" });
  private readonly register = el("section", { id: "dash-register" });
  private readonly characterSelect = el("select", { id: "dash-character" });
  private readonly nameInput = el("input", { id: "dash-agent-name", type: "text", maxLength: 64, autocomplete: "off" });
  private readonly agentsSection = el("section", { id: "dash-agents" });
  private readonly emptyNote = el("p", { textContent: "No agents yet: register one for a character above.", hidden: true });
  private readonly loadingNote = el("p", { className: "list-loading", textContent: "Loading your agents…" });
  private readonly listErrorText = el("span");
  private readonly retryButton = el("button", { type: "button", textContent: "Retry" });
  private readonly listError = el("p", { className: "poll-error", hidden: true }, this.listErrorText, " ", this.retryButton);
  private readonly registerButton = el("button", { type: "submit", textContent: "Register agent" });
  private readonly list = el("div", { className: "agent-list" });

  mount(): void {
    document.title = "Agents · RS World";
    this.runtime.status.setAttribute("role", "status");
    this.pageStatus.setAttribute("role", "status");
    this.pageError.setAttribute("role", "alert");

    const registerTitle = el("h2", { id: "dash-register-title", textContent: "Register an agent" });
    this.register.setAttribute("aria-labelledby", registerTitle.id);
    const form = el(
      "form",
      { id: "dash-register-form" },
      el("div", { className: "field" }, el("label", { htmlFor: this.characterSelect.id, textContent: "Character" }), this.characterSelect),
      el("div", { className: "field" }, el("label", { htmlFor: this.nameInput.id, textContent: "Agent name (optional)" }), this.nameInput),
      this.registerButton,
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.registerAgent();
    });
    this.register.append(
      registerTitle,
      el("p", { className: "hint", textContent: "An agent plays one of your characters on its own; while it does, you cannot play that character yourself." }),
      form,
    );

    const agentsTitle = el("h2", { id: "dash-agents-title", textContent: "Your agents" });
    this.agentsSection.setAttribute("aria-labelledby", agentsTitle.id);
    this.listError.setAttribute("role", "alert");
    this.retryButton.addEventListener("click", () => void this.loadAgents());
    this.agentsSection.append(agentsTitle, this.loadingNote, this.listError, this.emptyNote, this.list);
    this.register.hidden = true;
    this.agentsSection.hidden = true;
    this.signIn.hidden = true;

    const title = el("h1", { id: "dashboard-title", textContent: "Agents" });
    const nav = el("nav", {}, el("a", { href: "/", textContent: "Back to the game" }));
    nav.setAttribute("aria-label", "Pages");
    const main = el(
      "main",
      { id: "dashboard" },
      el("header", { className: "dash-header" }, title, nav),
      this.runtime.status,
      this.runtime.error,
      this.pageStatus,
      this.pageError,
      this.signIn,
      this.register,
      this.agentsSection,
    );
    main.setAttribute("aria-labelledby", title.id);
    // The game's start screen and world are not part of this page.
    document.getElementById("start")?.remove();
    document.getElementById("game")?.remove();
    document.body.prepend(main);

    // Polling pauses while the page is not shown (it spends the server's request budget).
    document.addEventListener("visibilitychange", () => {
      for (const card of this.cards.values()) this.syncPolling(card);
      if (document.hidden) this.runtime.stop();
      else this.runtime.resume();
    });

    void loadContent()
      .then((content) => {
        this.loadedContent = content;
        for (const card of this.cards.values()) card.contentLoaded();
      })
      // Names are a convenience: ids are shown without them.
      .catch(() => {});
    this.start();
  }

  // ---- who is signed in ----------------------------------------------------------------------------

  private start(): void {
    // An owner's link (`/agents#owner=<token>`, which the agent runtime prints for the demo agents
    // it spawns): this tab acts as that owner, without touching this browser's own player (kept in
    // localStorage for the game). The token leaves the address bar at once.
    const linked = new URLSearchParams(location.hash.slice(1)).get(OWNER_PARAM);
    if (this.provider === undefined && linked !== null && linked !== "") {
      sessionStorage.setItem(OWNER_TOKEN_KEY, linked);
      history.replaceState(null, "", location.pathname + location.search);
    }
    const kept =
      this.provider === undefined ? (sessionStorage.getItem(OWNER_TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY)) : sessionStorage.getItem(IDP_TOKEN_KEY);
    if (kept === null) {
      this.showSignIn("");
      return;
    }
    void this.open(kept);
  }

  private showSignIn(message: string): void {
    this.signedIn = false;
    for (const card of this.cards.values()) card.stop();
    this.runtime.stop();
    this.register.hidden = true;
    this.agentsSection.hidden = true;
    this.signIn.hidden = false;
    this.pageError.textContent = message;
    const title = el("h2", { id: "dash-sign-in-title", textContent: "Sign in" });
    this.signIn.setAttribute("aria-labelledby", title.id);
    const game = el("a", { href: "/", textContent: "the game" });
    if (this.provider === undefined) {
      // The anonymous identity is made by the game's Play: this page uses the one it kept.
      this.signIn.replaceChildren(
        title,
        el("p", {}, "Your agents belong to the player this browser plays as. Open ", game, ", press Play and create a character, then come back here."),
        el("p", {}, "To watch agents the agent runtime spawned (npm run agents -- --spawn N), open the link to this page it prints: it ends in #owner=…."),
      );
      return;
    }
    const input = el("input", { id: "dash-idp-token", type: "password", autocomplete: "off", required: true });
    const form = el(
      "form",
      {},
      el("label", { htmlFor: input.id, textContent: "Identity-provider token" }),
      input,
      el("button", { type: "submit", textContent: "Sign in" }),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const token = input.value.trim();
      if (token !== "") void this.open(token, true);
    });
    this.signIn.replaceChildren(title, el("p", {}, "Sign in as in ", game, ", with a token from the identity provider."), form);
    input.focus();
  }

  private async open(token: string, fresh = false): Promise<void> {
    this.pageError.textContent = "";
    try {
      this.characters = (await api<{ characters: CharacterSummary[] }>(token, "GET", "/api/character")).characters;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        if (fresh) this.showSignIn("That token was not accepted: sign in again with a fresh one.");
        else this.expired();
        return;
      }
      this.pageError.textContent = `Could not reach the game server: ${errorText(err)}`;
      return;
    }
    this.ownerToken = token;
    this.signedIn = true;
    if (fresh) sessionStorage.setItem(IDP_TOKEN_KEY, token);
    this.signIn.hidden = true;
    this.register.hidden = false;
    this.agentsSection.hidden = false;
    this.renderCharacters();
    this.runtime.start();
    for (const card of this.cards.values()) this.syncPolling(card);
    await this.loadAgents();
  }

  /** The owner's token was refused. */
  private expired(): void {
    if (this.provider !== undefined) {
      sessionStorage.removeItem(IDP_TOKEN_KEY);
      this.showSignIn("Your sign-in has expired: sign in again.");
    } else if (sessionStorage.getItem(OWNER_TOKEN_KEY) !== null) {
      sessionStorage.removeItem(OWNER_TOKEN_KEY);
      this.showSignIn("The server no longer accepts the owner's link this tab was opened with: ask for a new one, or use this browser's own player.");
    } else {
      this.showSignIn("The server no longer accepts this browser's player: open the game and press Play.");
    }
  }

  /**
   * The characters to register an agent for. One that already has an agent is listed but cannot be
   * chosen: a second agent would take the character over from the first at each login, and each
   * would log the other out.
   */
  private renderCharacters(): void {
    const chosen = this.characterSelect.value;
    const agentOf = new Map<string, string>();
    for (const card of this.cards.values()) agentOf.set(card.agent.characterId, card.displayName);
    this.characterSelect.replaceChildren(
      ...this.characters.map((c) => {
        const agent = agentOf.get(c.id);
        const option = new Option(agent !== undefined ? `${c.name} (played by the agent ${agent})` : c.online ? `${c.name} (in the world)` : c.name, c.id);
        option.disabled = agent !== undefined;
        return option;
      }),
    );
    const free = this.characters.filter((c) => !agentOf.has(c.id));
    const none = free.length === 0;
    if (none && this.characters.length > 0) {
      const placeholder = new Option("Every character has an agent", "");
      placeholder.disabled = true;
      this.characterSelect.prepend(placeholder);
    }
    this.characterSelect.value = free.some((c) => c.id === chosen) ? chosen : (free[0]?.id ?? "");
    this.characterSelect.disabled = this.characters.length === 0;
    this.registerButton.disabled = none || this.registering;
    if (this.characters.length === 0) this.pageStatus.textContent = "You have no characters yet: create one in the game first.";
    else if (none) this.pageStatus.textContent = "Each of your characters has an agent: create another character in the game to register one more.";
  }

  // ---- agents --------------------------------------------------------------------------------------

  private async loadAgents(): Promise<void> {
    const listing = ++this.listings;
    // The cards shown when the list is asked for: one registered meanwhile is not in it yet.
    const known = new Set(this.cards.keys());
    this.listState = "loading";
    this.renderListState();
    try {
      const { agents } = await api<{ agents: AgentSummary[] }>(this.ownerToken, "GET", "/api/agent");
      if (listing !== this.listings) return;
      const ids = new Set(agents.map((a) => a.agentId));
      for (const [id, card] of this.cards) if (known.has(id) && !ids.has(id)) this.drop(card);
      for (const a of agents) if (!this.cards.has(a.agentId)) this.add(a);
      this.listState = "loaded";
    } catch (err) {
      if (listing !== this.listings) return;
      this.listState = "failed";
      if (err instanceof ApiError && err.status === 401) this.expired();
      else this.listErrorText.textContent = `Could not list your agents: ${errorText(err)}.`;
    }
    this.renderListState();
  }

  /** "Loading…" while the list is asked for, its failure with Retry, "No agents yet" only when listed empty. */
  private renderListState(): void {
    this.loadingNote.hidden = this.listState !== "loading";
    this.listError.hidden = this.listState !== "failed";
    this.emptyNote.hidden = this.listState !== "loaded" || this.cards.size > 0;
  }

  private add(agent: AgentSummary): AgentCard {
    const card = new AgentCard(this, agent);
    this.cards.set(agent.agentId, card);
    // What the runtime last said of it (its list may have come before this card).
    card.showRuntime(this.runtime.agent(agent.agentId));
    this.list.append(card.root);
    this.renderListState();
    this.renderCharacters();
    // It starts polling once the observer says it is on screen (at once, for one that is).
    this.onScreen.observe(card.root);
    return card;
  }

  /**
   * The cards on screen: only they poll. Each card's four panels poll every 5-10 s (the spec's
   * intervals), 30 requests a minute, and the server allows an address 100: polling every card of
   * an owner with more than three agents met 429s, for panels no one was looking at.
   */
  private readonly onScreen = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const card = this.cards.get((entry.target as HTMLElement).dataset.agentId ?? "");
      if (card === undefined) continue;
      card.onScreen = entry.isIntersecting;
      this.syncPolling(card);
    }
  });

  /** A card polls while its owner is signed in, the page is shown and the card is on screen. */
  private syncPolling(card: AgentCard): void {
    if (this.signedIn && !document.hidden && card.onScreen) card.start();
    else card.stop();
  }

  private drop(card: AgentCard): void {
    this.onScreen.unobserve(card.root);
    card.stop();
    card.root.remove();
    this.cards.delete(card.agent.agentId);
    this.renderListState();
    this.renderCharacters();
  }

  private async registerAgent(): Promise<void> {
    const characterId = this.characterSelect.value;
    if (characterId === "" || this.characterSelect.selectedOptions[0]?.disabled === true) return;
    // One registration at a time: a double click or a second Enter would make a second agent.
    if (this.registering) return;
    const name = this.nameInput.value.trim();
    this.pageError.textContent = "";
    this.setRegistering(true);
    let reg: { agent: AgentSummary; token: string };
    try {
      reg = await api<{ agent: Omit<AgentSummary, "goalsPaused">; token: string }>(
        this.ownerToken,
        "POST",
        "/api/agent",
        name === "" ? { characterId } : { characterId, name },
      ).then((r) => ({ ...r, agent: { ...r.agent, goalsPaused: false } }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) this.expired();
      else this.pageError.textContent = `Could not register the agent: ${errorText(err)}`;
      return;
    } finally {
      this.setRegistering(false);
    }
    this.nameInput.value = "";
    // A listing asked for before the registration may have answered after it, with the new agent in
    // it, and shown its card already: one card an agent (two made two Watch buttons, seen in CI).
    const card = this.cards.get(reg.agent.agentId) ?? this.add(reg.agent);
    this.pageStatus.textContent = `${card.displayName} was registered.`;
    card.root.querySelector("h3")?.setAttribute("tabindex", "-1");
    card.root.querySelector<HTMLElement>("h3")?.focus();
    // Registered while the runtime's first check is under way: its answer decides.
    if (this.runtime.reachable === undefined) {
      card.say("Checking the agent runtime…");
      await this.runtime.checking;
      card.say("");
    }
    if (this.runtime.reachable === true) {
      card.say("Handing it to the agent runtime…");
      try {
        card.showRuntime(await this.runtime.client.hand(this.ownerToken, reg.agent.agentId, reg.token));
        card.say(`${card.displayName} was handed to the agent runtime.`);
        this.runtime.pollNow();
      } catch (err) {
        this.runtime.failed(err);
        card.say(`Could not hand ${card.displayName} to the agent runtime: ${errorText(err)}`, true);
        card.showToken(reg.token, "Its token, for a runtime of your own (shown once; New token makes another and ends the sessions of older ones).");
      }
    } else {
      card.showToken(reg.token, "Its token, for a runtime of your own (shown once; New token makes another and ends the sessions of older ones).");
    }
  }

  private setRegistering(on: boolean): void {
    this.registering = on;
    this.registerButton.textContent = on ? "Registering…" : "Register agent";
    this.registerButton.disabled = on || this.characterSelect.value === "";
  }

  // ---- CardHost ------------------------------------------------------------------------------------

  token(): string {
    return this.ownerToken;
  }

  content(): Content | undefined {
    return this.loadedContent;
  }

  /** undefined also while the runtime's list of agents is not read yet (RuntimeWatch.forCards). */
  runtimeReachable(): boolean | undefined {
    return this.runtime.forCards();
  }

  characterName(characterId: string): string | undefined {
    return this.characters.find((c) => c.id === characterId)?.name;
  }

  async runInRuntime(card: AgentCard): Promise<void> {
    const { token } = await api<{ token: string }>(this.ownerToken, "POST", `/api/agent/${encodeURIComponent(card.agent.agentId)}/token`);
    try {
      card.showRuntime(await this.runtime.client.hand(this.ownerToken, card.agent.agentId, token));
    } catch (err) {
      this.runtime.failed(err);
      throw err;
    }
    card.say(`${card.displayName} was handed to the agent runtime.`);
    this.runtime.pollNow();
  }

  async removeFromRuntime(card: AgentCard): Promise<void> {
    try {
      await this.runtime.client.remove(this.ownerToken, card.agent.agentId);
    } catch (err) {
      this.runtime.failed(err);
      throw err;
    }
    card.say(`${card.displayName} no longer plays in the agent runtime (it stays registered).`);
    this.runtime.pollNow();
  }

  async newToken(card: AgentCard): Promise<void> {
    const { token } = await api<{ token: string }>(this.ownerToken, "POST", `/api/agent/${encodeURIComponent(card.agent.agentId)}/token`);
    // The older tokens stop working, the runtime's too: it plays on with the new one.
    if (this.runtime.reachable === true && isActive(card.runtimeAgent)) {
      try {
        card.showRuntime(await this.runtime.client.hand(this.ownerToken, card.agent.agentId, token));
        card.showToken(token, "A new token (shown once). Older tokens no longer work; the agent runtime plays on with this one.");
        card.say(`${card.displayName} has a new token.`);
        return;
      } catch (err) {
        this.runtime.failed(err);
        card.showToken(token, `A new token (shown once). Older tokens no longer work, and the agent runtime could not be given this one: ${errorText(err)}`);
        card.say(`${card.displayName} has a new token, but the agent runtime stopped playing it.`, true);
        return;
      }
    }
    card.showToken(token, "A new token (shown once). Older tokens no longer work: a session opened with one has ended.");
    card.say(`${card.displayName} has a new token.`);
  }

  deleted(card: AgentCard): void {
    const name = card.displayName;
    this.drop(card);
    this.pageStatus.textContent = `${name} was deleted.`;
    this.characterSelect.focus();
  }

  gone(card: AgentCard): void {
    const name = card.displayName;
    this.drop(card);
    this.pageStatus.textContent = `${name} no longer exists on the server.`;
  }

  signedOut(): void {
    if (this.signedIn) this.expired();
  }
}

export function mountDashboard(): void {
  new Dashboard().mount();
}
