import { mount } from 'svelte';
// Defines <punto-banco-table> once, in the browser.
import 'punto-banco';
import App from './App.svelte';

mount(App, { target: document.getElementById('app')! });
