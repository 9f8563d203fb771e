/**
 * The game's words as sentences: a refusal made as "you can't light a fire here" reaches the player
 * as "You can't light a fire here." (capitalised, with a full stop), the way the genre speaks. The
 * World sends every `error` through it (World.sendError), so the browser client, the agents and
 * the WebSocket clients all get the same sentence; the browser's panels use it for the messages
 * of other services too.
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
