#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
// The CLI is TypeScript run by Node's own type stripping (Node >= 22.18): no build step.
import './main.ts';
