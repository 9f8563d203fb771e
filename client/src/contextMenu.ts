/**
 * One context menu at a time, as WAI-ARIA's menu pattern has it: a `role="menu"` list of
 * `menuitem` buttons, the first focused on opening; Up/Down (wrapping), Home/End and a letter move
 * between items, Enter or Space runs one, Escape or Tab closes it and focus goes back where it was.
 * A pointer press outside closes it too. Used for the world's entities and the inventory's slots.
 */

export interface MenuItem {
  /** The item's accessible name and text: `Chop Tree`, `Walk here`. */
  label: string;
  run(): void;
}

export interface MenuOptions {
  /** The menu's accessible name: what it is about (`Tree`, `Bronze hatchet`). */
  label: string;
  /** Where it opens (page pixels); it is kept inside the window. */
  x: number;
  y: number;
  /** Where focus goes when it closes without running an item; default: the focused element. */
  returnFocus?: HTMLElement | null;
}

let open: { el: HTMLElement; returnFocus: HTMLElement | null; onOutside: (ev: PointerEvent) => void } | undefined;

export function isMenuOpen(): boolean {
  return open !== undefined;
}

export function closeMenu(restoreFocus = true): void {
  if (open === undefined) return;
  const { el, returnFocus, onOutside } = open;
  open = undefined;
  document.removeEventListener("pointerdown", onOutside, true);
  el.remove();
  if (restoreFocus && returnFocus?.isConnected) returnFocus.focus();
}

export function openMenu(items: readonly MenuItem[], opts: MenuOptions): HTMLElement {
  closeMenu(false);
  const el = document.createElement("div");
  el.className = "context-menu";
  el.setAttribute("role", "menu");
  el.setAttribute("aria-label", opts.label);
  el.tabIndex = -1;
  const title = document.createElement("div");
  title.className = "context-menu-title";
  title.setAttribute("aria-hidden", "true");
  title.textContent = opts.label;
  el.append(title);

  const buttons = items.map((item) => {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("role", "menuitem");
    b.tabIndex = -1;
    b.textContent = item.label;
    b.addEventListener("click", () => {
      // Closed first: what the item does may open another menu, or move focus itself.
      closeMenu();
      item.run();
    });
    el.append(b);
    return b;
  });

  const focusAt = (i: number) => buttons[(i + buttons.length) % buttons.length]?.focus();
  const current = () => buttons.indexOf(document.activeElement as HTMLButtonElement);
  el.addEventListener("keydown", (ev) => {
    switch (ev.key) {
      case "ArrowDown":
        focusAt(current() + 1);
        break;
      case "ArrowUp":
        focusAt(current() - 1);
        break;
      case "Home":
        focusAt(0);
        break;
      case "End":
        focusAt(buttons.length - 1);
        break;
      case "Escape":
        closeMenu();
        break;
      case "Tab":
        closeMenu();
        break;
      default: {
        // A letter moves to the next item that starts with it; Enter and Space (and anything
        // else) keep their default: a button's click.
        if (ev.key.length !== 1 || ev.key === " " || ev.ctrlKey || ev.metaKey || ev.altKey) return;
        const key = ev.key.toLowerCase();
        const from = current();
        for (let k = 1; k <= buttons.length; k++) {
          const i = (from + k) % buttons.length;
          if (buttons[i]!.textContent.toLowerCase().startsWith(key)) {
            focusAt(i);
            break;
          }
        }
        break;
      }
    }
    ev.preventDefault();
    ev.stopPropagation();
  });

  const onOutside = (ev: PointerEvent) => {
    if (!el.contains(ev.target as Node)) closeMenu(false);
  };
  document.addEventListener("pointerdown", onOutside, true);
  open = { el, returnFocus: opts.returnFocus !== undefined ? opts.returnFocus : (document.activeElement as HTMLElement | null), onOutside };
  document.body.append(el);

  // Inside the window: flipped to the other side of the point where it would overflow.
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  const left = opts.x + w > window.innerWidth ? Math.max(0, opts.x - w) : opts.x;
  const top = opts.y + h > window.innerHeight ? Math.max(0, opts.y - h) : opts.y;
  el.style.left = `${left}px`;
  el.style.top = `${top}px`;
  if (buttons.length > 0) buttons[0]!.focus();
  else el.focus();
  return el;
}
