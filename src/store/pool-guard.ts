/**
 * A pool connection lost while checked out (the server restarted, an operator ended it) goes back to the pool as
 * lost, whoever held it. Prisma 6.19's PostgreSQL adapter never gives back the connection of a transaction whose
 * connection died (its ROLLBACK fails, so the release after it never runs): each such loss would keep one of the
 * pool's connections checked out for good, until the pool had none left and closing it waited forever.
 */
import type pg from 'pg';

export function releaseLostConnections(pool: pg.Pool): void {
  const watching = new WeakMap<pg.PoolClient, () => void>();
  pool.on('acquire', (client) => {
    const lost = (): void => {
      watching.delete(client);
      // By now pg-pool has set this checkout's release (it does so just after 'acquire'): call it once, and make
      // the holder's own later call (if it ever comes) do nothing instead of throwing.
      const release = client.release;
      let released = false;
      client.release = (error?: Error | boolean) => {
        if (released) return;
        released = true;
        release.call(client, error ?? true);
      };
      client.release(new Error('connection lost while checked out'));
    };
    watching.set(client, lost);
    client.once('end', lost);
  });
  // Given back in time: the watch ends with the checkout.
  pool.on('release', (_error: unknown, client: pg.PoolClient) => {
    const lost = watching.get(client);
    if (!lost) return;
    watching.delete(client);
    client.removeListener('end', lost);
  });
}
