/**
 * The dialogue box: opens on `dialogue:open` (an NPC talked to, an xp lamp used), named by who
 * speaks, with the text and the options as numbered buttons; a click or the option's number key
 * (1–9, while no text field has focus) answers `dialogue:choose {optionId}`. A node without options
 * shows Continue, which closes it; Escape closes it too (`dialogue:close`). The server's
 * `dialogue:close` (walked away, combat, a service opened) closes it.
 */
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import { button, Dialog } from "./dialog.ts";
import type { DialogHost } from "./host.ts";

export class DialogueBox {
  private readonly host: DialogHost;
  private readonly dialog: Dialog;
  private readonly title: HTMLHeadingElement;
  private readonly text = document.createElement("p");
  private readonly options = document.createElement("ol");
  private readonly actions = document.createElement("div");
  private current: ServerEvent<"dialogue:open"> | undefined;
  private readonly onKey = (ev: KeyboardEvent) => this.key(ev);

  constructor(host: DialogHost) {
    this.host = host;
    this.dialog = new Dialog(host.parent, "Dialogue", () => this.leave());
    this.title = this.dialog.el.querySelector("h2")!;
    this.text.className = "dialogue-text";
    this.text.setAttribute("aria-live", "polite");
    this.options.className = "dialogue-options";
    this.options.setAttribute("aria-label", "Your answers");
    this.actions.className = "dialog-actions";
    this.dialog.body.append(this.text, this.options, this.actions);
    document.addEventListener("keydown", this.onKey);
  }

  get isOpen(): boolean {
    return this.dialog.isOpen;
  }

  open(m: ServerEvent<"dialogue:open">): void {
    this.current = m;
    this.title.textContent = m.npcName;
    this.text.textContent = m.text;
    this.options.replaceChildren(
      ...m.options.map((o, i) => {
        const li = document.createElement("li");
        li.append(button(`${i + 1}. ${o.text}`, () => this.choose(o.id)));
        return li;
      }),
    );
    this.options.hidden = m.options.length === 0;
    this.actions.replaceChildren(...(m.options.length === 0 ? [button("Continue", () => this.leave())] : []));
    this.dialog.say("");
    if (this.dialog.isOpen) this.dialog.focusFirst();
    else this.dialog.show();
  }

  /** The server closed it. */
  close(): void {
    this.current = undefined;
    this.dialog.hide();
  }

  /** A refusal of a choice, in words. */
  refused(message: string): void {
    if (this.isOpen) this.dialog.say(message.length > 0 ? `${message[0]!.toUpperCase()}${message.slice(1)}.` : "That cannot be done now.");
  }

  dispose(): void {
    document.removeEventListener("keydown", this.onKey);
  }

  private choose(optionId: string): void {
    this.host.room.send("dialogue:choose", { optionId });
  }

  /** The player closes it. */
  private leave(): void {
    if (this.current !== undefined) this.host.room.send("dialogue:close", {});
    this.close();
  }

  private key(ev: KeyboardEvent): void {
    if (!this.isOpen || this.current === undefined || ev.ctrlKey || ev.altKey || ev.metaKey) return;
    const t = ev.target as HTMLElement | null;
    if (t !== null && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    const n = Number(ev.key);
    const option = Number.isInteger(n) && n >= 1 ? this.current.options[n - 1] : undefined;
    if (option === undefined) return;
    ev.preventDefault();
    this.choose(option.id);
  }
}
