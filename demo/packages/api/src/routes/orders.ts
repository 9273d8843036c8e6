import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { createOrder, findOrder } from '../services/orders.js';

const OrderBody = z.object({
  items: z.array(z.object({ recipeId: z.string().uuid(), servings: z.number().int().min(1) })).min(1),
  deliverOn: z.string().date(),
});

export async function orderRoutes(app: FastifyInstance): Promise<void> {
  app.post('/orders', async (request, reply) => {
    const body = OrderBody.parse(request.body);
    const order = await createOrder(body);
    return reply.code(201).send(order);
  });

  app.get<{ Params: { id: string } }>('/orders/:id', async (request) => {
    const order = await findOrder(request.params.id);
    if (!order) throw new AppError('not_found', `order ${request.params.id} does not exist`);
    return order;
  });
}
