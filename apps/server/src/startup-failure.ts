import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { AppError } from './errors.js';

/** What a failed start knows of its settings (the configuration may itself be what failed). */
export interface StartupSettings {
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
}

type SystemError = Error & { code?: string; syscall?: string; path?: string; address?: string; port?: number };

/** The failure itself and every cause under it (drizzle wraps the driver's error, AggregateError holds one per address). */
function* chainOf(error: unknown, depth = 0): Generator<SystemError> {
  if (!(error instanceof Error) || depth > 8) return;
  yield error as SystemError;
  if (error instanceof AggregateError) for (const inner of error.errors) yield* chainOf(inner, depth + 1);
  yield* chainOf(error.cause, depth + 1);
}

/** `host:port/database` of a connection string, never its user or password. */
function databaseName(databaseUrl: string | undefined): string {
  if (!databaseUrl || !URL.canParse(databaseUrl)) return 'databasen i DATABASE_URL';
  const url = new URL(databaseUrl);
  return `PostgreSQL på ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

const fileProblems: Record<string, string> = {
  EROFS: 'ligger på ett skrivskyddat filsystem (EROFS)',
  EACCES: 'får inte skrivas av serverns användare (EACCES)',
  EPERM: 'får inte skrivas av serverns användare (EPERM)',
  ENOTDIR: 'går inte att skapa: en del av sökvägen är en fil, inte en katalog (ENOTDIR)',
  ENOSPC: 'ligger på en disk som är full (ENOSPC)',
  EDQUOT: 'ligger på en disk vars kvot är slut (EDQUOT)',
};

/**
 * One Swedish line that names why the server could not start and which setting to look at,
 * for the operator's terminal or the container's log (no stack: the cause is the setting).
 */
export function describeStartupFailure(error: unknown, settings: StartupSettings): string {
  const chain = [...chainOf(error)];
  const lead = 'Säljportalen kunde inte starta:';
  const app = chain.find((item): item is AppError => item instanceof AppError);
  if (app && (app.code === 'CONFIG' || app.code === 'DATA_DIR_LOCKED')) return `${lead} ${app.message}`;

  const withCode = (...codes: string[]) => chain.find((item) => item.code !== undefined && codes.includes(item.code));
  const where = `${settings.host ?? '0.0.0.0'}:${settings.port ?? 3000}`;
  const listen = chain.find((item) => item.syscall === 'listen');
  if (listen?.code === 'EADDRINUSE')
    return `${lead} porten ${where} används redan av ett annat program. Stoppa det eller välj en annan PORT.`;
  if (listen?.code === 'EACCES') return `${lead} porten ${where} kräver behörighet som serverns användare saknar. Välj en PORT över 1023.`;
  if (listen?.code === 'EADDRNOTAVAIL') return `${lead} adressen ${settings.host} finns inte på den här datorn. Ändra HOST.`;

  const database = databaseName(settings.databaseUrl);
  if (withCode('ECONNREFUSED'))
    return `${lead} ${database} tar inte emot anslutningar (ECONNREFUSED). Kontrollera DATABASE_URL och att PostgreSQL körs.`;
  if (withCode('ENOTFOUND', 'EAI_AGAIN')) return `${lead} värden i DATABASE_URL (${database}) finns inte i DNS. Kontrollera DATABASE_URL.`;
  if (
    withCode('ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH') ||
    chain.some((item) => /connection timeout|timeout exceeded|timeout expired/i.test(item.message))
  )
    return `${lead} ${database} svarade inte i tid. Kontrollera DATABASE_URL och att PostgreSQL svarar.`;
  if (withCode('28P01', '28000')) return `${lead} ${database} godtog inte användaren eller lösenordet i DATABASE_URL.`;
  if (withCode('3D000')) return `${lead} ${database} finns inte. Skapa databasen eller rätta DATABASE_URL.`;
  // A host that accepts the connection and closes it at once (not PostgreSQL, or a proxy with nothing
  // behind it): node-postgres says only 'Connection terminated unexpectedly', with no code.
  if (settings.databaseUrl && (withCode('ECONNRESET') || chain.some((item) => /connection terminated unexpectedly/i.test(item.message))))
    return `${lead} ${database} stängde anslutningen. Kontrollera DATABASE_URL och att den pekar på PostgreSQL.`;

  const file = chain.find((item) => item.code !== undefined && item.code in fileProblems);
  if (file) {
    const target = file.path ?? settings.dataDir ?? '';
    return `${lead} ${target} ${fileProblems[file.code!]}. Välj en DATA_DIR som servern får skriva i.`;
  }

  const first = chain[0];
  return `${lead} ${first ? `${first.name}: ${first.message}` : String(error)}`.replace(/\s+/g, ' ');
}

/**
 * Refuses a port already in use before the database is opened (and migrated): the operator
 * hears about it at once, and an embedded data dir is not locked for nothing.
 */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Fails at once, with the file system's own reason, when the embedded database could not be written. */
export function assertWritableDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const probe = path.join(dir, `.skrivtest-${process.pid}`);
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (error) {
    // The directory is what the operator chose and must change, not the probe file in it.
    throw Object.assign(error as Error, { path: dir });
  }
}
