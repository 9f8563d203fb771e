/**
 * The Bank dialog: opens on `interface:open {type: "bank"}` (after talking to a banker), shows the
 * player's synced bank and inventory, and moves the chosen quantity (1, 5, All, X) with
 * `bank:deposit {slot, quantity}` (an inventory item) and `bank:withdraw {itemId, quantity}` (a
 * bank item); **Deposit inventory** deposits everything the inventory holds, as the genre's bank
 * button does (a `bank:deposit` an item, its whole count). It closes when the player walks out of
 * the bank's reach.
 */
import { SERVICE_RANGE } from "../../../src/game/rules.ts";
import { INVENTORY_SIZE } from "../../../src/game/world/Player.ts";
import { itemLabel } from "../content.ts";
import { button, Dialog, group, QuantityPicker, serviceErrorText, syncButtons } from "./dialog.ts";
import { distanceTo, freeSlots, inventorySlots, me, movable, type DialogHost } from "./host.ts";

export class BankDialog {
  private readonly host: DialogHost;
  private readonly dialog: Dialog;
  private readonly quantity = new QuantityPicker([1, 5, "All", "X"]);
  private readonly bank = group("Withdraw from the bank", "bank-items");
  private readonly inventory = group("Deposit from your inventory", "inventory-items");
  private readonly depositAll: HTMLButtonElement;
  /** The banker whose bank this is (the dialog closes when the player leaves its reach). */
  private npcId: string | undefined;

  constructor(host: DialogHost) {
    this.host = host;
    this.dialog = new Dialog(host.parent, "Bank", () => this.close());
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = "Choose a quantity, then an item: a bank item is withdrawn, an inventory item deposited.";
    this.bank.empty.textContent = "Your bank is empty.";
    this.inventory.empty.textContent = "Your inventory is empty.";
    const lists = document.createElement("div");
    lists.className = "columns";
    lists.append(this.bank.el, this.inventory.el);
    const actions = document.createElement("div");
    actions.className = "dialog-actions";
    this.depositAll = button("Deposit inventory", () => this.depositInventory());
    actions.append(
      this.depositAll,
      button("Close", () => this.close()),
    );
    this.dialog.body.append(hint, this.quantity.el, lists, actions);
  }

  open(npcId: string): void {
    this.npcId = npcId;
    this.dialog.say("");
    this.render();
    this.dialog.show();
  }

  close(): void {
    this.npcId = undefined;
    this.dialog.hide();
  }

  get isOpen(): boolean {
    return this.dialog.isOpen;
  }

  /** A refusal of a deposit or withdrawal, in words. */
  refused(code: string, message: string): void {
    if (this.isOpen) this.dialog.say(serviceErrorText(code, message, "bank"));
  }

  /** After every state patch: the lists follow the synced bank and inventory. */
  render(): void {
    if (this.npcId === undefined) return;
    const p = me(this.host);
    // Walked away (or the banker left the view): the bank closes, as the server would refuse anyway.
    if (p === undefined || (this.dialog.isOpen && distanceTo(this.host, this.npcId) > SERVICE_RANGE)) {
      this.close();
      return;
    }
    const content = this.host.content;
    const bank = [...p.bank].sort((a, b) => a.slot - b.slot);
    syncButtons(
      this.bank.list,
      bank.map((s) => ({ key: s.itemId, text: itemLabel(content, s.itemId, s.quantity), item: { content, itemId: s.itemId } })),
      (itemId) => this.withdraw(itemId),
    );
    this.bank.empty.hidden = bank.length > 0;
    const inv = inventorySlots(p);
    syncButtons(
      this.inventory.list,
      inv.map((s) => ({ key: String(s.slot), text: itemLabel(content, s.itemId, s.quantity), item: { content, itemId: s.itemId } })),
      (slot) => this.deposit(Number(slot)),
    );
    this.inventory.empty.hidden = inv.length > 0;
    this.depositAll.disabled = inv.length === 0;
  }

  /** Everything in the inventory: a stack a deposit, and each other item once with its whole count. */
  private depositInventory(): void {
    const p = me(this.host);
    if (p === undefined) return;
    this.dialog.say("");
    const counted = new Set<string>();
    for (const s of inventorySlots(p)) {
      const stackable = this.host.content.registry.items.get(s.itemId)?.stackable === true;
      if (!stackable && counted.has(s.itemId)) continue;
      counted.add(s.itemId);
      this.host.room.send("bank:deposit", { slot: s.slot, quantity: movable(this.host, p, s) });
    }
  }

  private deposit(slot: number): void {
    const p = me(this.host);
    const s = p?.inventory.find((o) => o.slot === slot);
    if (p === undefined || s === undefined) return;
    const quantity = this.quantity.quantity(movable(this.host, p, s));
    if (typeof quantity === "string") return this.dialog.say(quantity);
    this.dialog.say("");
    this.host.room.send("bank:deposit", { slot, quantity });
  }

  private withdraw(itemId: string): void {
    const p = me(this.host);
    const s = p?.bank.find((o) => o.itemId === itemId);
    if (p === undefined || s === undefined) return;
    // A withdrawal must fit whole: items that do not stack take a free slot each.
    const stackable = this.host.content.registry.items.get(itemId)?.stackable === true;
    const fits = stackable ? s.quantity : Math.max(1, freeSlots(p, INVENTORY_SIZE));
    const quantity = this.quantity.quantity(Math.min(s.quantity, fits));
    if (typeof quantity === "string") return this.dialog.say(quantity);
    this.dialog.say("");
    this.host.room.send("bank:withdraw", { itemId, quantity });
  }
}
