/**
 * Errors carry codes (server/errors.ts, config/load-settings.ts, server/cli/cli-error.ts): callers match
 * on the code, not on the wording of the message.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../config/load-settings.ts';
import { CliError } from '../server/cli/cli-error.ts';
import { serveStore } from '../server/cli/serve-command.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';

function thrown(run: () => unknown): { code?: string; statusCode?: number; message: string } {
  try {
    run();
  } catch (error) {
    return error as { code?: string; statusCode?: number; message: string };
  }
  throw new Error('expected an error');
}

describe('error codes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lse-errors-'));

  it('a wrong setting is LSE_SETTINGS_INVALID (400), naming the setting', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"estimation": {"iterations": 0}}');
    const error = thrown(() => loadSettings({ file, env: {} }));
    expect(error).toBeInstanceOf(SettingsError);
    expect(error).toMatchObject({ code: 'LSE_SETTINGS_INVALID', statusCode: 400 });
    expect(error.message).toMatch(/^setting estimation\.iterations \(from the config file .*bad\.json\)/);
    expect(thrown(() => loadSettings({ env: { LSE_SERVER_PORT: 'x' } })).code).toBe('LSE_SETTINGS_INVALID');
  });

  it('a command-line error is LSE_CLI_USAGE (exit 2) or LSE_CLI_FAILED (exit 1)', () => {
    expect(new CliError('--iterations must be a positive integer')).toMatchObject({ code: 'LSE_CLI_USAGE', exitCode: 2, message: '--iterations must be a positive integer' });
    expect(new CliError('the round failed', 1)).toMatchObject({ code: 'LSE_CLI_FAILED', exitCode: 1 });
  });

  it('a cron expression node-cron rejects is LSE_SCHEDULE_INVALID_CRON; a crawl of an unscoped directory fails with LSE_DATA_DIR_UNSCOPED', async () => {
    const store = await CrawlStore.open(join(dir, 'data'));
    try {
      // Six fields pass the settings' shape check; minute 99 does not exist.
      const badCron = loadSettings({ env: {}, overrides: { dataDir: join(dir, 'data'), schedules: { estimate: '0 99 * * * *' } } });
      await expect(serveStore(store, badCron, { listen: { host: '127.0.0.1', port: 0 }, adminToken: 'token-for-the-errors-test' })).rejects.toMatchObject({
        code: 'LSE_SCHEDULE_INVALID_CRON',
        statusCode: 400,
        message: 'schedules.estimate: "0 99 * * * *" is not a valid cron expression',
      });
      // Neither a scope nor a topic is remembered: a crawl cannot tell local pages.
      const settings = loadSettings({ env: {}, overrides: { dataDir: join(dir, 'data') } });
      const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: 'token-for-the-errors-test' });
      try {
        const id = serving.runner.submitCrawl(1);
        await serving.runner.idle();
        expect(serving.runner.status(id)).toMatchObject({ state: 'failed', errorCode: 'LSE_DATA_DIR_UNSCOPED' });
        const job = await (await fetch(`${serving.url}/api/admin/jobs/${id}`, { headers: { authorization: 'Bearer token-for-the-errors-test' } })).json();
        expect(job).toMatchObject({ state: 'failed', errorCode: 'LSE_DATA_DIR_UNSCOPED', error: expect.stringMatching(/remembers neither a URL scope nor a topic/) });
      } finally {
        await serving.close();
      }
    } finally {
      await store.close();
    }
  });
});
