/** The dashboard's small DOM helpers: an element with its properties and children, a button. */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

export function button(text: string, onClick: () => void, className?: string): HTMLButtonElement {
  const b = el("button", { type: "button", textContent: text });
  if (className !== undefined) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}
