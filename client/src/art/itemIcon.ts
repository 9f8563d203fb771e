/**
 * Item icons in the panels and dialogs (HTML): an `img` role named by the item (`Bread`, `Logs x
 * 3`, or a longer name the caller gives), drawn as the game-icons path in the item's colour, or
 * the first letter of its name on a coloured tile for an item the art does not know. An item
 * button holds the icon (which names the button) and its visible text (hidden from assistive
 * technology, which has the icon's name), so the button's accessible name stays the item's.
 */
import type { Content } from "../content.ts";
import { GAME_ICONS } from "./gameIcons.generated.ts";
import { itemLook, type ItemLook } from "./itemArt.ts";

const SVG = "http://www.w3.org/2000/svg";

/** The look of an item of the content (cached by id: the content does not change in a session). */
const looks = new WeakMap<Content, Map<string, ItemLook>>();
export function lookOf(content: Content, itemId: string): ItemLook {
  let m = looks.get(content);
  if (m === undefined) looks.set(content, (m = new Map<string, ItemLook>()));
  let look = m.get(itemId);
  if (look === undefined) m.set(itemId, (look = itemLook(itemId, content.registry.items.get(itemId))));
  return look;
}

/** The icon element (`role=img`, named `label`); `data-icon` says which icon ("" for the letter tile). */
export function itemIcon(look: ItemLook, label: string): HTMLSpanElement {
  const el = document.createElement("span");
  el.className = "item-icon";
  el.setAttribute("role", "img");
  drawIcon(el, look, label);
  return el;
}

function drawIcon(el: HTMLElement, look: ItemLook, label: string): void {
  el.setAttribute("aria-label", label);
  const key = `${look.icon ?? ""}|${look.color}|${look.letter}`;
  if (el.dataset.look === key) return;
  el.dataset.look = key;
  el.dataset.icon = look.icon ?? "";
  el.replaceChildren();
  if (look.icon === undefined) {
    // The letter is drawn by CSS (::before, from data-letter): the element's text stays empty.
    el.classList.add("letter");
    el.dataset.letter = look.letter;
    el.style.background = look.color;
    el.style.color = "";
    return;
  }
  el.classList.remove("letter");
  el.style.background = "";
  el.style.color = look.color;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 512 512");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of GAME_ICONS[look.icon] ?? []) {
    const p = document.createElementNS(SVG, "path");
    p.setAttribute("d", d);
    svg.append(p);
  }
  el.append(svg);
}

/**
 * Makes `el` (a button, a list item) show an item: its icon named `label` (the item's name, or
 * more), and `text` beside it for the eye only. Nothing changes when it shows that already.
 */
export function showItem(el: HTMLElement, content: Content, itemId: string, label: string, text: string): void {
  let icon = el.querySelector<HTMLSpanElement>(":scope > .item-icon");
  let caption = el.querySelector<HTMLSpanElement>(":scope > .item-text");
  if (icon === null || caption === null) {
    el.replaceChildren();
    icon = itemIcon(lookOf(content, itemId), label);
    caption = document.createElement("span");
    caption.className = "item-text";
    caption.setAttribute("aria-hidden", "true");
    el.append(icon, caption);
  } else drawIcon(icon, lookOf(content, itemId), label);
  if (caption.textContent !== text) caption.textContent = text;
  el.dataset.item = itemId;
}

/** Makes `el` plain text again (an empty slot, a row without an item). */
export function showText(el: HTMLElement, text: string): void {
  if (el.querySelector(":scope > .item-icon") !== null) el.replaceChildren();
  if (el.textContent !== text) el.textContent = text;
  delete el.dataset.item;
}
