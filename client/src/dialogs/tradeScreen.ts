/**
 * The Trade dialog's screens (client/src/dialogs/Trade.ts): the elements of each view (a request,
 * the offers, the confirmation, the received items and coins, why it ended), and bringing the open
 * trade's lists, coins, acceptances and values up to date. What a control does is the dialog's
 * (`ScreenActions`).
 */
import { possessive } from "../../../src/game/sentence.ts";
import { itemLabel } from "../content.ts";
import { showItem } from "../art/itemIcon.ts";
import { button, group, syncButtons, type QuantityPicker } from "./dialog.ts";
import { inventorySlots, me, type DialogHost } from "./host.ts";
import { acceptable, offeredFrom, valued, type Offer, type Session, type View } from "./tradeState.ts";
import { coins, offerCoinsText, syncList, valuesText } from "./tradeText.ts";

/** What the dialog's controls do. */
export interface ScreenActions {
  respond(accept: boolean): void;
  stopWaiting(): void;
  close(): void;
  accept(): void;
  cancel(): void;
  offer(inventorySlot: number): void;
  takeBack(tradeSlot: number): void;
  offerCoins(): void;
}

/** The open trade screen's elements that change. */
export interface TradeParts {
  mine: ReturnType<typeof group>;
  theirs: ReturnType<typeof group>;
  /** Each offer's coins, under its items. */
  coins: { mine: HTMLElement; theirs: HTMLElement };
  inventory: ReturnType<typeof group>;
  /** The offer screen's amount of coins, and what the player carries. */
  coinsInput?: HTMLInputElement;
  carried?: HTMLElement;
  status: HTMLElement;
  values?: HTMLElement;
  lead?: HTMLElement;
  accept?: HTMLButtonElement;
}

export class TradeScreens {
  private readonly host: DialogHost;
  private readonly actions: ScreenActions;
  /** The open trade screen's, once built. */
  parts: TradeParts | undefined;

  constructor(host: DialogHost, actions: ScreenActions) {
    this.host = host;
    this.actions = actions;
  }

  /** The view's elements (the open trade's: `s`, offered from with `quantity`). */
  build(view: View, s: Session | undefined, quantity: QuantityPicker): HTMLElement[] {
    const p = (text: string, className?: string) => {
      const el = document.createElement("p");
      el.textContent = text;
      if (className !== undefined) el.className = className;
      return el;
    };
    const actions = (...buttons: HTMLButtonElement[]) => {
      const el = document.createElement("div");
      el.className = "dialog-actions";
      el.append(...buttons);
      return el;
    };
    switch (view.kind) {
      case "closed":
        return [];
      case "incoming":
        return [
          p(`${view.request.fromPlayerName} wants to trade with you.`, "lead"),
          actions(
            button("Accept", () => this.actions.respond(true)),
            button("Decline", () => this.actions.respond(false)),
          ),
        ];
      case "accepting":
        return [p(`Opening the trade with ${view.partnerName}…`, "lead")];
      case "requesting":
        return [
          p(`Asking ${view.partnerName} to trade…`, "lead"),
          p("The request lasts 30 seconds.", "hint"),
          actions(button("Cancel", () => this.actions.stopWaiting())),
        ];
      case "done": {
        const list = document.createElement("ul");
        list.className = "received";
        const lines = view.received.map((r) => ({ text: itemLabel(this.host.content, r.itemId, r.quantity), itemId: r.itemId }));
        if (view.coins > 0) lines.push({ text: coins(view.coins), itemId: "coins" });
        for (const line of lines) {
          const li = document.createElement("li");
          showItem(li, this.host.content, line.itemId, line.text, line.text);
          list.append(li);
        }
        const got = lines.length === 0 ? [p("You received nothing.")] : [p("You received:"), list];
        return [p(`Trade with ${view.partnerName} completed.`, "lead"), ...got, actions(button("Close", () => this.actions.close()))];
      }
      case "ended":
        return [p(view.message, "lead"), actions(button("Close", () => this.actions.close()))];
      case "trade":
        return this.buildTrade(s!, quantity, p, actions);
    }
  }

  private buildTrade(
    s: Session,
    quantity: QuantityPicker,
    p: (text: string, className?: string) => HTMLParagraphElement,
    actions: (...b: HTMLButtonElement[]) => HTMLElement,
  ): HTMLElement[] {
    const confirm = s.screen !== "offer";
    const mine = group(confirm ? "You give" : "Your offer", "offer offer-mine");
    const theirs = group(confirm ? "You receive" : `${possessive(s.partnerName)} offer`, "offer offer-theirs");
    const inventory = group("Offer from your inventory", "inventory-items");
    mine.empty.textContent = "Nothing offered.";
    theirs.empty.textContent = "Nothing offered.";
    inventory.empty.textContent = "Nothing left to offer.";
    const status = p("", "status");
    status.setAttribute("aria-live", "polite");
    const coinLines = { mine: p("", "offer-coins"), theirs: p("", "offer-coins") };
    mine.el.append(coinLines.mine);
    theirs.el.append(coinLines.theirs);
    const offers = document.createElement("div");
    offers.className = "columns";
    offers.append(mine.el, theirs.el);
    const accept = button("Accept", () => this.actions.accept(), "accept");
    const cancel = button("Cancel", () => this.actions.cancel());
    this.parts = { mine, theirs, coins: coinLines, inventory, status, accept };
    if (!confirm) {
      const coinsField = this.buildCoinsField(s, p);
      return [
        p(`Trading with ${s.partnerName}. Choose a quantity, then an item: an inventory item is offered, an offered one taken back.`, "hint"),
        quantity.el,
        offers,
        inventory.el,
        coinsField,
        status,
        actions(accept, cancel),
      ];
    }
    const values = p("", "values");
    this.parts.values = values;
    // Focused when the screen opens (update()): read out first, and Enter on it accepts nothing.
    const lead = p(`Check the trade with ${s.partnerName} once more: accepting now exchanges these items.`, "lead");
    lead.tabIndex = -1;
    this.parts.lead = lead;
    return [lead, offers, values, status, actions(accept, cancel)];
  }

  /** The offer screen's coins: an amount (what the offer carries now) and its button. */
  private buildCoinsField(s: Session, p: (text: string, className?: string) => HTMLParagraphElement): HTMLElement {
    const field = document.createElement("div");
    field.className = "coins-field";
    const label = document.createElement("label");
    label.textContent = "Coins to offer";
    const input = document.createElement("input");
    input.type = "number";
    input.min = "0";
    input.step = "1";
    input.inputMode = "numeric";
    input.value = String(s.mine.coins);
    label.append(input);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") this.actions.offerCoins();
    });
    const carried = p("", "hint");
    field.append(
      label,
      button("Offer coins", () => this.actions.offerCoins()),
      carried,
    );
    this.parts!.coinsInput = input;
    this.parts!.carried = carried;
    return field;
  }

  /** Brings the open trade's lists, acceptances and values up to date. */
  fill(s: Session): void {
    const parts = this.parts;
    if (parts === undefined) return;
    const content = this.host.content;
    const committing = s.screen === "committing";
    const editable = s.screen === "offer";
    const offerRows = (o: Offer) =>
      o.items.map((i) => ({ key: String(i.tradeSlot), text: itemLabel(content, i.itemId, i.quantity), item: { content, itemId: i.itemId } }));
    const lines = (o: Offer) => o.items.map((i) => ({ text: itemLabel(content, i.itemId, i.quantity), item: { content, itemId: i.itemId } }));
    // Your offer's items are pressed to take them back (on the offer screen); the partner's are to read.
    if (editable) syncButtons(parts.mine.list, offerRows(s.mine), (tradeSlot) => this.actions.takeBack(Number(tradeSlot)));
    else syncList(parts.mine.list, lines(s.mine));
    syncList(parts.theirs.list, lines(s.theirs));
    for (const side of ["mine", "theirs"] as const) {
      const text = offerCoinsText(s[side].coins);
      parts.coins[side].textContent = text ?? "";
      parts.coins[side].hidden = text === undefined;
      parts[side].empty.hidden = s[side].items.length > 0 || text !== undefined;
    }
    if (parts.carried !== undefined) parts.carried.textContent = `You carry ${coins(me(this.host)?.coins ?? 0)}.`;
    if (editable) {
      const p = me(this.host);
      const rows =
        p === undefined
          ? []
          : inventorySlots(p).flatMap((slot) => {
              const left = slot.quantity - offeredFrom(s.mine, slot.slot);
              return left > 0 ? [{ key: String(slot.slot), text: itemLabel(content, slot.itemId, left), item: { content, itemId: slot.itemId } }] : [];
            });
      syncButtons(parts.inventory.list, rows, (slot) => this.actions.offer(Number(slot)));
      parts.inventory.empty.hidden = rows.length > 0;
    }
    if (parts.values !== undefined) parts.values.textContent = valuesText(valued(s), s.partnerName);
    const status = committing
      ? "Both accepted: completing the trade…"
      : [
          s.mine.accepted ? "You have accepted." : "You have not accepted yet.",
          s.theirs.accepted ? `${s.partnerName} has accepted.` : `${s.partnerName} has not accepted yet.`,
        ].join(" ") + (s.seat === undefined && !s.seatless ? " Joining the trade…" : "");
    if (parts.status.textContent !== status) parts.status.textContent = status;
    if (parts.accept !== undefined) {
      parts.accept.disabled = !acceptable(s);
      parts.accept.setAttribute("aria-pressed", String(s.mine.accepted));
    }
  }
}
