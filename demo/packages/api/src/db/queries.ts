import { sql } from './client.js';
import type { OrderRow } from './types.js';

export async function selectOrder(id: string): Promise<OrderRow | undefined> {
  const [row] = await sql<OrderRow[]>`select * from orders where id = ${id}`;
  return row;
}
