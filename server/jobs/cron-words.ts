/**
 * A cron expression in words, for the admin page: "every day at 03:00", "every Monday at 02:15",
 * "every 15 minutes". Forms it does not know are said as "at the times of the cron expression …".
 */
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const isNumber = (field: string) => /^\d+$/.test(field);
const time = (hour: string, minute: string) => `${hour.padStart(2, '0')}:${minute.padStart(2, '0')}`;

function dayList(field: string): string | undefined {
  if (field === '1-5') return 'every weekday';
  if (field === '0,6' || field === '6,0') return 'every Saturday and Sunday';
  const days = field.split(',');
  if (!days.every((d) => isNumber(d) && Number(d) <= 7)) return undefined;
  const names = days.map((d) => DAYS[Number(d)]);
  return `every ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`}`;
}

export function cronInWords(expression: string): string {
  const fields = expression.trim().split(/\s+/);
  // A six-field expression starts with seconds; words for a whole-minute one only.
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields.length === 6 && fields[0] === '0' ? fields.slice(1) : fields;
  const fallback = `at the times of the cron expression "${expression}"`;
  if (fields.length !== 5 && !(fields.length === 6 && fields[0] === '0')) return fallback;
  const step = /^\*\/(\d+)$/.exec(minute);
  if (step && hour === '*' && dayOfMonth === '*' && month === '*' && dayOfWeek === '*') return `every ${step[1]} minutes`;
  if (isNumber(minute) && hour === '*' && dayOfMonth === '*' && month === '*' && dayOfWeek === '*') return `every hour at minute ${minute}`;
  if (!isNumber(minute) || month !== '*') return fallback;
  const hours = hour.split(',');
  if (!hours.every(isNumber)) {
    const every = /^\*\/(\d+)$/.exec(hour);
    if (every && dayOfMonth === '*' && dayOfWeek === '*') return `every ${every[1]} hours at minute ${minute}`;
    return fallback;
  }
  const at = `at ${hours.map((h) => time(h, minute)).join(' and ')}`;
  if (dayOfMonth === '*' && dayOfWeek === '*') return `every day ${at}`;
  if (dayOfMonth === '*') {
    const days = dayList(dayOfWeek);
    return days ? `${days} ${at}` : fallback;
  }
  if (isNumber(dayOfMonth) && dayOfWeek === '*') return `on day ${dayOfMonth} of every month ${at}`;
  return fallback;
}
