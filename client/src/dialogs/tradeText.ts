/**
 * The Trade dialog's words (client/src/dialogs/Trade.ts): amounts of coins, the confirmation
 * screen's values, why a trade or a request ended, and the read-only lists of offers.
 */
import { possessive } from "../../../src/game/sentence.ts";
import type { CancelReason, Values } from "./tradeState.ts";
import type { Content } from "../content.ts";
import { showItem } from "../art/itemIcon.ts";

/** Keeps a read-only list's items equal to `lines` (each with its item's icon, when it is an item). */
export function syncList(list: HTMLElement, lines: { text: string; item?: { content: Content; itemId: string } }[]): void {
  let ul = list.querySelector("ul");
  if (ul === null) {
    ul = document.createElement("ul");
    list.append(ul);
  }
  const same = ul.children.length === lines.length && lines.every((l, i) => ul.children[i]!.textContent === l.text);
  if (same) return;
  ul.replaceChildren(
    ...lines.map((l) => {
      const li = document.createElement("li");
      if (l.item !== undefined) showItem(li, l.item.content, l.item.itemId, l.text, l.text);
      else li.textContent = l.text;
      return li;
    }),
  );
}

export const coins = (n: number) => `${n.toLocaleString("en")} ${Math.abs(n) === 1 ? "coin" : "coins"}`;

export function valuesText(values: Values | undefined, partner: string): string {
  if (values === undefined) return "Valuing the offers…";
  const net =
    values.net > 0 ? `you would gain ${coins(values.net)} of value` : values.net < 0 ? `you would lose ${coins(-values.net)} of value` : "an even trade";
  return `Your offer is worth ${coins(values.myOfferValue)} and ${possessive(partner)} ${coins(values.theirOfferValue)}: ${net}.`;
}

/** Why a trade or a request ended, in words. */
export function cancelText(reason: CancelReason, partner: string, what: "trade" | "my request" | "their request"): string {
  switch (reason) {
    case "declined":
      return `${partner} declined your trade request.`;
    case "cancelled":
      return what === "trade" ? `${partner} cancelled the trade.` : "The trade request was withdrawn.";
    case "disconnected":
      return `${partner} left the world, so the ${what === "trade" ? "trade" : "request"} ended.`;
    case "moved_away":
      return `You and ${partner} moved too far apart, so the ${what === "trade" ? "trade was cancelled" : "trade could not start"}.`;
    case "timeout":
      if (what === "trade") return "The trade was cancelled: nothing changed in it for too long.";
      return what === "my request" ? `${partner} did not answer your trade request in time.` : `${possessive(partner)} trade request expired.`;
    case "died":
      return "The trade was cancelled because one of you died.";
    case "server_error":
      return "The server could not complete the trade; nothing was exchanged.";
  }
}

/** An offer's coins as a line of its list (none: no line). */
export function offerCoinsText(n: number): string | undefined {
  return n > 0 ? coins(n) : undefined;
}
