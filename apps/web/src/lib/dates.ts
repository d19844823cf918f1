import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { DATE_FORMAT, DATE_TIME_FORMAT, FORM_DATE_TIME_FORMAT, REPORT_DATE_FORMAT } from '@app/shared';

dayjs.extend(localizedFormat);

type DateInput = string | Date | null | undefined;

/**
 * Dates as the spec writes them ("ll", "ll HH:mm", "ll hh:mm A") in English; in the Amharic interface, in the
 * Ethiopian calendar.
 */
function format(value: DateInput, lang: string, pattern: string, withTime: boolean): string {
  if (!value) return '';
  const d = dayjs(value);
  // Not d.isValid(): dayjs checks validity through Date#toString, whose first call loads the time-zone names (seen in
  // a list page's first render's CPU profile); an invalid date's time value is NaN.
  if (Number.isNaN(d.valueOf())) return '';
  if (lang === 'am') {
    return new Intl.DateTimeFormat('am-ET-u-ca-ethiopic', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      ...(withTime ? { hour: '2-digit', minute: '2-digit' } : {}),
    }).format(d.toDate());
  }
  return d.format(pattern);
}

export const formatDate = (value: DateInput, lang = 'en') => format(value, lang, DATE_FORMAT, false);
export const formatDateTime = (value: DateInput, lang = 'en') => format(value, lang, DATE_TIME_FORMAT, true);
export const formatReportDate = (value: DateInput, lang = 'en') => format(value, lang, REPORT_DATE_FORMAT, true);

/** Value for a datetime-local input (YYYY-MM-DDTHH:mm:ss, local time). */
export const toFormDateTime = (value: DateInput) => (value ? dayjs(value).format(FORM_DATE_TIME_FORMAT) : '');
