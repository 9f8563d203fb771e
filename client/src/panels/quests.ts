/**
 * The Quests panel (the quest journal): your quest points, and every quest of the world with its
 * status, coloured as the genre does (not started red, in progress yellow, completed green) and
 * said in words, with what to do now and a counted stage's progress. It asks for the list when the
 * game starts (`quest:getList`) and follows `quest:list`, which the server sends after every change.
 */
import type { WorldRoom } from "../gameRooms.ts";
import type { ServerEvent } from "../../../src/game/serverEvents.ts";
import { sentence } from "../../../src/game/sentence.ts";
import type { Send } from "../worldMenu.ts";

type List = ServerEvent<"quest:list">;
const STATUS_TEXT: Record<List["quests"][number]["status"], string> = { not_started: "Not started", in_progress: "In progress", completed: "Completed" };

export class QuestPanel {
  private readonly root: HTMLElement;
  private readonly points = document.createElement("p");
  private readonly list = document.createElement("ul");

  constructor(room: WorldRoom, send: Send) {
    this.root = document.getElementById("quests")!;
    this.points.id = "quest-points";
    this.list.id = "quest-list";
    this.list.setAttribute("aria-label", "Quests");
    this.root.replaceChildren(this.points, this.list);
    room.onMessage("quest:list", (m: List) => this.render(m));
    send("quest:getList", {});
  }

  render(m: List): void {
    this.points.textContent = `Quest points: ${m.questPoints}`;
    this.list.replaceChildren(
      ...m.quests.map((q) => {
        const li = document.createElement("li");
        li.className = `quest quest-${q.status.replace("_", "-")}`;
        li.dataset.quest = q.id;
        const name = document.createElement("strong");
        name.textContent = q.name;
        const status = document.createElement("span");
        status.className = "quest-status";
        status.textContent = STATUS_TEXT[q.status];
        const stage = document.createElement("p");
        stage.className = "quest-stage";
        // A journal line ends with a full stop, as the genre's: "Kill 5 meadow rats (0 / 5).".
        const text = q.stageText.replace(/\.$/, "");
        stage.textContent = sentence(q.progress !== undefined ? `${text} (${q.progress.count} / ${q.progress.required})` : text);
        li.append(name, " ", status, stage);
        return li;
      }),
    );
  }
}
