// Promises made in a process that has made many test clocks, against the same work after one: a
// test suite makes a clock per test (the README's outage runs a hundred times in one process), and
// the async context that says which tracked work a sleep belongs to costs every promise of the
// process something. Rounds alternate; the ratio is what to read (about 1: the clocks made
// before cost nothing; it grew with their number when each clock had a storage of its own).
import { createTestClock } from '@pay/clock/test-clock';

const PROMISES = 200_000;
const ROUNDS = 5;

/** Milliseconds to make and settle `PROMISES` promises, inside a clock's tracked work. */
async function work(clock) {
  const started = performance.now();
  await clock.track('bench.work', async () => {
    for (let i = 0; i < PROMISES; i++) await Promise.resolve(i);
  });
  return performance.now() - started;
}

const first = createTestClock({ start: 0 });
const one = [];
for (let r = 0; r < ROUNDS; r++) one.push(await work(first));
// A hundred clocks, each having tracked work once, as a hundred tests leave them.
for (let i = 0; i < 100; i++) {
  const clock = createTestClock({ start: 0 });
  await clock.track('bench.made', async () => {});
}
const many = [];
for (let r = 0; r < ROUNDS; r++) many.push(await work(first));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${PROMISES} promises in tracked work, median of ${ROUNDS} rounds:`);
console.log(`  after 1 test clock      ${median(one).toFixed(0)} ms`);
console.log(`  after 101 test clocks   ${median(many).toFixed(0)} ms (${(median(many) / median(one)).toFixed(2)} of the first)`);
