/**
 * Names as the genre writes them: a kind of thing in sentence case ("Bank booth", "Copper rock",
 * "Meadow rat"), a proper name as it is written ("Warden Tamsin", "Hobb the Provisioner",
 * "Brackenford"). The manifests write both in Title Case, so the client decides by what a thing
 * is, a rule that holds for a studio's own content too:
 * - sentence case: resources, stations, places (doors, ladders, obstacles) and NPCs of the `mob`
 *   category (monsters and animals: a kind, never a person's name);
 * - as written: `boss`, `neutral` and `quest` NPCs (a boss or a villager has a name of its own),
 *   areas, buildings, stores, items (their manifests write them in sentence case already), quests,
 *   spells and prayers, players.
 * Sentence case keeps the first word and any word that is not a capital and lower-case letters
 * ("II", "McKay"), and lowers the others.
 */
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import { counted, npcDisplayName, sentenceCase } from "../../src/game/sentence.ts";

// The rules themselves live with the game's other words (src/game/sentence.ts), so that the agents'
// activity (agent-runtime/knowledge.ts nameOf) names things as the world view does.
export { counted, npcDisplayName, sentenceCase };

/** What the server's lines call a thing, and what the client calls it (only names that differ). */
export type NameChanges = ReadonlyMap<string, string>;

/**
 * Renames, in the client's own copy of the content, the resources, stations, places and `mob`
 * NPCs to sentence case, so that every menu, hover line, label and dialog that reads the registry
 * says it so. Returns the names changed, for the server's chat lines ({@link renameIn}).
 */
export function applyDisplayNames(registry: ContentRegistry): NameChanges {
  const changes = new Map<string, string>();
  const rename = (thing: { name: string }, to: string) => {
    if (to === thing.name) return;
    changes.set(thing.name, to);
    thing.name = to;
  };
  for (const npc of registry.npcs.values()) rename(npc, npcDisplayName(npc));
  for (const node of registry.resources.values()) rename(node, sentenceCase(node.name));
  for (const station of registry.stations) rename(station, sentenceCase(station.name));
  const { doors, ladders, obstacles } = registry.places;
  for (const place of [...doors, ...ladders, ...obstacles]) rename(place, sentenceCase(place.name));
  return changes;
}

/** A line the server wrote with the content's names, with the client's ("Meadow Rat hits you" → "Meadow rat hits you"). */
export function renameIn(text: string, changes: NameChanges): string {
  if (changes.size === 0) return text;
  let pattern = patterns.get(changes);
  if (pattern === undefined) {
    const escaped = [...changes.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    pattern = new RegExp(`\\b(?:${escaped.join("|")})\\b`, "g");
    patterns.set(changes, pattern);
  }
  return text.replace(pattern, (name) => changes.get(name) ?? name);
}
const patterns = new WeakMap<NameChanges, RegExp>();
