import type pg from "pg";

/** SQLSTATE 42501, insufficient_privilege: `with (force)` met a backend of another role. */
const insufficientPrivilege = "42501";

/**
 * Drops a test database, even while a backend of another role (an autovacuum worker,
 * which runs as the bootstrap superuser) is connected to it. `with (force)` may only
 * terminate backends of the current role, so a test role that is not a superuser falls
 * back to a plain drop, which asks autovacuum workers to exit and waits for them; it is
 * retried a few times (each plain drop waits up to 5 s) while such a worker lingers.
 */
export async function dropTestDatabase(admin: pg.Client, name: string): Promise<void> {
  const quoted = `"${name.replaceAll('"', '""')}"`;
  try {
    await admin.query(`drop database if exists ${quoted} with (force)`);
    return;
  } catch (error) {
    if ((error as { code?: unknown }).code !== insufficientPrivilege) throw error;
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      await admin.query(`drop database if exists ${quoted}`);
      return;
    } catch (error) {
      // 55006, object_in_use: another session is still connected.
      if ((error as { code?: unknown }).code !== "55006" || attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
