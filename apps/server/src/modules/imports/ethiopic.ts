/**
 * Ethiopian-calendar dates to Gregorian days. The conversion itself is Intl's (ICU's ethiopic calendar, the one the
 * Amharic interface shows dates in): no maintained library converts the other way, so the Gregorian day is found by
 * formatting candidate days in the ethiopic calendar until one reads as the date asked. Years are Amete Mihret (ICU's
 * era 1), as Ethiopia writes them today.
 */

const ETHIOPIC = new Intl.DateTimeFormat('en-u-ca-ethiopic', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric', era: 'short' });

interface EthiopicDay {
  year: number;
  month: number;
  day: number;
}

function ethiopicOf(time: number): EthiopicDay {
  const parts = ETHIOPIC.formatToParts(new Date(time));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

const DAY_MS = 86_400_000;
/** Day number within the Ethiopian calendar's own counting (13 months, the last of 5 or 6 days). */
const ordinal = (d: EthiopicDay) => d.year * 365 + Math.floor(d.year / 4) + (d.month - 1) * 30 + d.day;

/** The Gregorian day (UTC midnight) of an Ethiopian date; null when there is no such day (Pagume 6 of a common year). */
export function ethiopicToGregorian(year: number, month: number, day: number): Date | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (month < 1 || month > 13 || day < 1 || day > (month === 13 ? 6 : 30) || year < 1800 || year > 2200) return null;
  const target = { year, month, day };
  // Meskerem 1 falls on 11 or 12 September of Gregorian year + 7: start there and step by the difference.
  let time = Date.UTC(year + 7, 8, 11) + ((month - 1) * 30 + day - 1) * DAY_MS;
  for (let step = 0; step < 4; step++) {
    const found = ethiopicOf(time);
    const diff = ordinal(target) - ordinal(found);
    if (diff === 0) return found.year === year && found.month === month && found.day === day ? new Date(time) : null;
    time += diff * DAY_MS;
  }
  return null;
}

/** Ethiopian month names, in Ge'ez script and in the Latin spellings documenters use, by number. */
export const ETHIOPIC_MONTHS: readonly (readonly string[])[] = [
  ['መስከረም', 'meskerem', 'meskerim'],
  ['ጥቅምት', 'tikimt', 'tikemt', 'tekemt', 'tiqimt'],
  ['ኅዳር', 'ህዳር', 'hidar', 'hedar'],
  ['ታኅሣሥ', 'ታህሳስ', 'ታኅሳስ', 'tahsas', 'tahisas'],
  ['ጥር', 'tir', 'ter', 'tirr'],
  ['የካቲት', 'yekatit', 'yekatit'],
  ['መጋቢት', 'megabit', 'megabit'],
  ['ሚያዝያ', 'ሚያዚያ', 'miyazya', 'miyaziya'],
  ['ግንቦት', 'ginbot', 'genbot'],
  ['ሰኔ', 'sene', 'senie'],
  ['ሐምሌ', 'ሃምሌ', 'hamle', 'hamlie'],
  ['ነሐሴ', 'ነሃሴ', 'nehase', 'nehasie'],
  ['ጳጉሜ', 'ጳጉሜን', 'pagume', 'pagumen', 'puagume'],
];

export function ethiopicMonthNumber(name: string): number | null {
  const key = name.trim().toLowerCase();
  const index = ETHIOPIC_MONTHS.findIndex((names) => names.includes(key));
  return index < 0 ? null : index + 1;
}
