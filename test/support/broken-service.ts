// A small implementation of the API that breaks the contract on purpose, for the validating proxy's tests.
// Loopback only; each path shows one kind of fault.
import http from 'node:http';

export interface BrokenService {
  url: string;
  /** Requests it received: method, path and body. */
  received: { method: string; url: string; body: string }[];
  close(): Promise<void>;
}

const json = (response: http.ServerResponse, status: number, body: unknown, contentType = 'application/json') => {
  response.writeHead(status, { 'Content-Type': contentType });
  response.end(JSON.stringify(body));
};

/** `delayMs`: answer every request this late. */
export async function startBrokenService(options: { delayMs?: number } = {}): Promise<BrokenService> {
  const received: BrokenService['received'] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () =>
      setTimeout(() => {
        received.push({ method: request.method ?? '', url: request.url ?? '', body });
        const path = (request.url ?? '').split('?')[0];
        if (path === '/api/monitors/169863000000025001')
          return json(response, 200, { code: 0, data: { monitor_id: '169863000000025001' } }); // no `message`
        if (path === '/api/device_key') return json(response, 200, { code: 0, message: 'success', data: { device_key: 12345 } }); // wrong type
        if (path === '/api/monitor_type_constants') return json(response, 418, { code: 418, message: "I'm a teapot" }); // undocumented status
        if (path === '/api/monitors/1') return json(response, 404, { code: '1002' }); // error body: wrong type, no message
        if (path === '/api/short/msp/customers')
          return json(response, 200, { code: 0, message: 'success', data: [{ name: 'Zylker', zaaid: '700000123' }] }); // conformant
        if (path === '/api/monitor_groups') return json(response, 201, { code: 0, message: 'success', data: {} }); // conformant answer
        if (path === '/api/short/bu/business_units')
          return json(response, 200, { code: 0, message: 'success', data: [] }, 'application/json; version=3.0'); // another version
        if (path === '/api/monitors') return json(response, 500, { code: 500, message: 'Internal Server Error' }); // documented, but a server error
        return json(response, 404, { code: 404, message: 'URL Not found' });
      }, options.delayMs ?? 0),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
