import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { testDb } from '../db/testDb.js';

describe('POST /orders', () => {
  it('rejects an empty basket', async () => {
    await testDb(async () => {
      const app = await buildApp();
      const response = await app.inject({ method: 'POST', url: '/orders', payload: { items: [], deliverOn: '2025-06-01' } });
      expect(response.statusCode).toBe(400);
    });
  });
});
