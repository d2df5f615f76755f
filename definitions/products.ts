import { collection, field } from '@convapi/dsl';

/**
 * Products: the client names each one by its SKU in the path (`PUT /v1/products/blue-mug` creates it,
 * 201; the same PUT again replaces it, 200). No POST: the server never invents a SKU.
 */
export default collection({
  name: 'products',
  identifier: { name: 'sku', type: 'string', assignedBy: 'client' },
  createOnPut: true,
  operations: { create: false },
  fields: {
    title: field.string({ required: true, minLength: 1, filterable: true }),
    price: field.number({ min: 0 }),
  },
  versions: { v1: {}, v2: {} },
});
