/**
 * The Inventory panel: 28 slot buttons, each named by what it holds (`Bronze hatchet`, `Logs x 3`,
 * `Empty`), kept across updates so that keyboard focus stays, and the coins beside them. A left
 * click eats, buries or equips at once (the genre's top action); otherwise, and on Enter or a
 * secondary click, a slot opens its menu: Eat / Equip / Bury / Use (what
 * `inventory:use` does with it alone), Use on… (another item, raw food a fire or a range nearby), Make with… (the Make dialog), Light
 * (logs), Drop, Drop all, Examine.
 */
import type { PlayerState } from "../../../schema/WorldState.ts";
import { INVENTORY_SIZE } from "../../../src/game/world/Player.ts";
import { openMenu, type MenuItem } from "../contextMenu.ts";
import { itemLabel, type Content } from "../content.ts";
import type { Send } from "../worldMenu.ts";
import { showItem, showText } from "../art/itemIcon.ts";
import { makeWith } from "../dialogs/index.ts";
import { makesWith } from "../dialogs/Make.ts";

/** Something an item can be used on besides another slot (a fire, a range). */
export interface UseTarget {
  id: string;
  label: string;
}

export interface InventoryHost {
  content: Content;
  send: Send;
  /** Objects nearby that an item could be used on. */
  useTargets(): UseTarget[];
}

/** A stack's size as the genre shows it on the icon: 25, 1500, 150K, 10M. */
export function quantityText(n: number): string {
  return n >= 10_000_000 ? `${Math.floor(n / 1_000_000)}M` : n >= 100_000 ? `${Math.floor(n / 1_000)}K` : String(n);
}

interface Slot {
  itemId: string;
  quantity: number;
}

export class InventoryPanel {
  private readonly box: HTMLElement;
  private readonly coins: HTMLElement;
  private readonly host: InventoryHost;
  private slots: (Slot | undefined)[] = [];

  constructor(host: InventoryHost) {
    this.host = host;
    this.box = document.getElementById("inventory-slots")!;
    this.coins = document.getElementById("coins")!;
    this.box.replaceChildren();
    for (let i = 0; i < INVENTORY_SIZE; i++) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "slot empty";
      b.dataset.slot = String(i);
      b.setAttribute("aria-label", "Empty");
      b.setAttribute("aria-haspopup", "menu");
      const open = (ev: MouseEvent) => {
        ev.preventDefault();
        this.openSlotMenu(i, b);
      };
      // A pointer's left click does the top action where there is one (Eat, Bury, Equip), as the
      // genre's does: eating in a fight is one click. The keyboard's Enter or Space (a click of
      // detail 0) and a right click open the menu.
      b.addEventListener("click", (ev) => {
        const top = ev.detail > 0 ? this.topAction(i) : undefined;
        if (top === undefined) return open(ev);
        ev.preventDefault();
        top();
      });
      b.addEventListener("contextmenu", open);
      this.box.append(b);
    }
  }

  /** Relabels the slots from the synced state (only those that changed). */
  render(p: PlayerState): void {
    const slots = new Array<Slot | undefined>(INVENTORY_SIZE).fill(undefined);
    for (const s of p.inventory) if (s.slot < INVENTORY_SIZE) slots[s.slot] = { itemId: s.itemId, quantity: s.quantity };
    this.slots = slots;
    for (let i = 0; i < INVENTORY_SIZE; i++) {
      const b = this.box.children[i] as HTMLButtonElement;
      const s = slots[i];
      // An item's icon names the slot (`Logs x 3`); the eye sees the icon and the quantity, and
      // the pointer's tooltip the name. An empty slot is named Empty and shows nothing.
      if (s === undefined) {
        showText(b, "");
        b.setAttribute("aria-label", "Empty");
        b.removeAttribute("title");
      } else {
        const label = itemLabel(this.host.content, s.itemId, s.quantity);
        showItem(b, this.host.content, s.itemId, label, s.quantity > 1 ? quantityText(s.quantity) : "");
        b.removeAttribute("aria-label");
        if (b.title !== label) b.title = label;
      }
      b.classList.toggle("empty", s === undefined);
      b.setAttribute("aria-disabled", String(s === undefined));
    }
    const coins = `Coins: ${p.coins}`;
    if (this.coins.textContent !== coins) this.coins.textContent = coins;
  }

  private name(s: Slot): string {
    return this.host.content.registry.items.get(s.itemId)?.name ?? s.itemId;
  }

  private openSlotMenu(slot: number, button: HTMLElement): void {
    const s = this.slots[slot];
    if (s === undefined) return;
    const r = button.getBoundingClientRect();
    openMenu(this.slotOptions(slot, s), {
      label: itemLabel(this.host.content, s.itemId, s.quantity),
      x: r.left + window.scrollX,
      y: r.bottom + window.scrollY,
      returnFocus: button,
    });
  }

  /** The verb of what `inventory:use` does with an item alone: Eat, Bury, Equip, or Use. */
  private verb(s: Slot): string {
    const item = this.host.content.registry.items.get(s.itemId);
    return item?.healAmount !== undefined && item.healAmount > 0
      ? "Eat"
      : item?.prayerXp !== undefined && item.prayerXp > 0
        ? "Bury"
        : item?.equipSlot !== undefined
          ? "Equip"
          : "Use";
  }

  /** A left click's action on a slot: its top action if it eats, buries or equips; else none (the menu). */
  private topAction(slot: number): (() => void) | undefined {
    const s = this.slots[slot];
    if (s === undefined || this.verb(s) === "Use") return undefined;
    return () => this.host.send("inventory:use", { slot });
  }

  slotOptions(slot: number, s: Slot): MenuItem[] {
    const { content, send } = this.host;
    const name = this.name(s);
    const out: MenuItem[] = [{ label: `${this.verb(s)} ${name}`, run: () => send("inventory:use", { slot }) }];
    out.push({ label: `Use ${name} on…`, run: () => this.openUseOn(slot, s) });
    if (makesWith(this.host, s.itemId)) out.push({ label: `Make with ${name}…`, run: () => makeWith(s.itemId) });
    if (content.registry.recipes.firemaking.some((r) => r.log === s.itemId)) {
      out.push({ label: `Light ${name}`, run: () => send("player:action", { action: "light", slot }) });
    }
    out.push({ label: `Drop ${name}`, run: () => send("player:action", { action: "drop", slot }) });
    if (this.slots.filter((o) => o?.itemId === s.itemId).length > 1) {
      out.push({ label: `Drop all ${name}`, run: () => send("player:action", { action: "dropAll", targetId: s.itemId }) });
    }
    out.push({ label: `Examine ${name}`, run: () => send("player:action", { action: "examine", targetId: s.itemId }) });
    return out;
  }

  /**
   * The second menu of Use on…, short, what has a use first: the fires and ranges nearby for raw
   * food (none for anything else: nothing happens), then the items some recipe uses with this one
   * (a tinderbox on logs), then the other items; an item once (its first slot), and never this one.
   */
  private openUseOn(slot: number, s: Slot): void {
    const { content } = this.host;
    const name = this.name(s);
    const cookable = content.registry.recipes.cooking.some((r) => r.raw === s.itemId);
    const targets: MenuItem[] = cookable
      ? this.host.useTargets().map((t) => ({ label: t.label, run: () => this.host.send("inventory:use", { slot, targetId: t.id }) }))
      : [];
    const seen = new Set([s.itemId]);
    const others: { slot: number; itemId: string }[] = [];
    this.slots.forEach((o, i) => {
      if (o === undefined || seen.has(o.itemId)) return;
      seen.add(o.itemId);
      others.push({ slot: i, itemId: o.itemId });
    });
    const paired = usedWith(content, s.itemId);
    const useful = (o: { itemId: string }) => (paired.has(o.itemId) ? 0 : 1);
    for (const o of others.sort((a, b) => useful(a) - useful(b) || a.slot - b.slot)) {
      targets.push({ label: this.name({ ...o, quantity: 1 }), run: () => this.host.send("inventory:use", { slot, targetSlot: o.slot }) });
    }
    const button = this.box.children[slot] as HTMLElement;
    const r = button.getBoundingClientRect();
    openMenu(targets, { label: `Use ${name} on`, x: r.left + window.scrollX, y: r.bottom + window.scrollY, returnFocus: button });
  }
}

/** The items some recipe (made anywhere) takes together with `itemId`: a tinderbox with logs, a knife with logs. */
function usedWith(content: Content, itemId: string): Set<string> {
  const out = new Set<string>();
  for (const r of content.registry.production.values()) {
    if (r.station !== null) continue;
    const ids = [...r.inputs.map((i) => i.itemId), ...r.tools, ...r.consumables.map((c) => c.itemId)];
    if (ids.includes(itemId)) for (const id of ids) if (id !== itemId) out.add(id);
  }
  return out;
}
