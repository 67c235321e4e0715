import { createApp } from 'vue';
// Defines <punto-banco-table> once, in the browser.
import 'punto-banco';
import App from './App.vue';

createApp(App).mount('#app');
