import type { Coord } from '@gw/platform';

/**
 * `coord` with some of its methods replaced (an outage, a counting spy); every other member is the original's. For
 * tests of what a component does when one Coord operation fails or is called.
 */
export function coordWith(coord: Coord, overrides: Partial<Coord>): Coord {
  return new Proxy(coord, {
    get(target, property, receiver) {
      if (Object.hasOwn(overrides, property)) return (overrides as Record<PropertyKey, unknown>)[property];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value.bind(target) as unknown) : value;
    },
  });
}
