/**
 * Cron expressions for tests that show schedules and run them on demand: twelve hours from now,
 * so they never fire while a test runs (a fixed "0 3 * * *" does fire in a suite run at 03:00).
 */
export function farOffSchedules(now = new Date()): { recrawl: string; estimate: string } {
  const hour = (now.getHours() + 12) % 24;
  const weekday = (now.getDay() + 3) % 7;
  return { recrawl: `0 ${hour} * * *`, estimate: `30 ${hour} * * ${weekday}` };
}
