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

const LOCAL_SPECIALS = '"(),:;<>[\\]';
const NON_ASCII_SPACE = /\s/u;
const NON_ASCII_LABEL_CHAR = /[\p{L}\p{M}\p{N}]/u;

/** Why a string is not an email address by this package's rule (a clause), or undefined when it is one. */
export function emailProblem(value: string): string | undefined {
  const at = value.indexOf('@');
  if (at < 0) return 'it has no @';
  if (value.indexOf('@', at + 1) >= 0) return 'it has more than one @';
  if (at === 0) return 'nothing comes before the @';
  if (at > 64) return 'the part before the @ is longer than 64 characters';
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return 'it contains a control character';
    if (c === 0x20 || (c > 0x9f && NON_ASCII_SPACE.test(value[i] as string))) return 'it contains white space';
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = value.charCodeAt(i + 1);
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return 'it is not well-formed Unicode (a lone surrogate)';
      i += 1;
    }
    if (i < at && LOCAL_SPECIALS.includes(value[i] as string)) {
      return `the part before the @ contains one of ${LOCAL_SPECIALS}, which an address cannot have unquoted`;
    }
  }
  return domainProblem(value, at + 1);
}

function domainProblem(value: string, start: number): string | undefined {
  if (start === value.length) return 'nothing comes after the @';
  let labels = 0;
  let digitsOnly = true;
  for (let from = start; from <= value.length; ) {
    let end = value.indexOf('.', from);
    if (end < 0) end = value.length;
    if (end === from) return 'the domain has an empty part (two dots in a row, or a dot at its start or end)';
    if (end - from > 63) return 'a part of the domain is longer than 63 characters';
    if (value.charCodeAt(from) === 45 || value.charCodeAt(end - 1) === 45) return 'a part of the domain starts or ends with a hyphen';
    digitsOnly = true;
    for (let i = from; i < end; i += 1) {
      const c = value.charCodeAt(i);
      const digit = c >= 48 && c <= 57;
      if (!digit) digitsOnly = false;
      const ascii = digit || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 45;
      // Outside ASCII, a letter, mark or digit of any script (a surrogate pair is read as one).
      if (!ascii && !(c > 0x7f && NON_ASCII_LABEL_CHAR.test(String.fromCodePoint(value.codePointAt(i) as number)))) {
        return 'the domain may only have letters, digits, hyphens and dots';
      }
      if (c >= 0xd800 && c <= 0xdbff) i += 1;
    }
    labels += 1;
    from = end + 1;
  }
  if (labels < 2) return 'the domain has no dot (such as shop.example)';
  if (digitsOnly) return 'the domain ends in a number (an IP address is not accepted; give a domain name)';
  return undefined;
}
