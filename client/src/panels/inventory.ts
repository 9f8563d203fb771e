/**
 * The Inventory panel: 28 slot buttons, each named by what it holds (`Bronze Hatchet`, `Logs x 3`,
 * `Empty`), kept across updates so that keyboard focus stays, and the coins beside them. A slot
 * opens its menu (click, Enter, or a secondary click): Eat / Equip / Bury / Use (what
 * `inventory:use` does with it alone), Use on… (another slot, a fire or a range nearby), Light
 * (logs), Drop, Drop all, Examine.
 */
import type { PlayerState } from "../../../schema/WorldState.ts";
import { INVENTORY_SIZE } from "../../../src/game/world/Player.ts";
import { openMenu, type MenuItem } from "../contextMenu.ts";
import { itemLabel, type Content } from "../content.ts";
import type { Send } from "../worldMenu.ts";

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
      b.textContent = "Empty";
      b.setAttribute("aria-haspopup", "menu");
      const open = (ev: MouseEvent) => {
        ev.preventDefault();
        this.openSlotMenu(i, b);
      };
      b.addEventListener("click", open);
      b.addEventListener("contextmenu", open);
      this.box.append(b);
    }
  }

  /** Relabels the slots from the synced state (only those that changed). */
  render(p: PlayerState): void {
    const slots: (Slot | undefined)[] = new Array(INVENTORY_SIZE).fill(undefined);
    for (const s of p.inventory) if (s.slot < INVENTORY_SIZE) slots[s.slot] = { itemId: s.itemId, quantity: s.quantity };
    this.slots = slots;
    for (let i = 0; i < INVENTORY_SIZE; i++) {
      const b = this.box.children[i] as HTMLButtonElement;
      const s = slots[i];
      const label = s === undefined ? "Empty" : itemLabel(this.host.content, s.itemId, s.quantity);
      if (b.textContent !== label) b.textContent = label;
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
    openMenu(this.slotOptions(slot, s), { label: itemLabel(this.host.content, s.itemId, s.quantity), x: r.left + window.scrollX, y: r.bottom + window.scrollY, returnFocus: button });
  }

  slotOptions(slot: number, s: Slot): MenuItem[] {
    const { content, send } = this.host;
    const item = content.registry.items.get(s.itemId);
    const name = this.name(s);
    const verb = item?.healAmount !== undefined && item.healAmount > 0 ? "Eat" : item?.prayerXp !== undefined && item.prayerXp > 0 ? "Bury" : item?.equipSlot !== undefined ? "Equip" : "Use";
    const out: MenuItem[] = [{ label: `${verb} ${name}`, run: () => send("inventory:use", { slot }) }];
    out.push({ label: `Use ${name} on…`, run: () => this.openUseOn(slot, s) });
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

  /** The second menu of Use on…: the other slots, then the objects nearby. */
  private openUseOn(slot: number, s: Slot): void {
    const name = this.name(s);
    const targets: MenuItem[] = [];
    this.slots.forEach((o, i) => {
      if (o === undefined || i === slot) return;
      targets.push({ label: `${itemLabel(this.host.content, o.itemId, o.quantity)} (slot ${i + 1})`, run: () => this.host.send("inventory:use", { slot, targetSlot: i }) });
    });
    for (const t of this.host.useTargets()) targets.push({ label: t.label, run: () => this.host.send("inventory:use", { slot, targetId: t.id }) });
    const button = this.box.children[slot] as HTMLElement;
    const r = button.getBoundingClientRect();
    openMenu(targets, { label: `Use ${name} on`, x: r.left + window.scrollX, y: r.bottom + window.scrollY, returnFocus: button });
  }
}
