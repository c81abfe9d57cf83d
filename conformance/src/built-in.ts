// What the runner built into a single executable carries inside itself, in place of the files
// the npm package reads beside dist/: its own version and those of the packages the reference
// adapter is built on (package.json files), and the golden vectors (dist/vectors). The
// executable's entry point (executable.ts) sets it before the CLI loads; in the npm package
// nothing sets it, and every reader falls back to its files.

/** One vector file: its name (as in the directory) and its text. */
export interface VectorText {
  file: string;
  text: string;
}

/** What the executable carries. */
export interface BuiltIn {
  /** What the reports give as the vectors' place, where the npm package gives a directory. */
  vectorsLabel: string;
  /** Package versions by package name: @pay/conformance, @pay/sign and @pay/client. */
  versions: Readonly<Record<string, string>>;
  /** The golden vector files, read when a run needs them. */
  vectors(): VectorText[];
}

let builtIn: BuiltIn | undefined;

/** Called once, by the executable's entry point, before anything reads it. */
export function setBuiltIn(value: BuiltIn): void {
  builtIn = value;
}

/** What the executable carries; undefined when the runner runs from its npm package. */
export function getBuiltIn(): BuiltIn | undefined {
  return builtIn;
}
