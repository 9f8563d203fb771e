/**
 * What the Bank, Store and Trade dialogs share: a non-modal `<dialog>` over the world view, named
 * by its heading (the names the issue fixes: Bank, Store, Trade), keyboard usable (focus moves in
 * on opening and back out on closing, Escape closes); lists of item buttons kept across updates
 * (so the focused one stays focused while the synced state changes under it); the quantity
 * choice (1, 5, All, X); and the server's refusal codes in words.
 */
import { sentence } from "../../../src/game/sentence.ts";
import { SERVICE_RANGE } from "../../../src/game/rules.ts";
import { TRADE_RANGE } from "../../../src/game/trade/Trades.ts";
import { MAX_STACK } from "../../../src/game/inventory.ts";
import { showItem, showText } from "../art/itemIcon.ts";
import type { Content } from "../content.ts";

let dialogCount = 0;

export class Dialog {
  readonly el: HTMLDialogElement;
  /** The dialog's content below its heading. */
  readonly body: HTMLDivElement;
  /** Refusals and other news, read out by screen readers as they appear. */
  readonly notice: HTMLParagraphElement;
  private returnFocus: HTMLElement | undefined;

  constructor(parent: HTMLElement, name: string, onEscape: () => void) {
    const id = `dialog-${++dialogCount}`;
    this.el = document.createElement("dialog");
    this.el.className = `game-dialog game-dialog-${name.toLowerCase()}`;
    this.el.setAttribute("aria-labelledby", `${id}-title`);
    const title = document.createElement("h2");
    title.id = `${id}-title`;
    title.textContent = name;
    this.body = document.createElement("div");
    this.body.className = "dialog-body";
    this.notice = document.createElement("p");
    this.notice.className = "dialog-notice";
    this.notice.setAttribute("role", "alert");
    this.el.append(title, this.body, this.notice);
    this.el.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape") return;
      ev.preventDefault();
      ev.stopPropagation();
      onEscape();
    });
    parent.append(this.el);
  }

  get isOpen(): boolean {
    return this.el.open;
  }

  /** Its heading, and so its accessible name (a store's dialog is titled with the store's name). */
  set title(text: string) {
    this.el.querySelector("h2")!.textContent = text;
  }

  /** Opens the dialog (if closed) and moves focus into it. */
  show(): void {
    if (this.el.open) return;
    const active = document.activeElement;
    this.returnFocus = active instanceof HTMLElement && active !== document.body ? active : undefined;
    this.el.show();
    this.focusFirst();
  }

  /** Closes it and gives focus back to where it was before opening. */
  hide(): void {
    if (!this.el.open) return;
    const hadFocus = this.el.contains(document.activeElement);
    this.el.close();
    this.say("");
    if (hadFocus && this.returnFocus?.isConnected) this.returnFocus.focus();
    this.returnFocus = undefined;
  }

  focusFirst(): void {
    const first = this.el.querySelector<HTMLElement>("button:not([disabled]), input:not([disabled])");
    (first ?? this.el).focus();
  }

  say(text: string): void {
    if (this.notice.textContent !== text) this.notice.textContent = text;
  }
}

export function button(text: string, onClick: () => void, className?: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (className !== undefined) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

/** A titled part of a dialog: a `group` named by its heading, holding a list. */
export function group(title: string, className?: string): { el: HTMLElement; title: HTMLHeadingElement; list: HTMLDivElement; empty: HTMLParagraphElement } {
  const id = `group-${++dialogCount}`;
  const el = document.createElement("section");
  el.setAttribute("role", "group");
  el.setAttribute("aria-labelledby", id);
  if (className !== undefined) el.className = className;
  const h = document.createElement("h3");
  h.id = id;
  h.textContent = title;
  const list = document.createElement("div");
  list.className = "item-list";
  const empty = document.createElement("p");
  empty.className = "empty-note";
  el.append(h, list, empty);
  return { el, title: h, list, empty };
}

export interface ItemRow {
  /** Stable across updates: the same key keeps the same button (and its focus). */
  key: string;
  /** Visible text. */
  text: string;
  /** The accessible name, when it should say more than the text (a price). */
  label?: string;
  disabled?: boolean;
  /** The item the row is about: its icon (named by `label`, else `text`) comes before the text. */
  item?: { content: Content; itemId: string };
}

/**
 * Makes `list` hold one button per row, in order, reusing the buttons of keys it already has. A
 * focused button that goes away hands focus to its neighbour, so the keyboard user stays in the list.
 */
export function syncButtons(list: HTMLElement, rows: readonly ItemRow[], onClick: (key: string) => void): void {
  const existing = new Map<string, HTMLButtonElement>();
  for (const b of Array.from(list.querySelectorAll<HTMLButtonElement>(":scope > button"))) existing.set(b.dataset.key!, b);
  const focused =
    document.activeElement instanceof HTMLButtonElement && existing.get(document.activeElement.dataset.key ?? "") === document.activeElement
      ? document.activeElement
      : undefined;
  const focusedIndex = focused === undefined ? -1 : Array.from(list.children).indexOf(focused);
  const wanted = rows.map((row) => {
    let b = existing.get(row.key);
    existing.delete(row.key);
    if (b === undefined) {
      b = button("", () => onClick(row.key), "item");
      b.dataset.key = row.key;
    }
    if (row.item !== undefined) {
      // The icon names the button (the label, else the text), as the label did.
      showItem(b, row.item.content, row.item.itemId, row.label ?? row.text, row.text);
      b.removeAttribute("aria-label");
    } else {
      showText(b, row.text);
      if (row.label !== undefined) b.setAttribute("aria-label", row.label);
      else b.removeAttribute("aria-label");
    }
    b.disabled = row.disabled === true;
    return b;
  });
  for (const b of existing.values()) b.remove();
  wanted.forEach((b, i) => {
    if (list.children[i] !== b) list.insertBefore(b, list.children[i] ?? null);
  });
  if (focused !== undefined && !focused.isConnected) {
    const next = wanted[Math.min(focusedIndex, wanted.length - 1)];
    (next ?? list.closest("dialog"))?.focus();
  }
}

/** How many of something a click moves: a fixed number, all there is, or an amount typed in (X). */
export type QuantityChoice = number | "All" | "X";

/** A radio group "Quantity" (1, 5, All, X), and the amount field X shows. */
export class QuantityPicker {
  readonly el: HTMLFieldSetElement;
  private readonly amount: HTMLInputElement;
  private readonly radios: { choice: QuantityChoice; input: HTMLInputElement }[] = [];

  constructor(choices: readonly QuantityChoice[]) {
    const name = `quantity-${++dialogCount}`;
    this.el = document.createElement("fieldset");
    this.el.className = "quantity";
    const legend = document.createElement("legend");
    legend.textContent = "Quantity";
    this.el.append(legend);
    for (const choice of choices) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = name;
      input.value = String(choice);
      input.checked = this.radios.length === 0;
      input.addEventListener("change", () => this.showAmount());
      label.append(input, ` ${choice}`);
      this.el.append(label);
      this.radios.push({ choice, input });
    }
    const amountLabel = document.createElement("label");
    amountLabel.className = "amount";
    this.amount = document.createElement("input");
    this.amount.type = "number";
    this.amount.min = "1";
    this.amount.max = String(MAX_STACK);
    this.amount.step = "1";
    this.amount.inputMode = "numeric";
    amountLabel.append("Amount ", this.amount);
    this.el.append(amountLabel);
    this.showAmount();
  }

  private showAmount(): void {
    const x = this.selected() === "X";
    (this.amount.parentElement as HTMLElement).hidden = !x;
    this.amount.disabled = !x;
  }

  private selected(): QuantityChoice {
    return this.radios.find((r) => r.input.checked)?.choice ?? 1;
  }

  /**
   * The quantity to send, at most `available` (All: exactly that); a string saying what is wrong
   * when X holds no whole number of at least 1.
   */
  quantity(available: number): number | string {
    const choice = this.selected();
    let wanted: number;
    if (choice === "All") wanted = available;
    else if (choice === "X") {
      wanted = Number(this.amount.value);
      if (!Number.isInteger(wanted) || wanted < 1) return "Type an amount of at least 1 first.";
    } else wanted = choice;
    return Math.max(1, Math.min(wanted, available, MAX_STACK));
  }
}

/** A `tradeError` in words. */
export function tradeErrorText(code: string, message: string): string {
  switch (code) {
    case "PLAYER_BUSY":
      return "That player is busy trading with someone else.";
    case "TOO_FAR":
      return `You need to be within ${TRADE_RANGE} tiles of that player to trade.`;
    case "INVENTORY_FULL":
      return "One of you has too little free inventory space for this trade, so nothing was exchanged.";
    case "STACK_OVERFLOW":
      return "A stack would grow past the most one slot can hold, so nothing was exchanged.";
    case "NOT_ENOUGH_COINS":
      return "You do not carry that many coins.";
    case "ITEMS_CHANGED":
      return "The offered items are no longer in the inventory they were offered from; check the offers again.";
    case "PLAYER_OFFLINE":
      return "That player is not in the world any more.";
    case "SELF_TRADE":
      return "You can't trade with yourself.";
    case "ALREADY_IN_TRADE":
      return "You are already trading.";
    case "NOT_IN_TRADE":
      return "You are not in that trade any more.";
    case "UNTRADEABLE_ITEM":
      return "That item cannot be traded.";
    case "INVALID_SLOT":
      return "That inventory slot is empty, or that offer is gone.";
    case "INVALID_QUANTITY":
      return "There are not that many to offer or take back.";
    case "INVALID_ITEM":
      return "That item does not exist.";
    case "RATE_LIMITED":
      return "Too many trade commands at once: wait a moment and try again.";
    case "SESSION_REPLACED":
      return "This trade window belongs to an older login of your character.";
    case "INVALID_TRADE":
    default:
      return sentence(message);
  }
}

/** A refusal of a bank or store command in words. */
export function serviceErrorText(code: string, message: string, place: "bank" | "store"): string {
  switch (code) {
    case "TOO_FAR":
      return place === "bank"
        ? `You need to be within ${SERVICE_RANGE} tiles of a bank.`
        : `You need to be within ${SERVICE_RANGE} tiles of the store's keeper.`;
    case "PLAYER_BUSY":
      return "Finish or cancel your trade first.";
    case "INVENTORY_FULL":
      return "Your inventory is full.";
    case "STACK_OVERFLOW":
      return "You can't hold that many of it.";
    case "ITEM_NOT_FOUND":
      return place === "bank" ? "There are not that many of it." : "You don't have that item.";
    case "INVALID_QUANTITY":
      return "There are not that many of it.";
    case "INVALID_SLOT":
      return "That inventory slot is empty.";
    case "NOT_ENOUGH_COINS":
      return "You don't have enough coins.";
    case "OUT_OF_STOCK":
      return "The store does not have that many in stock.";
    case "NOT_BUYING":
      return "This store does not buy items.";
    case "UNTRADEABLE_ITEM":
      return "The store will not take that item.";
    case "RATE_LIMITED":
      return "Too many commands at once: wait a moment and try again.";
    default:
      return sentence(message);
  }
}
