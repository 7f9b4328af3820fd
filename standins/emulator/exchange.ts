/** A request to the service's API as a route reads it, and the reply it gives: what routes and controls share. */
export interface ApiRequest {
  method: string;
  version: string;
  rest: string[];
  query: URLSearchParams;
  body: unknown;
}

export interface ApiReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
