import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// Every page rendered on request by a Node server (`npm start`; HOST and PORT set where it listens).
export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
});
