/**
 * The Worker the table talks to: `?endpoint=` on the page's URL (the tests pass their own), else
 * the one `npm start` runs in the punto-banco repository.
 */
export const endpoint = new URLSearchParams(location.search).get('endpoint') ?? 'http://127.0.0.1:8787';
