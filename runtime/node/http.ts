import { createRequire } from 'node:module';

/**
 * node:http's values, loaded as CommonJS code loads them. An ESM import of node:http (even of one
 * name) builds the module's namespace from every export, and three of them, WebSocket, CloseEvent
 * and MessageEvent, are getters that load undici, Node's fetch, whole: about 13 MB resident that a
 * server answering with node:http never uses. Take http's values from here; type-only imports of
 * node:http load nothing and stay where they are.
 */
const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export const { STATUS_CODES, ServerResponse, createServer, validateHeaderName, validateHeaderValue } = http;
