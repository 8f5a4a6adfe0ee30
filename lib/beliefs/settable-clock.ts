/**
 * A clock someone sets by hand: tests and the demo seeder build the services with it and move it between calls, so
 * the history a demo writes spans days. Production uses `systemClock`.
 */
import type { Clock, IsoTime } from "@/lib/engine";

export interface SettableClock extends Clock {
  set(time: IsoTime): void;
  advance(ms: number): void;
}

export function settableClock(start: IsoTime = new Date().toISOString()): SettableClock {
  let t = Date.parse(start);
  return {
    now: () => new Date(t).toISOString(),
    set: (time) => {
      t = Date.parse(time);
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export const systemClock: Clock = { now: () => new Date().toISOString() };
