/**
 * The Store dialog: opens on `interface:open {type: "store"}` (after talking to a keeper), lists
 * the store's items with the price the next one costs and their stock (`store:buy {storeId,
 * itemId, quantity}`) and the player's inventory with what the store pays for one of each now, or
 * why it will not take it (`store:sell {storeId, slot, quantity}`). Prices move with the stock
 * (src/game/store.ts): the server sends the whole view again as `store:update` whenever it
 * changes, and the dialog shows it as it comes. It closes when the player walks out of the
 * keeper's reach.
 */
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import { SERVICE_RANGE } from "../../../src/game/rules.ts";
import { itemLabel } from "../content.ts";
import { button, Dialog, group, QuantityPicker, serviceErrorText, syncButtons } from "./dialog.ts";
import { distanceTo, inventorySlots, itemName, me, movable, type DialogHost } from "./host.ts";

type StoreOpen = Extract<ServerEvent<"interface:open">, { type: "store" }>;
type StoreUpdate = ServerEvent<"store:update">;

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
    // Titled with the store's name, as the genre's store window is ("Maelis's Runes"); its description below.
    this.dialog.title = store.name;
    this.heading.textContent = def?.description ?? "";
    this.heading.hidden = !def?.description;
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

  /** A newer view of the open store (prices, stock, offers). */
  update(view: StoreUpdate): void {
    if (this.store === undefined || this.store.storeId !== view.storeId) return;
    this.store = { ...this.store, items: view.items, sell: view.sell };
    this.render();
  }

  refused(code: string, message: string): void {
    if (this.isOpen) this.dialog.say(serviceErrorText(code, message, "store"));
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
        const stock = i.stock === null ? "" : `, ${i.stock} in stock`;
        return {
          key: i.itemId,
          text: `${name}: ${coins(i.price)}${stock}`,
          label: `${name}, ${coins(i.price)}${stock}`,
          item: { content: this.host.content, itemId: i.itemId },
        };
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
        // The server's quote: what the store pays for the first one now (less for each further one).
        const offer = store.sell.find((o) => o.itemId === s.itemId);
        const item = { content: this.host.content, itemId: s.itemId };
        return offer === undefined || offer.refusal !== undefined
          ? { key: String(s.slot), text: `${label}: not taken`, label: `${label}, not taken: ${offer?.refusal ?? "no offer yet"}`, item }
          : { key: String(s.slot), text: `${label}: sells for ${coins(offer.price)}`, label: `${label}, sells for ${coins(offer.price)}`, item };
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
