/** A rectangle of tiles, both ends included: the world's bounds, an area's, a blocked region's. */
export interface Bounds {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}
