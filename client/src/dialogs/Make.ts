/**
 * The Make dialog: opens on `skill:recipes` (after `interact` on a furnace, an anvil, a tanner or a
 * rune altar, or "Make with …" on an inventory item: `skill:getRecipes {}` shown filtered to the
 * recipes that use that item). It lists the recipes with what each needs (level, inputs, tools,
 * xp); one the player cannot make now stays listed, marked, with the server's reason. "Make 1 /
 * 5 / X / All" sends `skill:make {recipeId, quantity}` for the chosen recipe; `skill:makeProgress`
 * shows what is made and what remains, Stop sends `player:action stop`, and `skill:makeStopped`
 * says why the loop ended (then the list is asked for again: what is makeable has changed).
 */
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import { MAKE_MAX_QUANTITY } from "../../../src/game/clientEvents.ts";
import { button, Dialog, group } from "./dialog.ts";
import { itemName, type DialogHost } from "./host.ts";
import { counted } from "../names.ts";

type Recipes = ServerEvent<"skill:recipes">;
type Recipe = Recipes["recipes"][number];
type Stopped = ServerEvent<"skill:makeStopped">;

/** A station whose `interact` lists recipes: some recipe other than cooking's is made there. */
export function isMakeStation(host: Pick<DialogHost, "content">, type: string): boolean {
  for (const r of host.content.registry.production.values()) if (r.station === type && r.kind !== "cooking") return true;
  return false;
}

/** Whether "Make with <item>…" is offered: a recipe made anywhere uses the item as a tool or an input. */
export function makesWith(host: Pick<DialogHost, "content">, itemId: string): boolean {
  for (const r of host.content.registry.production.values()) if (usesItem(r, itemId)) return true;
  return false;
}

function usesItem(r: { kind: string; station: string | null; tools: string[]; inputs: { itemId: string }[] }, itemId: string): boolean {
  if (r.station !== null || r.kind === "firemaking" || r.kind === "cooking") return false;
  return r.tools.includes(itemId) || r.inputs.some((i) => i.itemId === itemId);
}

const STOP_TEXT: Record<Stopped["reason"], string> = {
  done: "Done",
  no_materials: "You have run out of materials",
  inventory_full: "Your inventory is full",
  no_station: "You are too far from the station",
  moved: "You walked away",
  interrupted: "Stopped for something else",
  combat: "You were attacked",
  trade: "A trade interrupted it",
  refused: "It could not go on",
};

export class MakeDialog {
  private readonly host: DialogHost;
  private readonly dialog: Dialog;
  private readonly heading = document.createElement("p");
  private readonly list = group("Recipes", "make-recipes");
  private readonly amount = document.createElement("input");
  private readonly makeButtons: HTMLButtonElement[] = [];
  private readonly progress = document.createElement("p");
  private readonly stop = button("Stop", () => {
    this.stopping = true;
    this.host.room.send("player:action", { action: "stop" });
  });
  /** Stop was pressed: the server's `interrupted` is then the player's own stop. */
  private stopping = false;
  private view: Recipes | undefined;
  /** The item a "Make with …" asked about: the next `skill:recipes {station: null}` is filtered to it. */
  private filter: string | undefined;
  private pendingFilter: string | undefined;
  private selected: string | undefined;
  private running = false;

  constructor(host: DialogHost) {
    this.host = host;
    this.dialog = new Dialog(host.parent, "Make", () => this.close());
    this.heading.className = "make-heading";
    this.list.empty.textContent = "Nothing to make here.";
    const choose = document.createElement("div");
    choose.className = "dialog-actions make-quantity";
    const label = document.createElement("label");
    this.amount.type = "number";
    this.amount.min = "1";
    this.amount.max = String(MAKE_MAX_QUANTITY);
    this.amount.step = "1";
    this.amount.inputMode = "numeric";
    this.amount.value = "10";
    label.append("X ", this.amount);
    for (const q of [1, 5, "X", "All"] as const) {
      const b = button(`Make ${q}`, () => this.make(q));
      this.makeButtons.push(b);
      choose.append(b);
    }
    choose.append(label);
    this.progress.className = "make-progress";
    this.progress.setAttribute("role", "status");
    this.stop.hidden = true;
    const actions = document.createElement("div");
    actions.className = "dialog-actions";
    actions.append(
      this.stop,
      button("Close", () => this.close()),
    );
    this.dialog.body.append(this.heading, this.list.el, choose, this.progress, actions);
  }

  get isOpen(): boolean {
    return this.dialog.isOpen;
  }

  /** "Make with <item>…": asks for every recipe; the answer is shown filtered to that item's. */
  openFor(itemId: string): void {
    this.pendingFilter = itemId;
    this.host.room.send("skill:getRecipes", {});
  }

  /** The server's list (an answer to `skill:getRecipes` or to `interact` on a station). */
  recipes(view: Recipes): void {
    if (view.station === null && this.pendingFilter === undefined && !(this.isOpen && this.view?.station === null)) return;
    if (view.station === null) {
      if (this.pendingFilter !== undefined) this.filter = this.pendingFilter;
    } else this.filter = undefined;
    this.pendingFilter = undefined;
    const filter = this.filter;
    const recipes = filter === undefined ? view.recipes : view.recipes.filter((r) => usesItem(r, filter));
    const first = !this.isOpen || this.view?.station !== view.station;
    this.view = { station: view.station, recipes };
    if (first || !recipes.some((r) => r.id === this.selected)) this.selected = (recipes.find((r) => r.makeable) ?? recipes[0])?.id;
    const station = view.station === null ? undefined : this.host.content.registry.stations.find((s) => s.type === view.station);
    this.heading.textContent =
      filter !== undefined
        ? `Using ${itemName(this.host, filter)}`
        : station !== undefined
          ? `At the ${station.name.toLowerCase()}`
          : view.station !== null
            ? `At the ${view.station}`
            : "Anywhere";
    if (first) {
      this.running = false;
      this.progress.textContent = "";
      this.dialog.say("");
    }
    this.render();
    this.dialog.show();
  }

  progressed(m: ServerEvent<"skill:makeProgress">): void {
    if (!this.isOpen) return;
    this.running = m.remaining !== 0;
    const name = this.recipeName(m.recipeId);
    const failed = m.itemId !== null && m.quantity === 0 ? " (that one failed)" : "";
    this.progress.textContent =
      m.remaining === null ? `${name}: ${m.made} made${failed}, until the materials run out.` : `${name}: ${m.made} made${failed}, ${m.remaining} to go.`;
    this.render();
  }

  stopped(m: Stopped): void {
    if (!this.isOpen) return;
    this.running = false;
    const own = this.stopping && m.reason === "interrupted";
    this.stopping = false;
    const why = m.reason === "done" ? "" : `: ${own ? "You stopped" : STOP_TEXT[m.reason]}${m.message !== undefined ? ` (${m.message})` : ""}`;
    this.progress.textContent = `${this.recipeName(m.recipeId)}: ${m.made} made. ${m.reason === "done" ? "Done." : `Stopped${why}.`}`;
    this.render();
    this.refresh();
  }

  /** A refusal of `skill:make`, in words. */
  refused(message: string): void {
    if (!this.isOpen) return;
    this.running = false;
    this.dialog.say(sentence(message));
    this.render();
  }

  close(): void {
    this.view = undefined;
    this.filter = undefined;
    this.running = false;
    this.dialog.hide();
  }

  private refresh(): void {
    const view = this.view;
    if (view === undefined) return;
    if (this.filter !== undefined) this.pendingFilter = this.filter;
    this.host.room.send("skill:getRecipes", view.station === null ? {} : { station: view.station });
  }

  private recipeName(id: string): string {
    return this.view?.recipes.find((r) => r.id === id)?.name ?? this.host.content.registry.production.get(id)?.name ?? id;
  }

  private describe(r: Recipe): string {
    const parts = [r.skill === null ? "no skill needed" : `${cap(r.skill)} level ${r.level}`];
    const inputs = r.inputs.map((i) => counted(i.quantity, itemName(this.host, i.itemId)));
    if (r.essence !== null) inputs.push(`every ${r.essence.map((e) => itemName(this.host, e)).join(" or ")}`);
    if (inputs.length > 0) parts.push(`uses ${inputs.join(", ")}`);
    if (r.tools.length > 0) parts.push(`needs ${r.tools.map((t) => itemName(this.host, t)).join(", ")}`);
    for (const c of r.consumables) parts.push(`a ${itemName(this.host, c.itemId)} every ${c.uses}`);
    if (r.coins > 0) parts.push(`${r.coins} coins each`);
    if (r.skill !== null) parts.push(`${r.xp} xp`);
    if (r.successRate < 1) parts.push(`${Math.round(r.successRate * 100)}% success`);
    return parts.join(" · ");
  }

  private render(): void {
    const view = this.view;
    if (view === undefined) return;
    const rows = view.recipes.map((r) => {
      let li = this.list.list.querySelector<HTMLElement>(`:scope > [data-key="${CSS.escape(r.id)}"]`);
      if (li === null) {
        li = document.createElement("div");
        li.className = "make-recipe";
        li.dataset.key = r.id;
        const b = button("", () => this.choose(r.id), "item");
        const info = document.createElement("span");
        info.className = "make-info";
        info.id = `make-${CSS.escape(r.id).replace(/[^\w-]/g, "_")}`;
        b.setAttribute("aria-describedby", info.id);
        li.append(b, info);
      }
      const b = li.querySelector("button")!;
      const info = li.querySelector<HTMLElement>(".make-info")!;
      const name = r.outputQuantity > 1 ? `${r.name} x ${r.outputQuantity}` : r.name;
      if (b.textContent !== name) b.textContent = name;
      b.setAttribute("aria-pressed", String(r.id === this.selected));
      li.classList.toggle("unmakeable", !r.makeable);
      const text = this.describe(r) + (r.makeable ? "" : ` · can't make now: ${r.refusal === null ? "not here" : sentence(r.refusal.message)}`);
      if (info.textContent !== text) info.textContent = text;
      return li;
    });
    this.list.list.replaceChildren(...rows);
    this.list.empty.hidden = rows.length > 0;
    const chosen = view.recipes.find((r) => r.id === this.selected);
    for (const b of this.makeButtons) b.disabled = chosen === undefined || !chosen.makeable || this.running;
    this.stop.hidden = !this.running;
  }

  private choose(id: string): void {
    this.selected = id;
    this.dialog.say("");
    this.render();
  }

  private make(q: 1 | 5 | "X" | "All"): void {
    const id = this.selected;
    if (id === undefined) return;
    let quantity: number | "all";
    if (q === "All") quantity = "all";
    else if (q === "X") {
      const n = Number(this.amount.value);
      if (!Number.isInteger(n) || n < 1 || n > MAKE_MAX_QUANTITY) return this.dialog.say(`Type an amount from 1 to ${MAKE_MAX_QUANTITY} first.`);
      quantity = n;
    } else quantity = q;
    this.dialog.say("");
    this.running = true;
    this.progress.textContent = `${this.recipeName(id)}: starting…`;
    this.render();
    this.host.room.send("skill:make", { recipeId: id, quantity });
  }
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

function sentence(message: string): string {
  const m = message.trim();
  if (m === "") return "That did not work.";
  const s = cap(m);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}
