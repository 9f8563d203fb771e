/**
 * An xp lamp carried (a quest's reward: Tusks in the Hollow and The Drowned Watch give a Fernlight
 * lamp of 250 xp) is rubbed at once, as a player of the genre does: `inventory:use` on it, which the
 * server answers with a `dialogue:open` spoken by the item (nodeId `lamp`, one option a skill:
 * src/game/dialogue.ts rubLamp), answered with the skill meleeFocus.ts lampSkill names (its lowest
 * melee skill; Magic under `focus magic`). The runtime (Agent.ts) steps it between its reflexes and
 * the goal, and not while a quest goal runs (that goal answers the dialogues it sees).
 */
import type { AgentView } from "../AgentView.ts";
import type { Knowledge } from "../knowledge.ts";
import type { Focus } from "./Brain.ts";
import { lampSkill, lampXpOf } from "./meleeFocus.ts";
import type { ServerEventArgs } from "../../src/game/serverEvents.ts";
import type { ClientEvent, ClientEventName } from "../../src/game/clientEvents.ts";

/** Ticks between two tries (the dialogue comes back within one). */
const RUB_EVERY = 5;

export class LampRubber {
  private askedAt = -Infinity;
  private rubbing: string | undefined;

  /** Uses a lamp it carries, at most every RUB_EVERY ticks. True when it sent something. */
  step(view: AgentView, know: Knowledge, tick: number, send: <K extends ClientEventName>(type: K, data: ClientEvent<K>) => void): boolean {
    if (tick - this.askedAt < RUB_EVERY) return false;
    const lamp = view.self?.inventory.find((s) => lampXpOf(know, s.itemId) !== undefined);
    if (lamp === undefined) return false;
    this.askedAt = tick;
    this.rubbing = lamp.itemId;
    send("inventory:use", { slot: lamp.slot });
    return true;
  }

  /** Answers the lamp's question with the skill to raise; the text said (for the activity), or undefined. */
  onEvent(
    event: ServerEventArgs,
    view: AgentView,
    focus: Focus | undefined,
    send: <K extends ClientEventName>(type: K, data: ClientEvent<K>) => void,
  ): string | undefined {
    const [type, data] = event;
    if (type !== "dialogue:open" || this.rubbing === undefined || data.npcId !== this.rubbing) return undefined;
    this.rubbing = undefined;
    const skill = lampSkill(view.self?.skills ?? {}, focus);
    const option = data.options.find((o) => o.text.toLowerCase() === skill);
    if (option === undefined) {
      send("dialogue:close", {});
      return `no ${skill} among the lamp's skills`;
    }
    send("dialogue:choose", { optionId: option.id });
    return `rub the lamp: ${skill}`;
  }
}
