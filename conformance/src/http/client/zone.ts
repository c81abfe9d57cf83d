// The child's time zone, as the judges need it: client mode runs the child with a TZ other than
// UTC, so that an SDK that mixes local time and UTC (in the datetimes it reads, or in the unix
// time it signs) shows it.

/** The offset of a time zone at an instant, in minutes east of UTC. */
export function offsetMinutes(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at);
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(parts.find((p) => p.type === 'timeZoneName')?.value ?? '');
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** A zone's offset as ISO 8601 writes it, "−03:30" (with a minus sign), "+01:00". */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '−' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A span of seconds in words: "3 h 30 min", "45 s". */
export function spanText(seconds: number): string {
  const s = Math.abs(Math.round(seconds));
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const min = Math.round((s % 3600) / 60);
  return h === 0 ? `${min} min` : min === 0 ? `${h} h` : `${h} h ${min} min`;
}
