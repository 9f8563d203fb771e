/**
 * The start screen: who you are, then which character plays.
 *
 * - Without an identity provider (`/env.js` names none): **Play** uses this browser's anonymous
 *   identity, kept in localStorage so that a reload comes back as the same player, or asks the
 *   server for one (`POST /api/auth/anonymous`).
 * - With one (`window.env.PUBLIC_IDP_APP_ID`): a pasted identity-provider token and **Sign in**
 *   (there is no provider SDK offline), kept for the tab's session only.
 *
 * Then the account's characters (`GET /api/character`): play one, delete one (after a
 * confirmation), or create one (**Character name**, a template from `GET /api/template`, **Create
 * character**). Playing hands the token, the character's id and the **World** chosen (the cluster's
 * list, client/src/panels/worlds.ts) to `enter`, which joins the world. A character played in this
 * tab before a reload is played again at once (client/src/session.ts); Log out in the game comes
 * back here through {@link StartScreen.back}.
 */
import { api, ApiError, type CharacterSummary, type Template } from "./api.ts";
import { fillWorldChoice } from "./panels/worlds.ts";
import { keepResume, keptResume } from "./session.ts";

/** Where the anonymous identity's token is kept (as before this screen had characters). */
export const TOKEN_KEY = "rsworld.token";
/** Where an identity-provider token is kept: this tab only, it is the provider's credential. */
export const IDP_TOKEN_KEY = "rsworld.idpToken";

export interface Choice {
  token: string;
  characterId: string;
  name: string;
  /** The world to enter (undefined: the one the server picks). */
  world?: number | undefined;
}

export interface StartScreen {
  /** Back from the game (a logout): the character list again, with a line saying why. */
  back(message: string): void;
}

declare global {
  interface Window {
    /** The server's public settings (`/env.js`). */
    env?: Readonly<Record<string, string | undefined>>;
  }
}

/** How often the shown character screen lists the worlds again. */
const WORLDS_REFRESH_MS = 5_000;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function showError(text: string): void {
  $("start-error").textContent = text;
  // "Try again" goes with the listing's failure only (CharacterScreen.refresh shows it).
  $("start-retry").hidden = true;
}

function button(text: string, label: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (label !== text) b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

async function anonymousToken(): Promise<string> {
  const kept = localStorage.getItem(TOKEN_KEY);
  if (kept !== null) {
    try {
      await api(kept, "GET", "/api/character");
      return kept;
    } catch (err) {
      // A kept token the server no longer accepts (its secret changed, it expired): start anew.
      if (!(err instanceof ApiError && err.status === 401)) throw err;
      localStorage.removeItem(TOKEN_KEY);
    }
  }
  const { token } = await api<{ token: string }>(undefined, "POST", "/api/auth/anonymous");
  localStorage.setItem(TOKEN_KEY, token);
  return token;
}

export function runStartScreen(enter: (choice: Choice) => Promise<void>): StartScreen {
  const provider = window.env?.PUBLIC_IDP_APP_ID;
  const play = $<HTMLButtonElement>("play");
  const idpForm = $<HTMLFormElement>("idp-form");
  play.hidden = provider !== undefined;
  idpForm.hidden = provider === undefined;
  $("start-intro").textContent =
    provider === undefined
      ? "A RuneScape-like world. Play anonymously: your player is kept in this browser."
      : "A RuneScape-like world. Sign in with a token from the identity provider.";

  const signOut = (message: string) => {
    sessionStorage.removeItem(IDP_TOKEN_KEY);
    // An anonymous token that stopped working is dropped: Play asks for a new identity.
    if (provider === undefined && message !== "") localStorage.removeItem(TOKEN_KEY);
    $("characters").hidden = true;
    $("sign-in").hidden = false;
    showError(message);
    (provider === undefined ? play : $("idp-token")).focus();
  };
  const screen = new CharacterScreen(enter, signOut);
  const open = (token: string, anonymous: boolean) => {
    $("sign-in").hidden = true;
    screen.show(token, anonymous);
  };

  play.addEventListener("click", () => {
    play.disabled = true;
    showError("");
    anonymousToken()
      .then((token) => open(token, true))
      .catch((err: unknown) => showError(`Could not start: ${errorText(err)}`))
      .finally(() => (play.disabled = false));
  });
  idpForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const token = $<HTMLInputElement>("idp-token").value.trim();
    if (token === "") return;
    showError("");
    api(token, "GET", "/api/character")
      .then(() => {
        sessionStorage.setItem(IDP_TOKEN_KEY, token);
        $<HTMLInputElement>("idp-token").value = "";
        open(token, false);
      })
      .catch((err: unknown) =>
        showError(
          err instanceof ApiError && err.status === 401
            ? "That token was not accepted: sign in again with a fresh one."
            : `Could not sign in: ${errorText(err)}`,
        ),
      );
  });
  // Still signed in in this tab (a reload): straight to the characters, and into the world again
  // when a character was being played.
  const kept = provider !== undefined ? sessionStorage.getItem(IDP_TOKEN_KEY) : null;
  const resume = keptResume();
  if (kept !== null) open(kept, false);
  else if (provider === undefined && resume !== undefined && localStorage.getItem(TOKEN_KEY) !== null) {
    anonymousToken()
      .then((token) => open(token, true))
      .catch((err: unknown) => showError(`Could not start: ${errorText(err)}`));
  }
  return {
    back(message: string) {
      showError("");
      $("start-status").textContent = message;
      void screen.refresh();
    },
  };
}

/** The account's characters: list, play, delete, create. */
class CharacterScreen {
  private token = "";
  private readonly enter: (choice: Choice) => Promise<void>;
  private readonly expired: (message: string) => void;
  private readonly list = $("character-list");
  private templates: Template[] = [];
  /** The templates' request while it is under way (one at a time). */
  private templatesLoading: Promise<unknown> | undefined;
  /** The latest listing: an older one answering late does not draw over it. */
  private listings = 0;
  private busy = false;
  /** A creation or deletion under way: its button stays disabled until it settles. */
  private creating = false;
  private deleting = false;

  constructor(enter: (choice: Choice) => Promise<void>, expired: (message: string) => void) {
    this.enter = enter;
    this.expired = expired;
    $<HTMLFormElement>("create-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.create();
    });
    $<HTMLSelectElement>("character-template").addEventListener("change", () => this.describeTemplate());
    $("sign-out").addEventListener("click", () => this.expired(""));
    // The World choice follows the cluster while the characters are shown (a world starting, counts).
    setInterval(() => {
      if (!$("start").hidden && !$("characters").hidden) this.listWorlds();
    }, WORLDS_REFRESH_MS);
    $("start-retry").addEventListener("click", () => {
      showError("");
      void this.refresh();
    });
  }

  show(token: string, anonymous: boolean): void {
    this.token = token;
    $("characters").hidden = false;
    $("sign-out").hidden = anonymous;
    void this.refresh();
  }

  /** The World choice, listed again with each listing (a list that fails leaves the server to choose). */
  private listWorlds(): void {
    const select = $<HTMLSelectElement>("world-choice");
    fillWorldChoice(select).then(
      () => ($("world-field").hidden = select.options.length === 0),
      () => ($("world-field").hidden = true),
    );
  }

  /** A refusal: a token that stopped working ends the sign-in; anything else is shown. */
  private fail(what: string, err: unknown): void {
    if (err instanceof ApiError && err.status === 401) {
      this.expired("Your sign-in has expired: sign in again.");
      return;
    }
    showError(`${what}: ${errorText(err)}`);
  }

  /**
   * Lists the characters, and the templates until they are listed: each request on its own, so that
   * one failing (a server restarting answers 503) does not hide what the other brought. A failure
   * is said with "Try again", which lists again.
   */
  async refresh(focusId?: string): Promise<void> {
    const listing = ++this.listings;
    this.listWorlds();
    const problems: string[] = [];
    let signedOut = false;
    const failed = (what: string, err: unknown) => {
      if (err instanceof ApiError && err.status === 401) signedOut = true;
      else problems.push(`${what}: ${errorText(err)}`);
    };
    // Which characters an agent plays (said on the list, and asked about before Play): without the
    // answer the list is drawn without it, as playing stays possible either way.
    const agents = api<{ agents: { characterId: string; name: string | null }[] }>(this.token, "GET", "/api/agent").then(
      ({ agents }) => new Map(agents.map((a) => [a.characterId, a.name])),
      () => new Map<string, string | null>(),
    );
    const characters = api<{ characters: CharacterSummary[] }>(this.token, "GET", "/api/character").then(
      async ({ characters }) => {
        const agentOf = await agents;
        if (listing !== this.listings) return;
        this.renderList(characters, agentOf);
        // A reload while playing: the same character again (unless an agent plays it now: it has
        // one and is in the world).
        const resume = keptResume();
        const again = characters.find((c) => c.id === resume?.characterId);
        keepResume(undefined);
        if (again !== undefined && !(agentOf.has(again.id) && again.online)) {
          void this.play(again, resume?.world);
          return;
        }
        this.focusAfterListing(characters, focusId);
      },
      (err: unknown) => failed("Could not list your characters", err),
    );
    await Promise.all([characters, this.loadTemplates().catch((err: unknown) => failed("Could not list the character templates", err))]);
    if (listing !== this.listings) return;
    if (signedOut) {
      this.expired("Your sign-in has expired: sign in again.");
      return;
    }
    if (problems.length === 0) return;
    showError(problems.join(" "));
    $("start-retry").hidden = false;
  }

  /** The templates, asked for until they are listed. */
  private loadTemplates(): Promise<unknown> {
    if (this.templates.length > 0) return Promise.resolve();
    this.templatesLoading ??= api<{ templates: Template[] }>(this.token, "GET", "/api/template")
      .then(({ templates }) => {
        this.templates = templates;
        this.renderTemplates();
      })
      .finally(() => (this.templatesLoading = undefined));
    return this.templatesLoading;
  }

  /**
   * Where the keyboard goes once the list is drawn: to the character named (just created, kept),
   * else only when nothing on the screen has it (a person typing a name keeps typing).
   */
  private focusAfterListing(characters: CharacterSummary[], focusId: string | undefined): void {
    const focus = focusId !== undefined ? this.list.querySelector<HTMLButtonElement>(`[data-play="${CSS.escape(focusId)}"]`) : null;
    if (focus !== null) {
      focus.focus();
      return;
    }
    const active = document.activeElement;
    // Nothing has it: the page itself, or a control just hidden (Play, Sign in) or redrawn away.
    const idle = active === null || active === document.body || !$("start").contains(active) || active.closest("[hidden]") !== null;
    if (!idle && focusId === undefined) return;
    if (characters.length === 0) $("character-name").focus();
    else this.list.querySelector<HTMLButtonElement>("[data-play]")?.focus();
  }

  private renderTemplates(): void {
    const select = $<HTMLSelectElement>("character-template");
    // Creating waits for the templates: until they are listed, the form has no template to send.
    $<HTMLButtonElement>("create-submit").disabled = this.templates.length === 0 || this.creating;
    if (select.options.length === this.templates.length) return;
    select.replaceChildren(...this.templates.map((t) => new Option(t.name, t.id)));
    this.describeTemplate();
  }

  private describeTemplate(): void {
    const id = $<HTMLSelectElement>("character-template").value;
    $("template-description").textContent = this.templates.find((t) => t.id === id)?.description ?? "";
  }

  /** `agentOf`: the characters an agent plays, with its name (null: it has none). */
  private renderList(characters: CharacterSummary[], agentOf: Map<string, string | null>): void {
    $("characters-empty").hidden = characters.length > 0;
    this.list.replaceChildren(
      ...characters.map((c) => {
        const li = document.createElement("li");
        const name = document.createElement("span");
        name.className = "character-name";
        name.textContent = c.name;
        const meta = document.createElement("span");
        meta.className = "character-meta";
        // An agent plays the character only while it is in the world (its runtime connected it);
        // a registered agent that is not running is said as such, and Play asks nothing.
        const registered = agentOf.has(c.id) ? agentText(agentOf.get(c.id) ?? null) : undefined;
        const agent = registered !== undefined && c.online ? registered : undefined;
        const agentNote =
          agent !== undefined
            ? ` · played by ${agent}`
            : registered !== undefined
              ? ` · ${registered === "an agent" ? "its agent" : registered} is not running`
              : "";
        meta.textContent = `Combat level ${c.combatLevel}${c.online ? " · in the world" : ""}${agentNote}`;
        const actions = document.createElement("span");
        actions.className = "character-actions";
        const playButton = button("Play", `Play ${c.name}`, () => (agent !== undefined ? this.confirmPlay(c, agent, actions) : void this.play(c)));
        playButton.dataset.play = c.id;
        const del = button("Delete", `Delete ${c.name}`, () => this.confirmDelete(c, actions));
        actions.append(playButton, del);
        li.append(name, meta, actions);
        return li;
      }),
    );
  }

  /**
   * Playing a character an agent plays logs the agent out (one session a character), and the agent
   * runtime does not bring it back on its own: asked first, as a deletion is.
   */
  private confirmPlay(c: CharacterSummary, agent: string, actions: HTMLElement): void {
    const play = button("Play anyway", `Play ${c.name} anyway`, () => void this.play(c));
    const keep = button("Cancel", `Cancel playing ${c.name}`, () => void this.refresh(c.id));
    const note = document.createElement("span");
    note.className = "character-confirm";
    note.textContent = `${c.name} is played by ${agent}. Playing logs the agent out, and it stays stopped until it is run again from the agent dashboard.`;
    actions.replaceChildren(note, play, keep);
    keep.focus();
  }

  private confirmDelete(c: CharacterSummary, actions: HTMLElement): void {
    const confirm = button("Delete for good", `Delete ${c.name} for good`, () => void this.delete(c, confirm));
    confirm.className = "danger";
    const keep = button("Keep", `Keep ${c.name}`, () => void this.refresh(c.id));
    const note = document.createElement("span");
    note.className = "character-confirm";
    note.textContent = `Delete ${c.name}? Their items and skills are lost.`;
    actions.replaceChildren(note, confirm, keep);
    keep.focus();
  }

  private async delete(c: CharacterSummary, confirm: HTMLButtonElement): Promise<void> {
    // One deletion at a time: a second click (a double click, a slow answer) sends nothing.
    if (this.deleting) return;
    this.deleting = true;
    confirm.disabled = true;
    showError("");
    let deleted = false;
    try {
      await api(this.token, "DELETE", `/api/character/${encodeURIComponent(c.id)}`);
      deleted = true;
    } catch (err) {
      this.fail(`Could not delete ${c.name}`, err);
    } finally {
      this.deleting = false;
      confirm.disabled = false;
    }
    if (deleted) {
      await this.refresh();
      // Said once the list shows it.
      $("start-status").textContent = `${c.name} was deleted.`;
    } else {
      await this.refresh(c.id);
    }
  }

  private async create(): Promise<void> {
    const input = $<HTMLInputElement>("character-name");
    const name = input.value.trim();
    const templateId = $<HTMLSelectElement>("character-template").value;
    // Said, not left to the browser's own bubble (which some never show).
    if (name === "") {
      showError("Type a name for your character first: 3 to 16 letters, digits or spaces.");
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    input.removeAttribute("aria-invalid");
    // The button is disabled until the templates are listed; a submit without one (Enter) waits too.
    if (templateId === "") return;
    // One creation at a time: a double click or a second Enter sends nothing more.
    if (this.creating) return;
    this.creating = true;
    this.renderTemplates();
    showError("");
    let created: CharacterSummary | undefined;
    try {
      created = (await api<{ character: CharacterSummary }>(this.token, "POST", "/api/character", { name, templateId })).character;
      input.value = "";
    } catch (err) {
      this.fail(`Could not create ${name}`, err);
    } finally {
      this.creating = false;
      this.renderTemplates();
    }
    if (created === undefined) return;
    await this.refresh(created.id);
    $("start-status").textContent = `${created.name} was created.`;
  }

  /** `world`: a reload's world; else the World choice. */
  private async play(c: CharacterSummary, world?: number): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    showError("");
    $("start-status").textContent = `Joining the world as ${c.name}…`;
    const chosen = Number($<HTMLSelectElement>("world-choice").value);
    try {
      await this.enter({ token: this.token, characterId: c.id, name: c.name, world: world ?? (chosen > 0 ? chosen : undefined) });
    } catch (err) {
      $("start-status").textContent = "";
      this.fail(`Could not join the world as ${c.name}`, err);
    } finally {
      this.busy = false;
    }
  }
}

/** An agent as the character list names it: "the agent Wren", or "an agent" without a name. */
function agentText(name: string | null): string {
  return name !== null && name !== "" ? `the agent ${name}` : "an agent";
}
