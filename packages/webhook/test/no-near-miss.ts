// The receiver's hint when no near miss matches a bad signature: the secret is the likeliest cause.
// Spelled out here (not imported) so a change of the words is a change a test sees.

/** The start of that hint for `merchantId`, as a pattern. */
export const noNearMiss = (merchantId: string) =>
  new RegExp(
    `^no common mistake matches \\(URL variants, the body re-serialised, a padded secret\\): the secret set here is most likely not the one the service signs merchant ${merchantId}'s webhooks with \\(compare it with the merchant secret the service has\\), or the request is not from the service$`,
  );
