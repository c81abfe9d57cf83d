// "Did you mean ...?": the one edit-distance helper of the sandbox, used by the command line (its
// options and commands) and by the rule for statuses (the admin API, a seed, `pay-sandbox status`),
// so a typo gets the same suggestion wherever it is typed. No dependencies: the command line loads
// it in its quick start.

/**
 * The edit distance between two words: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each count one (`exectued` is one from `executed`, as a person sees it).
 */
function editDistance(a: string, b: string): number {
  // Three rows of the table are enough: a swap looks two rows back.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known word a typed one most likely meant: the nearest by edit distance, when it is near
 * enough to be a typo (one edit in a short word, about one in three in a longer one), else the one
 * known word it begins (`--web` for `--webhook-url`); undefined when nothing is that close or two
 * are equally close. Case is ignored; the suggestion is spelled as known.
 */
export function nearest(typed: string, known: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string[] = [];
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(word, candidate.toLowerCase());
    if (distance > limit || distance > bestDistance) continue;
    if (distance < bestDistance) best = [];
    bestDistance = distance;
    best.push(candidate);
  }
  // Only a word other than the one typed is a suggestion (`EXECUTED` gets `executed`).
  if (best.length === 1 && best[0] !== typed) return best[0];
  const started = word.length >= 3 ? known.filter((k) => k.toLowerCase().startsWith(word) && k.length > word.length) : [];
  return best.length === 0 && started.length === 1 ? started[0] : undefined;
}

/** ` (did you mean X?)` for a typed word, or '' when no known word is near it. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const guess = nearest(typed, known);
  return guess === undefined ? '' : ` (did you mean ${guess}?)`;
}
