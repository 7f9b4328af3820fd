import type { IncomingMessage, ServerResponse } from 'node:http';

type Json = Record<string, unknown>;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(
  res: ServerResponse,
  status: number,
  json: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(json));
}

export function parseArgs(
  raw: string,
  contentType: string | undefined,
  query: URLSearchParams,
): Json | undefined {
  const args: Json = Object.fromEntries(query);
  if (!raw) return args;
  if (contentType?.includes('application/json')) {
    try {
      const j = JSON.parse(raw);
      return j && typeof j === 'object' ? { ...args, ...j } : undefined;
    } catch {
      return undefined;
    }
  }
  return { ...args, ...Object.fromEntries(new URLSearchParams(raw)) };
}
