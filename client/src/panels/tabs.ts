/**
 * Tabs over the side panels (WAI-ARIA tabs pattern): each `role="tab"` button shows its
 * `role="tabpanel"`; Left/Right (wrapping), Home and End move between the tabs and select them.
 */
export function mountTabs(tablist: HTMLElement): { select(name: string): void } {
  const tabs = Array.from(tablist.querySelectorAll<HTMLButtonElement>('[role="tab"]'));
  const select = (tab: HTMLButtonElement, focus: boolean) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute("aria-controls")!)!.hidden = !on;
    }
    if (focus) tab.focus();
  };
  for (const tab of tabs) {
    tab.addEventListener("click", () => select(tab, false));
    tab.addEventListener("keydown", (ev) => {
      const i = tabs.indexOf(tab);
      const to = ({ ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 } as Record<string, number>)[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      select(tabs[(to + tabs.length) % tabs.length]!, true);
    });
  }
  select(tabs.find((t) => t.getAttribute("aria-selected") === "true") ?? tabs[0]!, false);
  return {
    select(name: string) {
      const tab = tabs.find((t) => t.textContent === name);
      if (tab !== undefined) select(tab, false);
    },
  };
}
