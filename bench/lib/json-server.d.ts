// json-server 0.17 ships no types; this declares the part of its programmatic API the bench's peer uses.
declare module 'json-server' {
  import type { Express, RequestHandler, Router } from 'express';
  interface JsonRouter extends Router {
    db: { _: { id: string } };
  }
  const jsonServer: {
    create(): Express;
    router(source: string): JsonRouter;
    defaults(options?: { logger?: boolean; noGzip?: boolean; noCors?: boolean; static?: string }): RequestHandler[];
    rewriter(routes: Record<string, string>): RequestHandler;
  };
  export default jsonServer;
}
