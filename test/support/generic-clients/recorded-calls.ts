import { callName } from './call-plan.ts';

/** One request a client sent, as the server answered it, named by the document's operation it reached. */
export interface RecordedCall {
  /** `METHOD template`, or `METHOD path` when no path of the document matches. */
  readonly operation: string;
  readonly status: number;
  readonly userAgent: string | null;
}

/**
 * A fetch for a generated client that notes each request it sends and what status answered it. It
 * does not follow redirects, so that the status noted is the one the server answered to the call
 * (a 303 of a finished job), not that of the resource it names.
 */
export function recordingFetch(document: Record<string, any>): { fetch: typeof fetch; calls: RecordedCall[] } {
  const templates = Object.keys(document.paths)
    // A literal segment ((list)) before a parameter that would match it too.
    .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[()]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  const calls: RecordedCall[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request, { redirect: 'manual' });
    const path = new URL(request.url).pathname;
    const template = templates.find((candidate) => candidate.pattern.test(path))?.template ?? path;
    calls.push({
      operation: callName(request.method, template),
      status: response.status,
      userAgent: request.headers.get('user-agent'),
    });
    return response;
  };
  return { fetch: recording, calls };
}
