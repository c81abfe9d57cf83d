// The email rule of create bodies (`customer.email`, format `pay-email`): pragmatic, not RFC 5322.
//
// The interface only bounds the length ([6..255]). A full RFC 5322 address may be quoted, carry
// comments or name an IP literal, and nobody pays with one of those; what merchants do send by
// mistake is a name ("Jane Doe"), a pasted display form ("Jane <jane@shop.example>"), two
// addresses, a trailing space or a domain without its ending. So an address is accepted when:
// - it has exactly one @, with 1 to 64 characters before it (RFC 5321's limit on the local part);
// - it has no white space and no control characters anywhere;
// - the part before the @ has none of RFC 5322's specials `"(),:;<>[\]` (no quoted local parts);
// - the domain is at least two labels joined by dots, each 1 to 63 letters, digits or hyphens, not
//   starting or ending with a hyphen; letters may be any script's (internationalised domains);
// - the last label is not all digits (an IP address is not a mail domain here).
// Letters outside ASCII are allowed before the @ too (RFC 6531 addresses).

// One pass over the characters (it runs on every create body): ASCII through a table of character
// classes, anything else through the slower Unicode checks. The first problem found in reading
// order is the one reported.

const LOCAL_SPECIALS = '"(),:;<>[\\]';
const NON_ASCII_SPACE = /\s/u;
const NON_ASCII_LABEL_CHAR = /[\p{L}\p{M}\p{N}]/u;

// Classes of the ASCII characters.
const CONTROL = 1;
const SPACE = 2;
const SPECIAL = 4; // RFC 5322's specials other than . and @: not before the @
const LABEL = 8; // a letter, digit or hyphen: allowed in a domain label
const DIGIT = 16;
const ASCII = new Uint8Array(128);
for (let c = 0; c < 0x20; c += 1) ASCII[c] = CONTROL;
ASCII[0x7f] = CONTROL;
ASCII[0x20] = SPACE;
for (const c of LOCAL_SPECIALS) ASCII[c.charCodeAt(0)] = SPECIAL;
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-') ASCII[c.charCodeAt(0)] = LABEL;
for (const c of '0123456789') ASCII[c.charCodeAt(0)] = LABEL | DIGIT;

/** What is wrong with the label `value[from, to)` as a domain label (its characters already read). */
function labelProblem(value: string, from: number, to: number): string | undefined {
  if (to === from) return 'the domain has an empty part (two dots in a row, or a dot at its start or end)';
  if (to - from > 63) return 'a part of the domain is longer than 63 characters';
  if (value.charCodeAt(from) === 45 || value.charCodeAt(to - 1) === 45) return 'a part of the domain starts or ends with a hyphen';
  return undefined;
}

/** What is wrong with the non-ASCII character at `i` (`domain`: after the @), if anything. */
function nonAsciiProblem(value: string, i: number, domain: boolean): string | undefined {
  const c = value.charCodeAt(i);
  if (c <= 0x9f) return 'it contains a control character';
  if (NON_ASCII_SPACE.test(value[i] as string)) return 'it contains white space';
  if (c >= 0xd800 && c <= 0xdfff) {
    const low = value.charCodeAt(i + 1);
    if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return 'it is not well-formed Unicode (a lone surrogate)';
  }
  // In a domain: a letter, mark or digit of any script (a surrogate pair read as one).
  if (domain && !NON_ASCII_LABEL_CHAR.test(String.fromCodePoint(value.codePointAt(i) as number))) {
    return 'the domain may only have letters, digits, hyphens and dots';
  }
  return undefined;
}

/** The problems of the address's shape (where its @ is), which come before any other. */
function shapeProblem(value: string): string | undefined {
  const at = value.indexOf('@');
  if (at < 0) return 'it has no @';
  if (value.indexOf('@', at + 1) >= 0) return 'it has more than one @';
  if (at === 0) return 'nothing comes before the @';
  if (at > 64) return 'the part before the @ is longer than 64 characters';
  if (at === value.length - 1) return 'nothing comes after the @';
  return undefined;
}

/** Why a string is not an email address by this package's rule (a clause), or undefined when it is one. */
export function emailProblem(value: string): string | undefined {
  const problem = scan(value);
  // The scan stops at the first character at fault; a wrong shape is the better thing to say.
  return problem === undefined ? undefined : (shapeProblem(value) ?? problem);
}

/** The first problem in reading order, finding the @ on the way (no second pass on a good address). */
function scan(value: string): string | undefined {
  let at = -1;
  let label = 0; // where the current domain label starts
  let labels = 0;
  let digitsOnly = true; // the current label is all ASCII digits so far
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if (c >= 0x80) {
      const problem = nonAsciiProblem(value, i, at >= 0);
      if (problem !== undefined) return problem;
      if (at >= 0) digitsOnly = false;
      if (c >= 0xd800 && c <= 0xdbff) i += 1; // the low half of the pair was read with it
      continue;
    }
    const kind = ASCII[c] as number;
    if (kind & CONTROL) return 'it contains a control character';
    if (kind & SPACE) return 'it contains white space';
    if (at < 0) {
      if (c === 64 /* @ */) {
        if (i === 0 || i > 64) return 'the part before the @ is empty or too long';
        at = i;
        label = i + 1;
      } else if (kind & SPECIAL) {
        return `the part before the @ contains one of ${LOCAL_SPECIALS}, which an address cannot have unquoted`;
      }
    } else if (c === 46 /* . */) {
      const problem = labelProblem(value, label, i);
      if (problem !== undefined) return problem;
      labels += 1;
      label = i + 1;
      digitsOnly = true;
    } else {
      // A second @ lands here too, and the shape says so.
      if (!(kind & LABEL)) return 'the domain may only have letters, digits, hyphens and dots';
      if (!(kind & DIGIT)) digitsOnly = false;
    }
  }
  if (at < 0) return 'it has no @';
  const problem = labelProblem(value, label, value.length);
  if (problem !== undefined) return problem;
  if (labels === 0) return 'the domain has no dot (such as shop.example)';
  if (digitsOnly) return 'the domain ends in a number (an IP address is not accepted; give a domain name)';
  return undefined;
}
