/** The default endpoint of a table from the CDN: the Worker that served the loader, latest or pinned by version. */
import { expect } from 'chai';
import { endpointOf } from '../../widget/element/script-endpoint.ts';

describe('the endpoint a CDN loader gives its tables', () => {
  it('the latest loader: the folder it was served from', () => {
    expect(endpointOf('https://tables.example.com/punto-banco-table.js')).to.equal('https://tables.example.com/');
    expect(endpointOf('https://cdn.example/casino/punto-banco-table.js?x=1')).to.equal('https://cdn.example/casino/');
  });
  it('a version pinned at /v/<version>/: the Worker two folders up, not /v/<version>/', () => {
    expect(endpointOf('https://tables.example.com/v/0.1.0/punto-banco-table.js')).to.equal('https://tables.example.com/');
    expect(endpointOf('http://127.0.0.1:8787/v/1.2.3-rc.1/punto-banco-table.js')).to.equal('http://127.0.0.1:8787/');
    expect(endpointOf('https://cdn.example/casino/v/0.1.0/punto-banco-table.js')).to.equal('https://cdn.example/casino/');
  });
  it('a bundled copy (no http URL): the page itself', () => {
    expect(endpointOf('file:///app/node_modules/punto-banco/dist/punto-banco-table.js')).to.equal('/');
    expect(endpointOf(undefined)).to.equal('/');
  });
});
