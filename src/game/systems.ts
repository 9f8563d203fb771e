/** The gameplay phases of the tick, as the World runs them (actions, NPC AI, respawns). */
import { processActions } from "./actions.ts";
import { dieAfterTrade } from "./death.ts";
import { processNpcs, processRespawns } from "./npcs.ts";
import { refreshStoreViews } from "./store.ts";
import { regenerate } from "./regeneration.ts";
import { drainPrayers } from "./prayer.ts";
import { closeInterruptedDialogues } from "./dialogue.ts";
import { reachAreas } from "./quests.ts";
import type { WorldSystems } from "./world/World.ts";

export const GAMEPLAY: WorldSystems = {
  actions: (world) => {
    processActions(world);
    closeInterruptedDialogues(world);
    reachAreas(world);
    drainPrayers(world);
    world.trades.process(world);
    refreshStoreViews(world, world.stores);
  },
  npcs: processNpcs,
  respawns: (world) => {
    processRespawns(world);
    regenerate(world);
  },
  tradeReleased: dieAfterTrade,
};
