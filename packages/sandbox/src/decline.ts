// The error a transaction moved to `failed` gets when nobody said which: the sandbox's own choice
// (the service documents no default), used wherever the sandbox fails a transaction without one:
// the admin API, a seed, the state's transition, and the command line's usage text.

/** `error_code` and `error_message` of a `failed` transaction that was given none. */
export const DEFAULT_DECLINE = Object.freeze({ code: 'declined', message: 'The transaction was declined.' });
