/**
 * The Store dialog: opens on `interface:open {type: "store"}` (after talking to a keeper), lists
 * the store's items with their prices (`store:buy {storeId, itemId, quantity}`) and the player's
 * inventory with what the store pays for each (`store:sell {storeId, slot, quantity}`: the item's
 * value times the store's buyback rate, the server's rule in src/game/store.ts). It closes when the
 * player walks out of the keeper's reach.
 */
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import { SERVICE_RANGE } from "../../../src/game/rules.ts";
import { itemLabel } from "../content.ts";
import { button, Dialog, group, QuantityPicker, serviceErrorText, syncButtons } from "./dialog.ts";
import { distanceTo, inventorySlots, itemName, me, movable, type DialogHost } from "./host.ts";

type StoreOpen = Extract<ServerEvent<"interface:open">, { type: "store" }>;

const coins = (n: number) => (n === 1 ? "1 coin" : `${n} coins`);

export class StoreDialog {
  private readonly host: DialogHost;
  private readonly dialog: Dialog;
  private readonly heading = document.createElement("p");
  private readonly purse = document.createElement("p");
  private readonly quantity = new QuantityPicker([1, 5, 10, "X"]);
  private readonly buy = group("Buy", "store-items");
  private readonly sell = group("Sell", "inventory-items");
  private store: StoreOpen | undefined;

  constructor(host: DialogHost) {
    this.host = host;
    this.dialog = new Dialog(host.parent, "Store", () => this.close());
    this.heading.className = "store-name";
    this.purse.className = "purse";
    this.buy.empty.textContent = "Nothing for sale.";
    this.sell.empty.textContent = "Your inventory is empty.";
    const lists = document.createElement("div");
    lists.className = "columns";
    lists.append(this.buy.el, this.sell.el);
    const actions = document.createElement("div");
    actions.className = "dialog-actions";
    actions.append(button("Close", () => this.close()));
    this.dialog.body.append(this.heading, this.purse, this.quantity.el, lists, actions);
  }

  open(store: StoreOpen): void {
    this.store = store;
    const def = this.host.content.registry.stores.get(store.storeId);
    this.heading.textContent = def?.description ? `${store.name}: ${def.description}` : store.name;
    this.dialog.say("");
    this.render();
    this.dialog.show();
  }

  close(): void {
    this.store = undefined;
    this.dialog.hide();
  }

  get isOpen(): boolean {
    return this.dialog.isOpen;
  }

  refused(code: string, message: string): void {
    if (this.isOpen) this.dialog.say(serviceErrorText(code, message, "store"));
  }

  /** What the store pays for one of an item, or undefined when it does not buy it. */
  private pays(itemId: string): number | undefined {
    const def = this.store && this.host.content.registry.stores.get(this.store.storeId);
    const item = this.host.content.registry.items.get(itemId);
    if (def === undefined || !def.buyback || item === undefined || !item.tradeable) return undefined;
    return Math.floor(item.value * def.buybackRate);
  }

  render(): void {
    const store = this.store;
    if (store === undefined) return;
    const p = me(this.host);
    if (p === undefined || (this.dialog.isOpen && distanceTo(this.host, store.npcId) > SERVICE_RANGE)) {
      this.close();
      return;
    }
    const purse = `You have ${coins(p.coins)}.`;
    if (this.purse.textContent !== purse) this.purse.textContent = purse;
    syncButtons(
      this.buy.list,
      store.items.map((i) => {
        const name = itemName(this.host, i.itemId);
        return { key: i.itemId, text: `${name}: ${coins(i.price)}`, label: `${name}, ${coins(i.price)}` };
      }),
      (itemId) => this.buyItem(itemId),
    );
    this.buy.empty.hidden = store.items.length > 0;
    const def = this.host.content.registry.stores.get(store.storeId);
    const buys = def?.buyback === true;
    const inv = buys ? inventorySlots(p) : [];
    syncButtons(
      this.sell.list,
      inv.map((s) => {
        const label = itemLabel(this.host.content, s.itemId, s.quantity);
        const pay = this.pays(s.itemId);
        return pay === undefined
          ? { key: String(s.slot), text: `${label}: not taken`, label: `${label}, not taken`, disabled: true }
          : { key: String(s.slot), text: `${label}: ${coins(pay)} each`, label: `${label}, ${coins(pay)} each` };
      }),
      (slot) => this.sellSlot(Number(slot)),
    );
    this.sell.empty.textContent = buys ? "Your inventory is empty." : "This store does not buy items.";
    this.sell.empty.hidden = inv.length > 0;
  }

  private buyItem(itemId: string): void {
    const store = this.store;
    if (store === undefined) return;
    const quantity = this.quantity.quantity(Number.MAX_SAFE_INTEGER);
    if (typeof quantity === "string") return this.dialog.say(quantity);
    this.dialog.say("");
    this.host.room.send("store:buy", { storeId: store.storeId, itemId, quantity });
  }

  private sellSlot(slot: number): void {
    const store = this.store;
    const p = me(this.host);
    const s = p?.inventory.find((o) => o.slot === slot);
    if (store === undefined || p === undefined || s === undefined) return;
    const quantity = this.quantity.quantity(movable(this.host, p, s));
    if (typeof quantity === "string") return this.dialog.say(quantity);
    this.dialog.say("");
    this.host.room.send("store:sell", { storeId: store.storeId, slot, quantity });
  }
}
