import type { Context } from 'koa';
import { rememberRecent } from '../caching/recent-results.ts';

/**
 * The address of the caller: the socket's peer, or — only when that peer is a configured trusted
 * proxy — the nearest address in X-Forwarded-For that is not itself a trusted proxy.
 */
export function clientAddress(ctx: Context, trustedProxies: readonly string[]): string {
  const peer = peerAddress(ctx);
  if (!trustedProxies.includes(peer)) return peer;
  const forwarded = ctx
    .get('X-Forwarded-For')
    .split(',')
    .map((part) => normalise(part.trim()))
    .filter((part) => part !== '');
  for (let index = forwarded.length - 1; index >= 0; index--) {
    const address = forwarded[index]!;
    if (!trustedProxies.includes(address)) return address;
  }
  return peer;
}

/** The address of the socket's peer (a proxy's, when there is one), IPv4-mapped addresses as IPv4. */
export function peerAddress(ctx: Context): string {
  return normalise(ctx.req.socket.remoteAddress ?? 'unknown');
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, so one address has one key. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** Counted per client when authenticated, per address otherwise. */
export function limitKey(ctx: Context, trustedProxies: readonly string[]): string {
  const client = (ctx.state as { auth?: { client?: string } }).auth?.client;
  return client === undefined ? `address:${clientAddress(ctx, trustedProxies)}` : clientKey(client);
}

// A client calls again and again: its key is found, the same string every time, whose hash the
// counter's Map already has, rather than made again as a new string to hash.
const clientKey = rememberRecent((client: string) => `client:${client}`);
