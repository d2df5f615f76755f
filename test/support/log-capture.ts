import { createLogger, type Logger } from '../../runtime/logging/index.ts';

/** A logger at `info` (the default level) whose lines are kept in memory. */
export function captureLogs(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

/** Members every request line carries; `client` too when the token was valid. */
const REQUEST_MEMBERS = [
  'time',
  'level',
  'request_id',
  'method',
  'path',
  'status',
  'duration_ms',
  'response_bytes',
  'user_agent',
] as const;

/** What a token or a JWT looks like, wherever it appears in a line. */
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;

/**
 * What is wrong with a server's log lines, as readable sentences (none: an empty list): a line that
 * is not JSON, a request line missing a member, any secret (a token issued in this test process, a
 * JWT, a bearer credential, an Authorization header), or a stack trace on a client's error.
 */
export function logProblems(lines: readonly string[], secrets: Iterable<string>): string[] {
  const problems: string[] = [];
  const known = [...secrets].filter((secret) => secret.length >= 16);
  for (const text of lines) {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      problems.push(`not JSON: ${text}`);
      continue;
    }
    const leaked = known.find((secret) => text.includes(secret));
    if (leaked !== undefined) problems.push(`a token in a log line: ${text}`);
    if (JWT_SHAPE.test(text)) problems.push(`a JWT in a log line: ${text}`);
    if (/bearer\s+\S/i.test(text)) problems.push(`a bearer credential in a log line: ${text}`);
    if (/"authorization"\s*:\s*"(?!\[redacted\])/i.test(text))
      problems.push(`an Authorization header in a log line: ${text}`);
    if (line.msg === 'request' || line.msg === 'request failed') {
      const missing = REQUEST_MEMBERS.filter(
        (member) =>
          !(member in line) &&
          !(member === 'user_agent' && line.status === 400 && line.error_code === 'missing_user_agent') &&
          !(member === 'status' && line.aborted === true),
      );
      if (missing.length > 0) problems.push(`a request line without ${missing.join(', ')}: ${text}`);
      if (typeof line.status === 'number' && line.status < 500 && text.includes('"stack"'))
        problems.push(`a stack trace for a ${line.status}: ${text}`);
    }
  }
  return problems;
}
