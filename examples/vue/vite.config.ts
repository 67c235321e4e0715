import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  plugins: [
    vue({
      // <punto-banco-table> is a custom element, not a Vue component: Vue leaves it to the browser.
      template: { compilerOptions: { isCustomElement: (tag) => tag === 'punto-banco-table' } },
    }),
  ],
});
