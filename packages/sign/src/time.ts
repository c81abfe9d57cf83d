/** Now, in whole unix seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
