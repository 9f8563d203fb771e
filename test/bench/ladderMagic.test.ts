/**
 * The ladder's Magic 10 counted from the first runes the agent held (bought or crafted): issue #46's
 * "Magic 10 within 1 hour once runes are affordable" (bench/agents/ladder.ts magicFromRunes).
 */
import assert from "node:assert/strict";
import { magicFromRunes, MILESTONES, type Milestone, type Reached } from "../../bench/agents/ladder.ts";

const at = (ticks: number): Reached => ({ ticks, minutesAt600ms: ticks / 100, realSeconds: 0 });
const reached = (over: Partial<Record<Milestone, Reached>>) =>
  Object.fromEntries(MILESTONES.map(([k]) => [k, over[k] ?? null])) as Record<Milestone, Reached | null>;

describe("ladder: Magic 10 from the first runes", () => {
  it("counts from the earlier of the first runes bought and the first rune crafted", () => {
    assert.deepEqual(magicFromRunes(reached({ runesBought: at(2000), magic10: at(8000) })), {
      runesAt: 2000,
      magic10At: 8000,
      ticks: 6000,
      minutesAt600ms: 60,
    });
    assert.equal(magicFromRunes(reached({ runesBought: at(2000), runeCrafted: at(1500), magic10: at(4000) }))?.ticks, 2500);
  });

  it("is null without runes or without Magic 10", () => {
    assert.equal(magicFromRunes(reached({ magic10: at(4000) })), null);
    assert.equal(magicFromRunes(reached({ runesBought: at(2000) })), null);
  });
});
