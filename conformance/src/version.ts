// Versions as reports show them. Every package of this repository is `0.0.0` until its first
// release (changesets then sets the real one), so a report of a build from source would read
// "0.0.0 + 0.0.0": it says `unreleased 0.0.0`, a number nobody ever published.

/** The version a package was never published under: what a build from this repository carries. */
const UNRELEASED = '0.0.0';

/** A package version for a report: `1.4.0`, or `unreleased 0.0.0` for a build from source. */
export function shownVersion(version: string): string {
  return version === UNRELEASED ? `unreleased ${UNRELEASED}` : version;
}

/**
 * The versions of packages released together, for a report: one version when they agree (as
 * `@pay/sign` and `@pay/client`, versioned as one group, always do once installed from one
 * release), each named otherwise (`@pay/sign 1.4.0, @pay/client 1.3.0`: a mixed install).
 */
export function shownVersions(packages: readonly { name: string; version: string }[]): string {
  const versions = new Set(packages.map((p) => p.version));
  if (versions.size === 1) return shownVersion(packages[0]!.version);
  return packages.map((p) => `${p.name} ${shownVersion(p.version)}`).join(', ');
}
