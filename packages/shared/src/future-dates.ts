/**
 * Dates that may not lie ahead: a record's published date (it orders lists, feeds and exports), when an incident
 * happened and when a source was dated. A date of 2099 would reach people.csv, the statistics and the search's years.
 */

/** How far ahead of the server's clock a date and time may be: the clocks of the sender and the server differ. */
export const FUTURE_SKEW_MS = 5 * 60_000;

/**
 * How far ahead of the server's clock a day may start. An incident's date and a source's date are days written
 * without a time zone (read as UTC), and a day begins up to 14 hours before UTC (UTC+14): a day that has begun
 * somewhere is not in the future, so an editor east of Greenwich can enter today's date and time as it is there.
 */
export const DAY_AHEAD_MS = 14 * 60 * 60_000;

/** Whether `date` is later than now: a date and time beyond the clock skew, a day beyond the earliest time zone. */
export function isInFuture(date: Date, precision: 'instant' | 'day', now = Date.now()): boolean {
  return date.getTime() > now + (precision === 'day' ? DAY_AHEAD_MS : FUTURE_SKEW_MS);
}
