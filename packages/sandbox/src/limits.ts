// The sandbox's own bound on times, beyond the interface's schemas: the interface gives times no
// range, but a time past year 9999 cannot be written as the service writes datetimes. (The
// lengths of what a request carries are the schema's: @pay/schema gives every string of a request
// body a maximum, which the endpoints, seeds and state files all check through it.)

/** The latest time the schedule clock may show (the end of year 9999, UTC), in ms. */
export const LATEST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
