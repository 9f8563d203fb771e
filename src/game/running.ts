/**
 * `player:setRun {run}`: the run toggle. On, the player's walks (a `player:move` without `run`)
 * and its approaches to targets run while energy lasts (src/game/world/runEnergy.ts); switching it
 * on needs 1 % of energy (refused TOO_TIRED below that, changing nothing). A walk under way runs
 * or walks from the next tick.
 */
import { MIN_ENERGY_TO_RUN, runEnergyOf, shownRunEnergy } from "./world/runEnergy.ts";
import type { Player } from "./world/Player.ts";
import type { HandlerResult, World } from "./world/World.ts";

export function setRun(world: World, player: Player, data: { run: boolean }): HandlerResult {
  if (data.run && runEnergyOf(player) < MIN_ENERGY_TO_RUN) {
    return { code: "TOO_TIRED", message: `you are too tired to run (${shownRunEnergy(runEnergyOf(player))}% energy)` };
  }
  if (player.runMode !== data.run) {
    player.runMode = data.run;
    player.syncDue = true;
  }
  const running = data.run && player.path.length > 0;
  if (player.running !== running) {
    player.running = running;
    player.publicVersion++;
  }
}
