/**
 * The Friends panel: your friends (online, and in which world, or offline) with Message and Remove,
 * friend requests received (Accept, Decline) and sent (Withdraw), your ignore list (Unignore), and
 * forms to add a friend and to ignore a player: the server's `social:` events (docs/gameplay.md,
 * "Friends, ignore lists and private messages"). Private messages go to the chat log ("From Ann:
 * …", "To Ann: …"); a friend's Message button starts a `/msg` in the chat box.
 */
import { sentence } from "../../../src/game/sentence.ts";
import type { WorldRoom } from "../gameRooms.ts";
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import type { Send } from "../worldMenu.ts";
import { chatLine, startPrivate } from "./chat.ts";

type List = ServerEvent<"social:list">;
type Friend = List["friends"][number];

/** What a change in the list says, in the recipient's words. */
const CHANGE_TEXT: Record<NonNullable<List["change"]>["kind"], (name: string) => string> = {
  requestSent: (n) => `Friend request sent to ${n}.`,
  requestReceived: (n) => `${n} wants to be your friend.`,
  requestWithdrawn: (n) => `The friend request between you and ${n} was withdrawn.`,
  requestDeclined: (n) => `The friend request between you and ${n} was declined.`,
  friendAdded: (n) => `${n} is now your friend.`,
  friendRemoved: (n) => `${n} is no longer your friend.`,
  ignoreAdded: (n) => `${n} is now ignored.`,
  ignoreRemoved: (n) => `${n} is no longer ignored.`,
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className !== undefined) e.className = className;
  return e;
}

function button(text: string, label: string, run: () => void): HTMLButtonElement {
  const b = el("button", text);
  b.type = "button";
  b.setAttribute("aria-label", label);
  b.addEventListener("click", run);
  return b;
}

/** A titled list: its heading names it for assistive technology. */
function section(root: HTMLElement, id: string, title: string, empty: string): { list: HTMLUListElement; empty: HTMLElement } {
  const h = el("h3", title);
  h.id = `${id}-title`;
  const list = el("ul", undefined, "social-list");
  list.setAttribute("aria-labelledby", h.id);
  const none = el("p", empty, "social-empty");
  root.append(h, list, none);
  return { list, empty: none };
}

export class FriendsPanel {
  private readonly send: Send;
  private list: List = { friends: [], incoming: [], outgoing: [], ignored: [] };
  private readonly friends;
  private readonly incoming;
  private readonly outgoing;
  private readonly ignored;
  private readonly status = el("p", "", "social-status");

  constructor(room: WorldRoom, send: Send) {
    this.send = send;
    const root = document.getElementById("friends")!;
    root.replaceChildren();
    this.status.setAttribute("role", "status");
    this.friends = section(root, "friends-list", "Friends", "No friends yet: add one by name below.");
    root.append(this.form("add-friend", "Friend's name", "Add friend", (name) => send("social:addFriend", { name })));
    this.incoming = section(root, "friends-incoming", "Friend requests", "No friend requests.");
    this.outgoing = section(root, "friends-outgoing", "Requests you sent", "No requests waiting.");
    this.ignored = section(root, "ignore-list", "Ignore list", "You ignore no one.");
    root.append(
      this.form("add-ignore", "Name to ignore", "Ignore", (name) => send("social:addIgnore", { name })),
      this.status,
    );

    room.onMessage("social:list", (m: List) => {
      this.list = m;
      if (m.change !== undefined) this.say(CHANGE_TEXT[m.change.kind](m.change.name));
      this.render();
    });
    room.onMessage("social:status", (s: ServerEvent<"social:status">) => {
      const f = this.list.friends.find((o) => o.accountId === s.accountId);
      if (f === undefined) return;
      const was = f.online;
      Object.assign(f, s);
      if (was !== s.online) chatLine(`${s.name} has logged ${s.online ? "in" : "out"}.`, "system");
      this.render();
    });
    room.onMessage("social:message", (m: ServerEvent<"social:message">) => chatLine(`From ${m.from}: ${m.message}`, "private"));
    room.onMessage("social:messageSent", (m: ServerEvent<"social:messageSent">) => chatLine(`To ${m.to}: ${m.message}`, "private"));
    room.onMessage("error", (e: ServerEvent<"error">) => {
      if (e.event?.startsWith("social:") === true) this.say(sentence(e.message));
    });
    send("social:getList", {});
  }

  /** The friends' names (for `/msg`). */
  names(): string[] {
    return this.list.friends.map((f) => f.name);
  }

  private say(text: string): void {
    this.status.textContent = text;
  }

  private form(id: string, label: string, submit: string, run: (name: string) => void): HTMLFormElement {
    const form = el("form", undefined, "social-form");
    const l = el("label", label);
    l.htmlFor = `${id}-name`;
    const input = el("input");
    input.id = `${id}-name`;
    input.type = "text";
    input.maxLength = 16;
    input.autocomplete = "off";
    const b = el("button", submit);
    b.type = "submit";
    form.append(l, input, b);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (name === "") {
        this.say(`Type a name to ${submit === "Ignore" ? "ignore" : "add"} first.`);
        input.focus();
        return;
      }
      input.value = "";
      run(name);
    });
    return form;
  }

  private render(): void {
    const l = this.list;
    const friends = [...l.friends].sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name));
    this.fill(this.friends, friends, (f: Friend) => [
      el("span", f.name, "social-name"),
      el("span", f.online ? (f.world !== null ? `Online, world ${f.world}` : "Online") : "Offline", f.online ? "social-online" : "social-offline"),
      button("Message", `Message ${f.name}`, () => startPrivate(f.name)),
      button("Remove", `Remove ${f.name}`, () => this.send("social:removeFriend", { name: f.name })),
    ]);
    this.fill(this.incoming, l.incoming, (a) => [
      el("span", a.name, "social-name"),
      button("Accept", `Accept ${a.name}`, () => this.send("social:acceptFriend", { name: a.name })),
      button("Decline", `Decline ${a.name}`, () => this.send("social:declineFriend", { name: a.name })),
    ]);
    this.fill(this.outgoing, l.outgoing, (a) => [
      el("span", a.name, "social-name"),
      button("Withdraw", `Withdraw the request to ${a.name}`, () => this.send("social:removeFriend", { name: a.name })),
    ]);
    this.fill(this.ignored, l.ignored, (a) => [
      el("span", a.name, "social-name"),
      button("Unignore", `Unignore ${a.name}`, () => this.send("social:removeIgnore", { name: a.name })),
    ]);
  }

  private fill<T extends { accountId: string }>(
    into: { list: HTMLUListElement; empty: HTMLElement },
    rows: readonly T[],
    cells: (row: T) => HTMLElement[],
  ): void {
    // The button that had the keyboard is found again by its name after the redraw.
    const focused = into.list.contains(document.activeElement) ? document.activeElement?.getAttribute("aria-label") : null;
    into.list.replaceChildren(
      ...rows.map((r) => {
        const li = el("li");
        li.append(...cells(r));
        return li;
      }),
    );
    into.empty.hidden = rows.length > 0;
    if (focused != null) into.list.querySelector<HTMLButtonElement>(`[aria-label="${CSS.escape(focused)}"]`)?.focus();
  }
}
