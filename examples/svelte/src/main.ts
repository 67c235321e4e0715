import { mount } from 'svelte';
// Defines <punto-banco-table> once, in the browser (on a server it defines nothing).
import 'punto-banco';
// Svelte's element types for the tag: its attributes and `onpb-…` events with their detail types (svelte-check).
import type {} from 'punto-banco/svelte';
import App from './App.svelte';

mount(App, { target: document.getElementById('app')! });
