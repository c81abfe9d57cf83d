// A clock standing at whatever `now` says, for tests that set the time by hand; everything else
// (sleeps, alarms, tracking) is the real clock's.
import { type Clock, systemClock } from '@pay/clock';

export const clockAt = (now: () => number): Clock => ({ ...systemClock, now });
