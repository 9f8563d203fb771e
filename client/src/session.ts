/**
 * The game on screen as one session that can end without a page load: a logout (back to the
 * character screen) or a hop (straight into another world). What a session sets up that outlives
 * its room (the world view's Phaser game, the dialogs, timers) registers its undoing here.
 */

const teardowns: (() => void)[] = [];

/** Something to undo when the session ends (in reverse order of registration). */
export function onSessionEnd(undo: () => void): void {
  teardowns.push(undo);
}

/** Ends the session on screen: each undoing runs once; one that fails does not stop the others (the first failure is thrown after). */
export function endSession(): void {
  const failures: unknown[] = [];
  for (const undo of teardowns.splice(0).reverse()) {
    try {
      undo();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/** Where the character being played is kept for this tab, so that a reload comes back into it. */
export const RESUME_KEY = "rsworld.playing";

export interface Resume {
  characterId: string;
  world?: number | undefined;
}

export function keptResume(): Resume | undefined {
  try {
    const r = JSON.parse(sessionStorage.getItem(RESUME_KEY) ?? "null") as Resume | null;
    return r !== null && typeof r.characterId === "string" ? r : undefined;
  } catch {
    return undefined;
  }
}

export function keepResume(r: Resume | undefined): void {
  if (r === undefined) sessionStorage.removeItem(RESUME_KEY);
  else sessionStorage.setItem(RESUME_KEY, JSON.stringify(r));
}
