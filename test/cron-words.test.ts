import { describe, expect, it } from 'vitest';
import { cronInWords } from '../server/jobs/cron-words.ts';

describe('cron expressions in words', () => {
  it('says the common forms in words', () => {
    expect(cronInWords('0 3 * * *')).toBe('every day at 03:00');
    expect(cronInWords('15 2 * * 1')).toBe('every Monday at 02:15');
    expect(cronInWords('0 22 * * 1-5')).toBe('every weekday at 22:00');
    expect(cronInWords('30 6,18 * * *')).toBe('every day at 06:30 and 18:30');
    expect(cronInWords('*/15 * * * *')).toBe('every 15 minutes');
    expect(cronInWords('5 * * * *')).toBe('every hour at minute 5');
    expect(cronInWords('0 4 1 * *')).toBe('on day 1 of every month at 04:00');
    expect(cronInWords('0 0 3 * * *')).toBe('every day at 03:00');
  });

  it('names the expression where it has no words for it', () => {
    expect(cronInWords('0 3 * 1 *')).toBe('at the times of the cron expression "0 3 * 1 *"');
    expect(cronInWords('*/1 * * * * *')).toBe('at the times of the cron expression "*/1 * * * * *"');
  });
});
