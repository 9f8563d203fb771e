/**
 * What the server tells the player happened to them and around them: hit splats and health bars
 * (`combat:hit`), xp drops and level-ups (`skill:xp`), death and respawn (`player:death`), a
 * quest's rewards (`quest:completed`, a chat line as the genre's quest scroll lists them). The
 * world view draws them; a hit is its splat only (no chat line, as in the genre); level-ups and
 * death also go to the chat log and to a notice over the world that assistive technology announces.
 */
import type { Room } from "@colyseus/sdk";
import type { ServerEvent } from "../../src/game/serverEvents.ts";
import { chatLine } from "./panels/chat.ts";
import { skillName } from "./panels/skills.ts";
import type { WorldScene } from "./WorldScene.ts";

/** How long a notice (level-up, death) stays (ms). */
const NOTICE_MS = 4_000;
let noticeTimer: ReturnType<typeof setTimeout> | undefined;

export function notice(text: string, kind: "levelup" | "death"): void {
  const el = document.getElementById("notice")!;
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (el.hidden = true), NOTICE_MS);
}

/** "You are awarded: 1 quest point, 150 Woodcutting xp, Settler's charter." (`itemLabel` names an item stack.) */
export function rewardsLine(q: ServerEvent<"quest:completed">, itemLabel: (itemId: string, quantity: number) => string): string {
  const parts = [
    ...(q.questPoints > 0 ? [`${q.questPoints} quest point${q.questPoints === 1 ? "" : "s"}`] : []),
    ...Object.entries(q.xp).map(([skill, xp]) => `${xp.toLocaleString("en")} ${skillName(skill)} xp`),
    ...q.items.map((i) => itemLabel(i.itemId, i.quantity)),
  ];
  return parts.length === 0 ? "" : `You are awarded: ${parts.join(", ")}.`;
}

/**
 * An xp drop as the genre shows it: whole xp, the change of the skill's whole xp (`gained`), so 1⅓
 * Hitpoints xp a hitpoint rises as +1, +1, +2 and never as "+1.3"; none while the whole xp has not
 * moved (a 0.4 xp Hitpoints share). (docs/playtest.md session 29: the drops showed tenths.)
 */
export function xpDropText(x: Pick<ServerEvent<"skill:xp">, "skill" | "gained">): string | undefined {
  return x.gained > 0 ? `+${x.gained} ${skillName(x.skill)} xp` : undefined;
}

export function showFeedback(
  room: Room,
  scene: WorldScene,
  playerId: string,
  nameOf: (id: string) => string | undefined,
  itemLabel: (itemId: string, quantity: number) => string,
): void {
  room.onMessage("quest:completed", (q: ServerEvent<"quest:completed">) => {
    const line = rewardsLine(q, itemLabel);
    if (line !== "") chatLine(line, "system");
  });
  room.onMessage("combat:hit", (h: ServerEvent<"combat:hit">) => {
    scene.lunge(h.attackerId, h.targetId);
    // The splat only, as the genre shows a hit: a chat line a hit flooded the chat in a fight
    // (docs/playtest.md 2026-11-29).
    scene.hitSplat(h.targetId, h.damage, h.style);
  });
  room.onMessage("skill:xp", (x: ServerEvent<"skill:xp">) => {
    const skill = skillName(x.skill);
    const drop = xpDropText(x);
    if (drop !== undefined) scene.floatText(playerId, drop);
    if (x.levelUp) {
      // "an Attack level", "a Cooking level": the genre's line, with English's article.
      const text = `Congratulations, you just advanced ${/^[AEIOU]/.test(skill) ? "an" : "a"} ${skill} level. You are now level ${x.level}.`;
      chatLine(text, "levelup");
      notice(text, "levelup");
      scene.floatText(playerId, `${skill} level ${x.level}!`, "#b9f6ca");
    }
  });
  room.onMessage("player:death", (d: ServerEvent<"player:death">) => {
    scene.clearPath();
    const by = d.killedBy !== null ? ` by ${nameOf(d.killedBy) ?? d.killedBy}` : "";
    const where = `${Math.round(d.respawn.x)}, ${Math.round(d.respawn.z)}`;
    chatLine(`Oh dear, you are dead! You were killed${by} at ${d.position.x}, ${d.position.z} and respawn at ${where}.`, "error");
    notice(`Oh dear, you are dead! You respawn at ${where}.`, "death");
  });
}
