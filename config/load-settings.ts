/**
 * Assembling the settings from defaults, a config file, the environment and flags, with one
 * clear error naming the setting (and where it came from) when a value is wrong.
 */
import { readFileSync } from 'node:fs';
import createError from '@fastify/error';
import { settingsSchema, type Settings } from './schema.ts';

/** A wrong setting, config file or environment value; the message names the setting and its source. */
export const SettingsError = createError<'LSE_SETTINGS_INVALID', 400, [string]>('LSE_SETTINGS_INVALID', '%s', 400);

type Layer = { source: string; values: Record<string, unknown> };

export interface SettingsSources {
  /** A JSON config file. */
  file?: string;
  /** Environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Values from flags, as a partial settings object (e.g. `{ crawler: { maxPages: 10 } }`). */
  overrides?: Record<string, unknown>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge of plain objects; arrays and scalars replace. */
export function mergeSettings(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    out[key] = isPlainObject(value) && isPlainObject(out[key]) ? mergeSettings(out[key] as Record<string, unknown>, value) : value;
  }
  return out;
}

const toSnake = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** `LSE_CRAWLER_MAX_PAGES=500` → `{ crawler: { maxPages: 500 } }` for every known setting. */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const defaults = settingsSchema.parse({});
  const parse = (raw: string): unknown => {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  };
  for (const [section, values] of Object.entries(defaults)) {
    if (isPlainObject(values)) {
      const keys = new Set(Object.keys(values));
      // Optional settings have no default: take them from the section's schema shape.
      const shape = (settingsSchema.shape as Record<string, { unwrap?: () => { shape?: Record<string, unknown> } }>)[section];
      for (const key of Object.keys(shape?.unwrap?.().shape ?? {})) keys.add(key);
      for (const key of keys) {
        const name = `LSE_${toSnake(section)}_${toSnake(key)}`;
        const raw = env[name];
        if (raw !== undefined) out[section] = { ...(out[section] as object), [key]: parse(raw) };
      }
    }
  }
  if (env.LSE_DATA) out.dataDir = env.LSE_DATA;
  if (env.LSE_ADMIN_TOKEN) out.server = { ...(out.server as object), adminToken: env.LSE_ADMIN_TOKEN };
  if (env.LSE_SEARCH_TOKEN) out.server = { ...(out.server as object), searchToken: env.LSE_SEARCH_TOKEN };
  return out;
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingsError(`cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(`the config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(value)) throw new SettingsError(`the config file ${path} must hold a JSON object`);
  return value;
}

/** Defaults ← file ← environment ← flags, validated. */
export function loadSettings(sources: SettingsSources = {}): Settings {
  const layers: Layer[] = [];
  if (sources.file) layers.push({ source: `config file ${sources.file}`, values: readConfigFile(sources.file) });
  layers.push({ source: 'environment', values: settingsFromEnv(sources.env ?? process.env) });
  if (sources.overrides) layers.push({ source: 'command line', values: sources.overrides });
  let merged: Record<string, unknown> = {};
  for (const layer of layers) {
    merged = mergeSettings(merged, layer.values);
    // Validate after each layer so the error names where the bad value came from.
    const check = settingsSchema.safeParse(merged);
    if (!check.success) {
      const issue = check.error.issues[0];
      throw new SettingsError(`setting ${issue.path.join('.') || '(top level)'} (from the ${layer.source}): ${issue.message}`);
    }
  }
  return settingsSchema.parse(merged);
}
