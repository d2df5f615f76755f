import { singularOf } from '../model/defaults.ts';
import { camelOf, pascalOf } from '../emit/names.ts';

/**
 * Stable operationIds: what generated clients name their methods. They follow the declaration, not
 * the path, so they stay the same while paths gain versions: `listOrders`, `getOrder`,
 * `createOrder`, `replaceOrder`, `updateOrder`, `deleteOrder`, `getUserProfile`, `setGuiLang`,
 * `enqueueQueuedJob`, `search`.
 */
export const operationIds = {
  list: (collection: string) => `list${pascalOf(collection)}`,
  listForm: (collection: string) => `list${pascalOf(collection)}ListForm`,
  read: (singular: string) => `get${pascalOf(singular)}`,
  create: (singular: string) => `create${pascalOf(singular)}`,
  replace: (singular: string) => `replace${pascalOf(singular)}`,
  update: (singular: string) => `update${pascalOf(singular)}`,
  delete: (singular: string) => `delete${pascalOf(singular)}`,
  aggregateRead: (parentSingular: string, aggregate: string) =>
    `get${pascalOf(parentSingular)}${pascalOf(singularOf(aggregate))}`,
  aggregateReplace: (parentSingular: string, aggregate: string) =>
    `replace${pascalOf(parentSingular)}${pascalOf(singularOf(aggregate))}`,
  aggregateUpdate: (parentSingular: string, aggregate: string) =>
    `update${pascalOf(parentSingular)}${pascalOf(singularOf(aggregate))}`,
  /** A sub-collection below one parent row: `listPetVisits`, `createPetVisit`, `getPetVisit`. */
  subList: (parentSingular: string, collection: string) => `list${pascalOf(parentSingular)}${pascalOf(collection)}`,
  subListForm: (parentSingular: string, collection: string) =>
    `list${pascalOf(parentSingular)}${pascalOf(collection)}ListForm`,
  subCreate: (parentSingular: string, singular: string) => `create${pascalOf(parentSingular)}${pascalOf(singular)}`,
  subRead: (parentSingular: string, singular: string) => `get${pascalOf(parentSingular)}${pascalOf(singular)}`,
  settingRead: (setting: string) => `get${pascalOf(setting)}`,
  settingUpdate: (setting: string) => `update${pascalOf(setting)}`,
  settingReplace: (setting: string) => `set${pascalOf(setting)}`,
  search: (service: string) => camelOf(service),
  document: (service: string) => `get${pascalOf(service)}Document`,
  enqueue: (queue: string) => `enqueue${pascalOf(singularOf(queue))}`,
  job: (queue: string) => `get${pascalOf(singularOf(queue))}`,
  removeJob: (queue: string) => `delete${pascalOf(singularOf(queue))}`,
  listJobs: (queue: string) => `list${pascalOf(queue)}`,
  health: (service: string) => `get${pascalOf(service)}`,
  readiness: (service: string) => `get${pascalOf(service)}Ready`,
  custom: (method: string, service: string, path: string) =>
    `${method.toLowerCase()}${pascalOf(service)}${path.startsWith(':') ? `By${pascalOf(path.slice(1))}` : ''}`,
  /** A collection's own operation below one resource: `postReservationMoves`. */
  ownOperation: (method: string, singular: string, path: string) =>
    `${method.toLowerCase()}${pascalOf(singular)}${pascalOf(path)}`,
  /** HEAD of a GET operation: `headListOrders`, `headGetOrder`. */
  head: (getOperationId: string) => `head${getOperationId.charAt(0).toUpperCase()}${getOperationId.slice(1)}`,
  /** OPTIONS of a path: `optionsOrders`, `optionsOrdersByOrderId`, `optionsServicesQueuedJobs`. */
  options: (path: string) =>
    `options${path
      .split('/')
      .filter((segment) => segment !== '' && !/^v[0-9]+$/.test(segment))
      .map((segment) =>
        segment === '(list)'
          ? 'ListForm'
          : segment.startsWith('{')
            ? `By${pascalOf(segment.slice(1, -1))}`
            : pascalOf(segment),
      )
      .join('')}`,
};
