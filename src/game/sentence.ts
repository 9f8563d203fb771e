/**
 * The game's words as sentences: a refusal made as "you can't light a fire here" reaches the player
 * as "You can't light a fire here." (capitalised, with a full stop), the way the genre speaks. The
 * World sends every `error` through it (World.sendError), so the browser client, the agents and
 * the WebSocket clients all get the same sentence; the browser's panels use it for the messages
 * of other services too. Below, names as the genre writes them (client/src/names.ts says which
 * things take which), and counts of them.
 */
export function sentence(message: string): string {
  const m = message.trim();
  if (m === "") return "That did not work.";
  const s = m[0]!.toUpperCase() + m.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** A name's possessive, as English writes it: "Ann's", "Mossy Knees'". */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/** A name as it reads mid-sentence: a leading "The" lower-cased ("You enter the Sunken Cistern."), the rest as written. */
export function midSentence(name: string): string {
  return name.replace(/^The\b/, "the");
}

/** "Cooking Range" → "Cooking range"; "Tree" stays. */
export function sentenceCase(name: string): string {
  return name.replace(/(\s+)([A-Z][a-z'-]*)\b/g, (_all, space: string, word: string) => space + word.toLowerCase());
}

/**
 * "1 Bronze bar", "2 Bronze bars": a count of more than one is plural, as the genre writes it; a name
 * already ending in s ("Leather gloves", "Coins") stays.
 */
export function counted(quantity: number, name: string): string {
  return `${quantity} ${pluralOf(quantity, name)}`;
}

/** A name for a count without it ("kill 3 more Meadow rats"): plural over one, as {@link counted}. */
export function pluralOf(quantity: number, name: string): string {
  return quantity > 1 && !/s$/i.test(name) ? `${name}s` : name;
}

/** An NPC's name as shown: a `mob` in sentence case, any other as written. */
export function npcDisplayName(def: { name: string; category?: string | undefined }): string {
  return def.category === "mob" ? sentenceCase(def.name) : def.name;
}
