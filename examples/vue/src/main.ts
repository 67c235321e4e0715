import { createApp } from 'vue';
// Defines <punto-banco-table> once, in the browser (on a server it defines nothing).
import 'punto-banco';
// Vue's GlobalComponents for the tag: its props and `@pb-…` listeners with their detail types (vue-tsc).
import type {} from 'punto-banco/vue';
import App from './App.vue';

createApp(App).mount('#app');
