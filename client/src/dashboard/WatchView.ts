/**
 * **Watch** on an agent's card: a read-only view of the world that follows the agent's character
 * (a `/ws?spectate=<characterId>` connection with the owner's token, docs/protocol.md
 * "Spectating"), beside the agent's goal and its recent decisions (mirrored from the card, which
 * polls them). The view cannot act: it sends nothing, and the server would refuse it (SPECTATOR).
 *
 * Drawn on a canvas, top-down, centred on the character, as the game's world view draws the world
 * (watchArt.ts): the ground's pixel art once the content is in (`data-map="ground"`), roofs over the
 * buildings, stations, and what the `world:update` deltas send (entities merged by id, `removed`
 * dropped), each in the game's look for it: players in the gear they show (the watched one in your
 * blue, ringed in gold, named), NPCs by kind, trees, rocks, fishing spots, fires, ground items.
 */
import type { Content } from "../content.ts";
import { el } from "./dom.ts";
import { WATCH_TILE, WatchArt, type WatchEntity as Entity } from "./watchArt.ts";

/** Tiles shown either side of the character. */
export const WATCH_RADIUS = 10;
const SIZE = (2 * WATCH_RADIUS + 1) * WATCH_TILE;

export interface WatchSources {
  /** The owner's token. */
  token(): string;
  characterId: string;
  /** The card's goal line and its activity list, mirrored beside the view. */
  goal: HTMLElement;
  decisions: HTMLElement;
  /** The world's content, once loaded (the map under the view; before it, plain ground). */
  content?: () => Content | undefined;
}

/** The `/ws` address of this page's server. */
export function spectateUrl(token: string, characterId: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}&spectate=${encodeURIComponent(characterId)}`;
}

export class WatchView {
  readonly root: HTMLElement;
  private readonly sources: WatchSources;
  private readonly canvas = el("canvas", { width: SIZE, height: SIZE, className: "watch-canvas" });
  private readonly state = el("p", { className: "watch-state" });
  private readonly where = el("p", { className: "watch-where" });
  private readonly goal = el("p", { className: "watch-goal" });
  private readonly decisions = el("ol", { className: "watch-decisions" });
  private readonly entities = new Map<string, Entity>();
  /** The game's art for the view (the pieces of ground, looks and roofs it drew, kept). */
  private readonly art = new WatchArt();
  private readonly observer: MutationObserver;
  private socket: WebSocket | undefined;
  private name = "";
  private drawPending = false;

  constructor(sources: WatchSources, headingId: string, onClose: () => void) {
    this.sources = sources;
    const heading = el("h4", { id: headingId, textContent: "Watching" });
    this.state.setAttribute("role", "status");
    this.canvas.setAttribute("role", "img");
    this.canvas.setAttribute("aria-label", "The agent's character in the world (read-only)");
    const close = el("button", { type: "button", textContent: "Stop watching" });
    close.addEventListener("click", onClose);
    const side = el(
      "div",
      { className: "watch-side" },
      el("h5", { textContent: "Goal" }),
      this.goal,
      el("h5", { textContent: "Recent decisions" }),
      this.decisions,
    );
    this.root = el(
      "div",
      { className: "agent-part agent-watch" },
      heading,
      this.state,
      el("div", { className: "watch-body" }, el("div", {}, this.canvas, this.where), side),
      close,
    );
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-labelledby", headingId);
    this.observer = new MutationObserver(() => this.mirror());
    this.observer.observe(sources.goal, { childList: true, characterData: true, subtree: true });
    this.observer.observe(sources.decisions, { childList: true, characterData: true, subtree: true });
    this.mirror();
  }

  /** The card's goal and decisions, copied beside the view. */
  private mirror(): void {
    this.goal.textContent = this.sources.goal.textContent === "" ? "No goal yet." : this.sources.goal.textContent;
    const items = Array.from(this.sources.decisions.querySelectorAll("li")).map((li) => el("li", { textContent: li.textContent ?? "" }));
    this.decisions.replaceChildren(...(items.length > 0 ? items : [el("li", { textContent: "None known (the agent runtime reports them)." })]));
  }

  open(): void {
    this.close();
    this.entities.clear();
    this.state.textContent = "Connecting…";
    const socket = new WebSocket(spectateUrl(this.sources.token(), this.sources.characterId));
    this.socket = socket;
    socket.addEventListener("message", (ev) => {
      if (this.socket !== socket) return;
      // The card went (its agent deleted, the owner signed out): so does the view's connection.
      if (!this.root.isConnected) return this.close();
      const { type, data } = JSON.parse(String(ev.data)) as { type: string; data: Record<string, unknown> };
      this.receive(type, data);
    });
    socket.addEventListener("close", (ev) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (ev.code !== 1000 && !this.state.textContent?.startsWith("Could not")) this.state.textContent = `The view closed (${ev.code}).`;
    });
    this.draw();
  }

  private receive(type: string, data: Record<string, unknown>): void {
    if (type === "spectate:started") {
      this.name = String(data.name);
      this.state.textContent = `Watching ${this.name} (read-only).`;
    } else if (type === "world:update") {
      for (const e of data.entities as Entity[]) this.entities.set(e.id, { ...this.entities.get(e.id), ...e });
      for (const id of data.removed as string[]) this.entities.delete(id);
      this.scheduleDraw();
    } else if (type === "spectate:ended") {
      this.state.textContent = `${this.name || "The character"} left the world: it is offline.`;
    } else if (type === "error") {
      const code = String(data.code);
      this.state.textContent =
        code === "NOT_ONLINE" ? "The character is not in the world: nothing to watch." : `Could not watch: ${String(data.message)} (${code}).`;
    }
  }

  private scheduleDraw(): void {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.draw();
    });
  }

  private draw(): void {
    const g = this.canvas.getContext("2d");
    if (g === null) return;
    const me = this.entities.get(this.sources.characterId);
    const content = this.sources.content?.();
    if (me === undefined) {
      g.fillStyle = "#3f6b2f";
      g.fillRect(0, 0, SIZE, SIZE);
      return;
    }
    this.art.draw(g, content, me, this.entities.values(), this.name, WATCH_RADIUS);
    if (content !== undefined && this.canvas.dataset.map !== "ground") this.canvas.dataset.map = "ground";
    this.canvas.dataset.x = String(me.x);
    this.canvas.dataset.z = String(me.z);
    this.where.textContent = `${this.name || "The character"} is at (${me.x}, ${me.z}); ${this.entities.size - 1} other things in view.`;
  }

  /** Ends the connection (the view stays, saying it is closed). */
  close(): void {
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(1000);
  }

  dispose(): void {
    this.close();
    this.observer.disconnect();
    this.root.remove();
  }
}

/**
 * A **Watch** button in the card's header: opens the view at the top of the card (the goal and
 * decisions beside it), and **Stop watching** (or the button again) closes it.
 */
export function attachWatch(card: HTMLElement, sources: WatchSources, uid: string): void {
  const header = card.querySelector(".agent-header") ?? card;
  const watch = el("button", { type: "button", textContent: "Watch", className: "watch-button" });
  watch.setAttribute("aria-expanded", "false");
  let view: WatchView | undefined;
  const toggle = (): void => {
    if (view !== undefined) {
      view.dispose();
      view = undefined;
      watch.setAttribute("aria-expanded", "false");
      watch.focus();
      return;
    }
    view = new WatchView(sources, `${uid}-watch`, toggle);
    // Under the card's header and status line, above its panels: the view, its goal and decisions side by side.
    const status = card.querySelector(".agent-status");
    if (status !== null) status.after(view.root);
    else card.append(view.root);
    watch.setAttribute("aria-expanded", "true");
    view.open();
  };
  watch.addEventListener("click", toggle);
  header.append(watch);
}
