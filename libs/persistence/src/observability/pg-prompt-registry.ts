/**
 * The prompt registry on PostgreSQL: prompts are immutable (name, version) rows in `helios_prompts`;
 * labels (`production`, `staging`, …) in `helios_prompt_labels` point at one version each and move.
 * A new version takes the next number for its name under a transaction-scoped advisory lock on the
 * name, so concurrent creators queue instead of failing on the unique (name, version).
 */
import { InvalidArgumentError, newId } from '@helios/core';
import { type DataSource, type EntityManager } from 'typeorm';
import { PromptNotFoundError } from './errors.js';
import { PersistenceConfig } from './persistence-config.js';
import { type PromptVariables, renderTemplate, templateVariables } from './prompt-template.js';

export interface Prompt {
  readonly id: string;
  readonly name: string;
  readonly version: number;
  readonly content: string;
  /** The template's `{{variables}}`, in order of first use. */
  readonly variables: readonly string[];
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The labels pointing at this version now, sorted. */
  readonly labels: readonly string[];
  readonly createdAt: Date;
}

/** Which version: a number, a label, or (neither) the latest. */
export type PromptRef = { readonly version: number } | { readonly label: string } | undefined;

export interface CreatePromptOptions {
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Labels to move to the new version in the same transaction. */
  readonly labels?: readonly string[];
}

interface PromptSqlRow {
  readonly id: string;
  readonly name: string;
  readonly version: number;
  readonly content: string;
  readonly variables: string[];
  readonly metadata: Record<string, unknown>;
  readonly labels: string[];
  readonly created_at: Date;
}

const MAX_NAME = 255;

/** The statements of one registry, over its schema's two tables. */
function statements(config: PersistenceConfig) {
  const prompts = config.qualify('helios_prompts');
  const labels = config.qualify('helios_prompt_labels');
  return {
    prompts,
    labels,
    select: `SELECT p."id", p."name", p."version", p."content", p."variables", p."metadata", p."created_at",
    coalesce((SELECT array_agg(l."label" ORDER BY l."label") FROM ${labels} l
              WHERE l."name" = p."name" AND l."version" = p."version"), '{}') AS "labels"
  FROM ${prompts} p`,
    moveLabel: `INSERT INTO ${labels} ("name", "label", "version") VALUES ($1, $2, $3)
  ON CONFLICT ("name", "label") DO UPDATE SET "version" = EXCLUDED."version", "updated_at" = now()`,
    /** Names are serialised per schema: the lock key includes the qualified table. */
    lockKey: `helios_prompts:${prompts}:`,
  };
}

function checkName(what: string, value: string): void {
  if (value.trim() === '') throw new InvalidArgumentError(`prompt ${what} must not be blank`);
  if (value.length > MAX_NAME)
    throw new InvalidArgumentError(`prompt ${what} exceeds ${MAX_NAME} characters`);
}

function toPrompt(row: PromptSqlRow): Prompt {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    content: row.content,
    variables: row.variables,
    metadata: row.metadata,
    labels: row.labels,
    createdAt: row.created_at,
  };
}

function describeRef(name: string, ref: PromptRef): string {
  if (ref === undefined) return `prompt ${name}`;
  return 'version' in ref ? `prompt ${name} version ${ref.version}` : `prompt ${name} label ${ref.label}`;
}

export class PgPromptRegistry {
  private readonly sql: ReturnType<typeof statements>;

  /** `config` names the schema of `helios_prompts` and `helios_prompt_labels` (default `public`). */
  constructor(
    private readonly dataSource: DataSource,
    config: PersistenceConfig = PersistenceConfig.DEFAULT,
  ) {
    this.sql = statements(config);
  }

  /** Stores `content` as the next version of `name` (1 for a new name) and moves `labels` to it. */
  async create(name: string, content: string, options: CreatePromptOptions = {}): Promise<Prompt> {
    checkName('name', name);
    const labels = options.labels ?? [];
    labels.forEach((label) => checkName('label', label));
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1::text || $2::text, 0))`, [
        this.sql.lockKey,
        name,
      ]);
      const inserted = (await manager.query(
        `INSERT INTO ${this.sql.prompts} ("id", "name", "version", "content", "variables", "metadata")
         SELECT $1::uuid, $2::varchar, coalesce(max("version"), 0) + 1, $3::text, $4::jsonb, $5::jsonb
         FROM ${this.sql.prompts} WHERE "name" = $2::varchar
         RETURNING "version"`,
        [
          newId(),
          name,
          content,
          JSON.stringify(templateVariables(content)),
          JSON.stringify(options.metadata ?? {}),
        ],
      )) as { version: number }[];
      const version = inserted[0]?.version;
      if (version === undefined) throw new Error('create prompt: INSERT … RETURNING returned no row');
      for (const label of labels) await manager.query(this.sql.moveLabel, [name, label, version]);
      return this.mustGet(manager, name, { version });
    });
  }

  /** The version `ref` names (the latest when `ref` is absent), or undefined. */
  async get(name: string, ref?: PromptRef): Promise<Prompt | undefined> {
    return this.find(this.dataSource.manager, name, ref);
  }

  /** Points `label` at `version` of `name` (creating the label or moving it). */
  async setLabel(name: string, label: string, version: number): Promise<Prompt> {
    checkName('label', label);
    if (!Number.isSafeInteger(version) || version < 1) {
      throw new InvalidArgumentError(`prompt version must be a positive integer, not ${version}`);
    }
    return this.dataSource.transaction(async (manager) => {
      // FOR SHARE: the version cannot vanish between the check and the label (prompts are never
      // deleted by this registry, but the foreign key would otherwise turn a race into a SQL error).
      const exists = (await manager.query(
        `SELECT 1 FROM ${this.sql.prompts} WHERE "name" = $1 AND "version" = $2 FOR SHARE`,
        [name, version],
      )) as unknown[];
      if (exists.length === 0)
        throw new PromptNotFoundError(`${describeRef(name, { version })} does not exist`);
      await manager.query(this.sql.moveLabel, [name, label, version]);
      return this.mustGet(manager, name, { version });
    });
  }

  /** Removes `label` from `name`; whether it existed. */
  async removeLabel(name: string, label: string): Promise<boolean> {
    const [, affected] = (await this.dataSource.query(
      `DELETE FROM ${this.sql.labels} WHERE "name" = $1 AND "label" = $2`,
      [name, label],
    )) as [unknown, number];
    return affected > 0;
  }

  /** Every version of `name`, oldest first (empty for an unknown name). */
  async versions(name: string): Promise<Prompt[]> {
    const rows = (await this.dataSource.query(`${this.sql.select} WHERE p."name" = $1 ORDER BY p."version"`, [
      name,
    ])) as PromptSqlRow[];
    return rows.map(toPrompt);
  }

  /**
   * The content of the version `ref` names (latest when absent) with `variables` filled in. Throws
   * PromptNotFoundError (PROMPT_NOT_FOUND) or PromptVariableMissingError (PROMPT_VARIABLE_MISSING).
   */
  async render(name: string, ref: PromptRef, variables: PromptVariables): Promise<string> {
    const prompt = await this.get(name, ref);
    if (prompt === undefined) throw new PromptNotFoundError(`${describeRef(name, ref)} does not exist`);
    return renderTemplate(name, prompt.content, variables);
  }

  private async find(manager: EntityManager, name: string, ref: PromptRef): Promise<Prompt | undefined> {
    let rows: PromptSqlRow[];
    if (ref === undefined) {
      rows = (await manager.query(
        `${this.sql.select} WHERE p."name" = $1 ORDER BY p."version" DESC LIMIT 1`,
        [name],
      )) as PromptSqlRow[];
    } else if ('version' in ref) {
      rows = (await manager.query(`${this.sql.select} WHERE p."name" = $1 AND p."version" = $2`, [
        name,
        ref.version,
      ])) as PromptSqlRow[];
    } else {
      rows = (await manager.query(
        `${this.sql.select} JOIN ${this.sql.labels} t ON t."name" = p."name" AND t."version" = p."version"
         WHERE t."name" = $1 AND t."label" = $2`,
        [name, ref.label],
      )) as PromptSqlRow[];
    }
    const row = rows[0];
    return row === undefined ? undefined : toPrompt(row);
  }

  private async mustGet(manager: EntityManager, name: string, ref: PromptRef): Promise<Prompt> {
    const prompt = await this.find(manager, name, ref);
    if (prompt === undefined) throw new PromptNotFoundError(`${describeRef(name, ref)} does not exist`);
    return prompt;
  }
}
