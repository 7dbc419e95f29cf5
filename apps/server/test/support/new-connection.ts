import { request as httpRequest } from 'node:http';

export interface NewConnectionAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  /** From sending the request to the answer's end. */
  ms: number;
}

/** One GET over a new TCP connection to a listening server: what a caller behind a balancer sees. */
export function getOverNewConnection(port: number, path: string): Promise<NewConnectionAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body, ms: performance.now() - started }),
      );
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${path} in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}
